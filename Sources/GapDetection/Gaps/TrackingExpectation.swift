import Foundation
import UsageModel

/// When tracking was expected: from the tracker's first heartbeat on, always, or during the
/// windows of monitoring schedules.
///
/// Gaps are only looked for inside these windows: a tracker whose DeviceActivity schedule runs
/// from 09:00 to 17:00 is silent at night by design.
///
/// - ``sinceFirstHeartbeat``, the default of ``GapDetector``: from the first heartbeat given
///   on. Use it when you know nothing else; a tracker starts beating when it starts.
/// - ``always``: all the time. Use it when the tracker must have run all along, so that silence
///   before its first heartbeat is lost time.
/// - ``daily(_:in:)``, ``schedules(_:in:)``: during the occurrences of the DeviceActivity
///   schedules.
/// - ``intervals(_:)``: during monitoring intervals you keep yourself.
///
/// ```swift
/// // `schoolHours` is the DailyWindow of the DeviceActivity schedule, 09:00 to 17:00.
/// let expectation = TrackingExpectation.daily(schoolHours, in: zone)
/// ```
///
/// JSON form: `{"kind": "since_first_heartbeat"}`, `{"kind": "always"}`, `{"kind": "schedules",
/// "timeZone": "Europe/Paris", "schedules": [MonitoringSchedule, …]}` or `{"kind": "intervals",
/// "intervals": [{"start": "2026-03-08T09:00:00Z", "end": "2026-03-08T17:00:00Z"}, …]}`.
public struct TrackingExpectation: Sendable, Hashable, Codable {
  enum Storage: Sendable, Hashable {
    case sinceFirstHeartbeat
    case always
    case schedules([MonitoringSchedule], TimeZone)
    case intervals([ClosedRange<Int64>])
  }

  let storage: Storage

  private init(_ storage: Storage) {
    self.storage = storage
  }

  /// Tracking was expected from the tracker's first heartbeat on: the default of
  /// ``GapDetector``.
  ///
  /// A tracker starts beating when it starts, so before its first heartbeat nothing is known
  /// and nothing there is a gap; from that heartbeat on, tracking was expected all the time, as
  /// with ``always``. The first heartbeat is the earliest of the detector's source among the
  /// heartbeats the detector is given — not only those of the analysed period — so pass a
  /// recorder's history: a tracker that beat yesterday and went silent in the evening is
  /// tracker down from the start of today's report, while on the morning of its very first day
  /// the hours before it started are simply not judged.
  ///
  /// - Given no heartbeat of its source, the detector expects nothing: the report has no
  ///   windows and no gaps. Whether a tracker was *never seen* is answered by
  ///   ``HealthPolicy/health(of:at:)`` (``HeartbeatStatus/neverSeen``), not by a gap.
  /// - A recorder keeps a bounded history; time before its oldest kept heartbeat is not judged,
  ///   since the evidence for it was let go.
  /// - ``windows(in:firstHeartbeat:)`` needs the first heartbeat's instant to say more than
  ///   "nothing".
  public static let sinceFirstHeartbeat = TrackingExpectation(.sinceFirstHeartbeat)

  /// Tracking was expected all the time, also before the first heartbeat given.
  ///
  /// Choose it when you know the tracker should have been running all along: time before the
  /// first heartbeat counts as heartbeat silence, so a tracker that started late, or never, is
  /// tracker down there.
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
  ///   - schedules: Daily and timer windows, for example those of a ``/UsageModel/MonitoringPlan``.
  ///   - timeZone: The zone of the daily windows' wall clock.
  /// - Returns: The expectation.
  public static func schedules(_ schedules: [MonitoringSchedule], in timeZone: TimeZone)
    -> TrackingExpectation
  {
    TrackingExpectation(.schedules(schedules, timeZone))
  }

  /// Tracking was expected during the given intervals (which may overlap).
  ///
  /// - Parameter intervals: The intervals; their ends are rounded to the millisecond.
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
  /// These are the windows a ``GapDetector`` with this expectation looks at, and that its
  /// ``GapReport/windows`` lists (cut at `now` as well).
  ///
  /// - Parameters:
  ///   - period: The period to look at; its ends are rounded to the millisecond.
  ///   - firstHeartbeat: The instant of the tracker's first heartbeat, which
  ///     ``sinceFirstHeartbeat`` starts from; the other expectations ignore it. Without it,
  ///     ``sinceFirstHeartbeat`` has no windows, as a detector given no heartbeat finds.
  /// - Returns: The expected windows, each rounded to the millisecond; their exact total length
  ///   is ``duration(in:firstHeartbeat:)``.
  /// - Complexity: O(*d* · *s*) for *d* days and *s* schedules.
  public func windows(in period: DateInterval, firstHeartbeat: Date? = nil) -> [DateInterval] {
    expectedWindows(in: period, firstHeartbeat: firstHeartbeat).map {
      TimeValues.interval($0.low, $0.high)
    }
  }

  /// The expected tracking time within `period`: the exact total length of
  /// ``windows(in:firstHeartbeat:)``.
  ///
  /// - Parameters:
  ///   - period: The period to look at; its ends are rounded to the millisecond.
  ///   - firstHeartbeat: The instant of the tracker's first heartbeat, for
  ///     ``sinceFirstHeartbeat``; the other expectations ignore it.
  /// - Returns: The total, exact to the millisecond.
  /// - Complexity: O(*d* · *s*) for *d* days and *s* schedules.
  public func duration(in period: DateInterval, firstHeartbeat: Date? = nil) -> Duration {
    .milliseconds(
      expectedWindows(in: period, firstHeartbeat: firstHeartbeat).reduce(Int64(0)) {
        $0 + ($1.high - $1.low)
      })
  }

  /// The windows of `period`, seen from its end.
  private func expectedWindows(in period: DateInterval, firstHeartbeat: Date?) -> [ExpectedWindow] {
    let (start, end) = TimeValues.bounds(of: period)
    return expectedWindows(
      from: start, to: end, now: end, lookAround: 0,
      firstHeartbeat: firstHeartbeat.map(TimeValues.clampedInstant))
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
    case "since_first_heartbeat":
      self = .sinceFirstHeartbeat
    case "always":
      self = .always
    case "schedules":
      let timeZone = try container.decodeTimeZone(forKey: .timeZone)
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
        debugDescription: "unknown kind \(kind.debugDescription); expected "
          + "since_first_heartbeat, always, schedules or intervals")
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
    case .sinceFirstHeartbeat:
      try container.encode("since_first_heartbeat", forKey: .kind)
    case .always:
      try container.encode("always", forKey: .kind)
    case .schedules(let schedules, let timeZone):
      try container.encode("schedules", forKey: .kind)
      try container.encodeTimeZone(timeZone, forKey: .timeZone)
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
