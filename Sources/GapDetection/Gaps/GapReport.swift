import Foundation
import UsageModel

/// The gaps of a period and how its expected tracking time was spent, day by day.
///
/// Made by ``GapDetector``. ``gaps`` is sorted and non-overlapping; ``days`` splits every
/// window of expected tracking at local day boundaries into tracked, idle and unknown time that
/// add up exactly.
///
/// JSON form: `{"start": "2026-03-08T00:00:00Z", "end": "2026-03-08T10:21:00Z",
/// "evaluatedAt": "2026-03-08T10:21:00Z", "windows": [{"start": …, "end": …}, …], "gaps": [Gap,
/// …], "days": [DayAccounting, …]}`. Decoding checks what the detector guarantees: `start <=
/// end <= evaluatedAt` (or, for a report evaluated before its period began — a clock set back
/// — an empty period, `start == end`), and the windows, the gaps and the accounting's pieces
/// (across all days) each in order, disjoint and inside the period — so no total can exceed
/// the period.
public struct GapReport: Sendable, Hashable, Codable {
  /// The gaps, sorted by start, never overlapping.
  public let gaps: [Gap]
  /// The accounting of each local day the period touches.
  public let days: [DayAccounting]
  let startInstant: Int64
  let endInstant: Int64
  let evaluatedInstant: Int64
  let windowBounds: [ClosedRange<Int64>]

  init(
    start: Int64, end: Int64, evaluatedAt: Int64, windows: [ClosedRange<Int64>], gaps: [Gap],
    days: [DayAccounting]
  ) {
    startInstant = start
    endInstant = end
    evaluatedInstant = evaluatedAt
    windowBounds = windows
    self.gaps = gaps
    self.days = days
  }

  /// The period analysed, ending no later than ``evaluatedAt`` (empty when evaluated before
  /// it began); its ends are whole milliseconds, and its exact length is ``periodDuration``.
  public var period: DateInterval { TimeValues.interval(startInstant, endInstant) }
  /// The exact length of ``period``.
  public var periodDuration: Duration { .milliseconds(endInstant - startInstant) }
  /// The instant of the analysis (`now`).
  public var evaluatedAt: Date { Milliseconds.date(evaluatedInstant) }
  /// The windows of expected tracking within the period, sorted and disjoint; their exact
  /// lengths are ``windowDurations``.
  ///
  /// Empty when tracking was expected at no time of the period — with the default
  /// ``TrackingExpectation/sinceFirstHeartbeat``, when no heartbeat came before its end.
  public var windows: [DateInterval] {
    windowBounds.map { TimeValues.interval($0.lowerBound, $0.upperBound) }
  }
  /// The exact length of each of ``windows``, in the same order; in a
  /// detector's report they add up to ``expected``.
  public var windowDurations: [Duration] {
    windowBounds.map { .milliseconds($0.upperBound - $0.lowerBound) }
  }

  /// Expected tracking time in the period.
  public var expected: Duration { .milliseconds(sum(\.lengthMs)) }
  /// Time covered by usage records.
  public var tracked: Duration { .milliseconds(sum(\.trackedMs)) }
  /// Time the tracker was alive and saw no usage.
  public var idle: Duration { .milliseconds(sum(\.idleMs)) }
  /// Time in which usage may have been lost.
  public var unknown: Duration { .milliseconds(sum(\.unknownMs)) }

  /// The gaps of one class.
  ///
  /// - Parameter classification: The class.
  /// - Returns: Those gaps, in order.
  public func gaps(_ classification: GapClass) -> [Gap] {
    gaps.filter { $0.classification == classification }
  }

  /// The time of `classification` gaps that lies within `interval`.
  ///
  /// - Parameters:
  ///   - classification: The class, ``GapClass/trackerDown`` for the alert policy.
  ///   - interval: The interval, for example one window.
  /// - Returns: The overlap, exactly.
  /// - Complexity: O(*g*) in the number of gaps.
  public func time(of classification: GapClass, in interval: DateInterval) -> Duration {
    let (low, high) = TimeValues.bounds(of: interval)
    return .milliseconds(
      gaps.reduce(Int64(0)) { total, gap in
        guard gap.classification == classification else { return total }
        return total + max(0, min(gap.endInstant, high) - max(gap.startInstant, low))
      })
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case start
    case end
    case evaluatedAt
    case windows
    case gaps
    case days
  }

  private enum WindowKeys: String, CodingKey {
    case start
    case end
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var list = try container.nestedUnkeyedContainer(forKey: .windows)
    var windows: [ClosedRange<Int64>] = []
    while !list.isAtEnd {
      let window = try list.nestedContainer(keyedBy: WindowKeys.self)
      let start = try window.decodeInstant(forKey: .start)
      let end = try window.decodeInstant(forKey: .end)
      guard end >= start else {
        throw DecodingError.dataCorruptedError(
          forKey: .end, in: window, debugDescription: "end is before start")
      }
      windows.append(start...end)
    }
    let start = try container.decodeInstant(forKey: .start)
    let end = try container.decodeInstant(forKey: .end)
    let evaluatedAt = try container.decodeInstant(forKey: .evaluatedAt)
    guard start <= end, end <= evaluatedAt || start == end else {
      throw DecodingError.dataCorruptedError(
        forKey: .evaluatedAt, in: container,
        debugDescription: "needs start <= end <= evaluatedAt, or an empty period")
    }
    let gaps = try container.decode([Gap].self, forKey: .gaps)
    let days = try container.decode([DayAccounting].self, forKey: .days)
    let parts: [(CodingKeys, [(Int64, Int64)])] = [
      (.windows, windows.map { ($0.lowerBound, $0.upperBound) }),
      (.gaps, gaps.map { ($0.startInstant, $0.endInstant) }),
      (.days, days.flatMap(\.windows).map { ($0.startInstant, $0.endInstant) }),
    ]
    for (key, spans) in parts where !Self.inOrder(spans, from: start, to: end) {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container,
        debugDescription: "\(key.stringValue) must be in order, disjoint and inside start...end")
    }
    self.init(
      start: start, end: end, evaluatedAt: evaluatedAt, windows: windows, gaps: gaps, days: days)
  }

  /// Whether `spans` follow each other without overlapping, inside `[start, end]`.
  private static func inOrder(_ spans: [(Int64, Int64)], from start: Int64, to end: Int64) -> Bool {
    var previousEnd = start
    for (low, high) in spans {
      guard low >= previousEnd, high >= low, high <= end else { return false }
      previousEnd = high
    }
    return true
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
    try container.encodeInstant(evaluatedInstant, forKey: .evaluatedAt)
    var list = container.nestedUnkeyedContainer(forKey: .windows)
    for window in windowBounds {
      var form = list.nestedContainer(keyedBy: WindowKeys.self)
      try form.encodeInstant(window.lowerBound, forKey: .start)
      try form.encodeInstant(window.upperBound, forKey: .end)
    }
    try container.encode(gaps, forKey: .gaps)
    try container.encode(days, forKey: .days)
  }
}
