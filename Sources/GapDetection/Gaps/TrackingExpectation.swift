import Foundation
import UsageModel

/// When tracking was expected: always, or during the windows of monitoring schedules.
///
/// Gaps are only looked for inside these windows: a tracker whose DeviceActivity schedule runs
/// from 09:00 to 17:00 is silent at night by design.
///
/// ```swift
/// let school = try DailyWindow(start: TimeOfDay(hour: 9), end: TimeOfDay(hour: 17))
/// let expectation = TrackingExpectation.daily(school, in: zone)
/// ```
///
/// JSON form: `{"kind": "always"}`, `{"kind": "schedules", "timeZone": "Europe/Paris",
/// "schedules": [MonitoringSchedule, …]}` or `{"kind": "intervals", "intervals": [{"start":
/// "2026-03-08T09:00:00Z", "end": "2026-03-08T17:00:00Z"}, …]}`.
public struct TrackingExpectation: Sendable, Hashable, Codable {
  enum Storage: Sendable, Hashable {
    case always
    case schedules([MonitoringSchedule], TimeZone)
    case intervals([ClosedRange<Int64>])
  }

  let storage: Storage

  private init(_ storage: Storage) {
    self.storage = storage
  }

  /// Tracking was expected all the time.
  public static let always = TrackingExpectation(.always)

  /// Tracking was expected during every occurrence of a daily window.
  ///
  /// - Parameters:
  ///   - window: The daily window.
  ///   - timeZone: The zone of its wall clock.
  /// - Returns: The expectation.
  public static func daily(_ window: DailyWindow, in timeZone: TimeZone) -> TrackingExpectation {
    schedules([.daily(window)], in: timeZone)
  }

  /// Tracking was expected during any of the schedules' windows.
  ///
  /// - Parameters:
  ///   - schedules: Daily and timer windows, for example those of a `MonitoringPlan`.
  ///   - timeZone: The zone of the daily windows' wall clock.
  /// - Returns: The expectation.
  public static func schedules(_ schedules: [MonitoringSchedule], in timeZone: TimeZone)
    -> TrackingExpectation
  {
    TrackingExpectation(.schedules(schedules, timeZone))
  }

  /// Tracking was expected during the given intervals (which may overlap).
  ///
  /// - Parameter intervals: The intervals.
  /// - Returns: The expectation.
  public static func intervals(_ intervals: [DateInterval]) -> TrackingExpectation {
    TrackingExpectation(
      .intervals(
        intervals.map { interval in
          let (start, end) = TimeValues.bounds(of: interval)
          return start...end
        }))
  }

  /// The windows within `period`: clipped, merged where they overlap or touch, sorted.
  ///
  /// - Parameter period: The period to look at.
  /// - Returns: The expected windows.
  /// - Complexity: O(*d* · *s*) for *d* days and *s* schedules.
  public func windows(in period: DateInterval) -> [DateInterval] {
    let (start, end) = TimeValues.bounds(of: period)
    return expectedWindows(from: start, to: end, now: end, lookAround: 0).map {
      TimeValues.interval($0.low, $0.high)
    }
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case kind
    case timeZone
    case schedules
    case intervals
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for an unknown kind, time zone or an invalid interval.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "always":
      self = .always
    case "schedules":
      let identifier = try container.decode(String.self, forKey: .timeZone)
      guard let timeZone = TimeZone(identifier: identifier) else {
        throw DecodingError.dataCorruptedError(
          forKey: .timeZone, in: container, debugDescription: "unknown time zone \(identifier)")
      }
      self = .schedules(
        try container.decode([MonitoringSchedule].self, forKey: .schedules), in: timeZone)
    case "intervals":
      var list = try container.nestedUnkeyedContainer(forKey: .intervals)
      var intervals: [ClosedRange<Int64>] = []
      while !list.isAtEnd {
        let form = try list.nestedContainer(keyedBy: IntervalKeys.self)
        let start = try form.decodeInstant(forKey: .start)
        let end = try form.decodeInstant(forKey: .end)
        guard end >= start else {
          throw DecodingError.dataCorruptedError(
            forKey: .end, in: form, debugDescription: "end is before start")
        }
        intervals.append(start...end)
      }
      self.init(.intervals(intervals))
    case let kind:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container,
        debugDescription: "unknown kind \(kind.debugDescription); expected always, schedules or "
          + "intervals")
    }
  }

  private enum IntervalKeys: String, CodingKey {
    case start
    case end
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch storage {
    case .always:
      try container.encode("always", forKey: .kind)
    case .schedules(let schedules, let timeZone):
      try container.encode("schedules", forKey: .kind)
      try container.encode(timeZone.identifier, forKey: .timeZone)
      try container.encode(schedules, forKey: .schedules)
    case .intervals(let intervals):
      try container.encode("intervals", forKey: .kind)
      var list = container.nestedUnkeyedContainer(forKey: .intervals)
      for interval in intervals {
        var form = list.nestedContainer(keyedBy: IntervalKeys.self)
        try form.encodeInstant(interval.lowerBound, forKey: .start)
        try form.encodeInstant(interval.upperBound, forKey: .end)
      }
    }
  }
}
