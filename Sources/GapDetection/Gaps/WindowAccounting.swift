import Foundation
import UsageModel

/// How one stretch of expected tracking time was spent: tracked, idle or unknown.
///
/// - *tracked*: covered by at least one usage record;
/// - *unknown*: not tracked, inside a ``GapClass/trackerDown`` or
///   ``GapClass/notificationLoss`` gap — usage may have happened and been lost;
/// - *idle*: everything else — the tracker was alive and saw no usage.
///
/// The three add up to the stretch's length exactly, to the millisecond.
///
/// JSON form: `{"start": "2026-03-08T00:00:00Z", "end": "2026-03-08T12:00:00Z", "trackedMs":
/// 3600000, "idleMs": 39600000, "unknownMs": 0}`.
public struct WindowAccounting: Sendable, Hashable, Codable {
  let startInstant: Int64
  let endInstant: Int64
  let trackedMs: Int64
  let idleMs: Int64
  let unknownMs: Int64

  init(start: Int64, end: Int64, tracked: Int64, idle: Int64, unknown: Int64) {
    startInstant = start
    endInstant = end
    trackedMs = tracked
    idleMs = idle
    unknownMs = unknown
  }

  var lengthMs: Int64 { endInstant - startInstant }

  /// Where the stretch starts.
  public var start: Date { Milliseconds.date(startInstant) }
  /// Where it ends.
  public var end: Date { Milliseconds.date(endInstant) }
  /// Its exact length: ``tracked`` + ``idle`` + ``unknown``.
  public var duration: Duration { .milliseconds(endInstant - startInstant) }
  /// The stretch's interval, from ``start`` to ``end``; its exact length is ``duration``.
  public var interval: DateInterval { TimeValues.interval(startInstant, endInstant) }
  /// Time covered by usage records.
  public var tracked: Duration { .milliseconds(trackedMs) }
  /// Time the tracker was alive and saw no usage.
  public var idle: Duration { .milliseconds(idleMs) }
  /// Time in which usage may have been lost.
  public var unknown: Duration { .milliseconds(unknownMs) }

  private enum CodingKeys: String, CodingKey {
    case start
    case end
    case trackedMs
    case idleMs
    case unknownMs
  }

  /// Decodes the documented JSON form, checking that the parts add up.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when a field is missing or the parts do not add up to the length.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      start: try container.decodeInstant(forKey: .start),
      end: try container.decodeInstant(forKey: .end),
      tracked: try container.decode(Int64.self, forKey: .trackedMs),
      idle: try container.decode(Int64.self, forKey: .idleMs),
      unknown: try container.decode(Int64.self, forKey: .unknownMs))
    let (partial, firstOverflow) = trackedMs.addingReportingOverflow(idleMs)
    let (sum, secondOverflow) = partial.addingReportingOverflow(unknownMs)
    guard trackedMs >= 0, idleMs >= 0, unknownMs >= 0, !firstOverflow, !secondOverflow,
      sum == endInstant - startInstant
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .unknownMs, in: container,
        debugDescription: "tracked + idle + unknown must equal end - start, none negative")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
    try container.encode(trackedMs, forKey: .trackedMs)
    try container.encode(idleMs, forKey: .idleMs)
    try container.encode(unknownMs, forKey: .unknownMs)
  }
}

/// The accounting of one local day: its pieces of expected tracking time.
///
/// A window that crosses the day's boundary (21:00 to 07:00, or a gap spanning midnight) is
/// split there, so each day accounts only for its own time. The pieces are in order and never
/// overlap, so the day's totals never exceed the time they span.
///
/// JSON form: `{"day": "2026-03-08", "windows": [WindowAccounting, …]}`, the windows in order
/// and disjoint.
public struct DayAccounting: Sendable, Hashable, Codable {
  /// The local day.
  public let day: LocalDay
  /// The pieces of expected tracking time within the day, in order.
  public let windows: [WindowAccounting]

  /// Creates a day's accounting.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - windows: Its pieces, in order, none overlapping the next.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` when a piece starts
  ///   before the previous one ends.
  public init(day: LocalDay, windows: [WindowAccounting]) throws(GapDetectionError) {
    if let overlap = Self.firstOverlap(in: windows) {
      throw .invalidValue(
        field: "windows", value: "a piece starting \(windows[overlap].start)",
        requirement: "in order, not before the previous piece ends")
    }
    self.init(unchecked: day, windows: windows)
  }

  init(unchecked day: LocalDay, windows: [WindowAccounting]) {
    self.day = day
    self.windows = windows
  }

  /// The index of the first piece that starts before its predecessor ends.
  static func firstOverlap(in windows: [WindowAccounting]) -> Int? {
    zip(windows.indices.dropFirst(), zip(windows, windows.dropFirst())).first { _, pair in
      pair.1.startInstant < pair.0.endInstant
    }?.0
  }

  /// Expected tracking time in the day: ``tracked`` + ``idle`` + ``unknown``.
  public var expected: Duration { .milliseconds(windows.reduce(0) { $0 + $1.lengthMs }) }
  /// Time covered by usage records.
  public var tracked: Duration { .milliseconds(windows.reduce(0) { $0 + $1.trackedMs }) }
  /// Time the tracker was alive and saw no usage.
  public var idle: Duration { .milliseconds(windows.reduce(0) { $0 + $1.idleMs }) }
  /// Time in which usage may have been lost.
  public var unknown: Duration { .milliseconds(windows.reduce(0) { $0 + $1.unknownMs }) }

  private enum CodingKeys: String, CodingKey {
    case day
    case windows
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also for pieces out of order
  ///   or overlapping.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let day = try container.decode(LocalDay.self, forKey: .day)
    let windows = try container.decode([WindowAccounting].self, forKey: .windows)
    do {
      try self.init(day: day, windows: windows)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .windows, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(day, forKey: .day)
    try container.encode(windows, forKey: .windows)
  }
}
