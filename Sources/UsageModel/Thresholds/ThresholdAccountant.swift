import Foundation

/// Counts DeviceActivity threshold events as usage, idempotently, and flags the impossible ones.
///
/// Within one monitoring interval an app's thresholds are cumulative (1 minute, 2 minutes, …),
/// so the app's usage in the interval is the **highest threshold reached** — never a sum of
/// events. Recording an event therefore adds only what it raises that maximum by:
/// - a duplicate delivery (the same threshold again) adds nothing;
/// - a late or out-of-order one (a lower threshold after a higher) adds nothing;
/// - an event of a new interval (a different ``ThresholdEvent/intervalStart``) starts from zero
///   in that interval, and a late event of an earlier interval counts only there.
///
/// An event is **implausible** when its threshold exceeds the wall-clock time since its
/// interval began, plus an allowance when it counts past activity (the platform then includes
/// usage since the start of the local hour in which the interval began), plus ``tolerance``.
/// Such an event is kept in ``MonitoringIntervalUsage/implausibleEvents`` and reported, never
/// counted — the platform sometimes fires every threshold at the first pickup of the day.
///
/// ```swift
/// var accountant = ThresholdAccountant(timeZone: zone)
/// switch accountant.record(event) {
/// case .counted(let added, _): recordUsage(added)
/// case .duplicate, .superseded: break
/// case .implausible(let report): log(report)
/// }
/// ```
///
/// The accountant is a value: persist it (for example in a ``/SharedStore`` key) and record each
/// event inside one atomic update. JSON form: `{"timeZone": "America/New_York", "toleranceMs":
/// 0, "intervals": [MonitoringIntervalUsage, …]}`, intervals in ascending order of start.
public struct ThresholdAccountant: Sendable, Hashable, Codable {
  /// The zone whose local hours bound the past-activity allowance.
  public let timeZone: TimeZone
  /// Extra time granted before an event counts as implausible, for clock skew; zero or more.
  public let tolerance: Duration
  /// Every interval with events, in ascending order of start.
  public private(set) var intervals: [MonitoringIntervalUsage] = []

  /// Creates an empty accountant with no tolerance.
  ///
  /// Every time zone is valid, so this cannot fail; use it as the default value of a stored key.
  ///
  /// ```swift
  /// let key = StoreKey("threshold-accountant", default: ThresholdAccountant(timeZone: zone))
  /// ```
  ///
  /// - Parameter timeZone: The zone whose local hours bound the past-activity allowance.
  public init(timeZone: TimeZone) {
    self.timeZone = timeZone
    self.tolerance = .zero
  }

  /// Creates an empty accountant that grants `tolerance` for clock skew.
  ///
  /// - Parameters:
  ///   - timeZone: The zone whose local hours bound the past-activity allowance.
  ///   - tolerance: Extra time granted before an event is implausible: zero or more, a whole
  ///     number of milliseconds.
  /// - Throws: ``UsageModelError/invalidDuration(field:value:reason:)`` for a negative or
  ///   fractional-millisecond tolerance.
  public init(timeZone: TimeZone, tolerance: Duration) throws(UsageModelError) {
    guard tolerance >= .zero, Milliseconds.isWhole(tolerance),
      Milliseconds.amount(tolerance) != nil
    else {
      throw .invalidDuration(
        field: "tolerance", value: "\(tolerance)",
        reason: "a tolerance must be a whole number of milliseconds, zero or more")
    }
    self.timeZone = timeZone
    self.tolerance = tolerance
  }

  /// Records one event and says what it did.
  ///
  /// Any ``tolerance`` is usable, however long: a tolerance longer than any two instants are
  /// apart makes every event plausible.
  ///
  /// - Parameter event: A threshold event, in any order relative to the others.
  /// - Returns: What the event added, or why it added nothing.
  /// - Complexity: O(log *i* + *a*) for *i* intervals and *a* apps in the event's interval.
  public mutating func record(_ event: ThresholdEvent) -> ThresholdOutcome {
    let position = intervalPosition(event.intervalStartInstant)
    if position == intervals.count || intervals[position].startInstant != event.intervalStartInstant
    {
      intervals.insert(
        MonitoringIntervalUsage(startInstant: event.intervalStartInstant), at: position)
    }
    let elapsed = event.receivedInstant - event.intervalStartInstant
    let allowance =
      event.includesPastActivity ? pastActivityAllowance(event.intervalStartInstant) : 0
    let threshold = Milliseconds.amount(event.name.threshold) ?? 0
    // A tolerance may be as long as 292 million years (a decoded one too): the sum saturates,
    // and an event within a tolerance that long is plausible.
    let (grace, overflow) = (elapsed + allowance).addingReportingOverflow(
      Milliseconds.amount(tolerance) ?? .max)
    guard overflow || threshold <= grace else {
      let report = ImplausibleThresholdEvent(
        event: event, elapsed: Milliseconds.duration(elapsed),
        allowance: Milliseconds.duration(allowance))
      intervals[position].addImplausible(report)
      return .implausible(report)
    }
    return intervals[position].raise(
      app: event.name.app, to: threshold, at: event.receivedInstant)
  }

  /// Every app's usage in the interval that began at `intervalStart`.
  ///
  /// - Parameter intervalStart: The interval's start, as the events carried it.
  /// - Returns: Each app's highest threshold reached; empty for an unknown interval.
  public func usage(inIntervalStartingAt intervalStart: Date) -> [AppID: Duration] {
    guard let interval = interval(startingAt: intervalStart) else { return [:] }
    // Decoding rejects repeated apps; should one slip through, its highest threshold wins
    // rather than a trap.
    return Dictionary(interval.apps.map { ($0.app, $0.highest) }, uniquingKeysWith: max)
  }

  /// One app's usage in the interval that began at `intervalStart`.
  ///
  /// - Parameters:
  ///   - app: The app.
  ///   - intervalStart: The interval's start, as the events carried it.
  /// - Returns: Its highest threshold reached, zero when none.
  public func usage(of app: AppID, inIntervalStartingAt intervalStart: Date) -> Duration {
    interval(startingAt: intervalStart)?.apps.first { $0.app == app }?.highest ?? .zero
  }

  /// The interval that began at `intervalStart`, if it has events.
  ///
  /// - Parameter intervalStart: The interval's start.
  /// - Returns: Its usage.
  public func interval(startingAt intervalStart: Date) -> MonitoringIntervalUsage? {
    guard let instant = Milliseconds.instant(intervalStart) else { return nil }
    let position = intervalPosition(instant)
    guard position < intervals.count, intervals[position].startInstant == instant else {
      return nil
    }
    return intervals[position]
  }

  /// Every implausible event of every interval, in order of interval, then of arrival.
  public var implausibleEvents: [ImplausibleThresholdEvent] {
    intervals.flatMap(\.implausibleEvents)
  }

  /// Forgets intervals that began before `cutoff`, to bound the state's size.
  ///
  /// - Parameter cutoff: Intervals starting strictly before it are removed.
  /// - Returns: How many intervals were removed.
  @discardableResult
  public mutating func removeIntervals(startingBefore cutoff: Date) -> Int {
    let before = intervals.count
    intervals.removeAll { $0.start < cutoff }
    return before - intervals.count
  }

  /// The usage before an interval that an event with `includesPastActivity` may include: the
  /// time from the start of the local hour in which the interval began to its start.
  ///
  /// - Parameter intervalStart: The interval's start.
  /// - Returns: 0...59:59.999, for example 20 minutes for an interval that began at 10:20 local.
  public func pastActivityAllowance(intervalStart: Date) -> Duration {
    guard let instant = Milliseconds.instant(intervalStart) else { return .zero }
    return Milliseconds.duration(pastActivityAllowance(instant))
  }

  private func pastActivityAllowance(_ instant: Int64) -> Int64 {
    CivilCalendar.floorModulo(ZoneClock(timeZone: timeZone).wall(at: instant), 3_600_000)
  }

  private func intervalPosition(_ instant: Int64) -> Int {
    var low = 0
    var high = intervals.count
    while low < high {
      let middle = (low + high) / 2
      if intervals[middle].startInstant < instant { low = middle + 1 } else { high = middle }
    }
    return low
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case timeZone
    case toleranceMs
    case intervals
  }

  /// Decodes the documented JSON form; intervals may come in any order, but each start at most
  /// once.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also when two intervals share
  ///   a start or an interval lists an app twice.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    timeZone = try container.decodeTimeZone(forKey: .timeZone)
    tolerance = try container.decodeMilliseconds(forKey: .toleranceMs)
    intervals = try container.decode([MonitoringIntervalUsage].self, forKey: .intervals)
      .sorted { $0.startInstant < $1.startInstant }
    for (earlier, later) in zip(intervals, intervals.dropFirst())
    where earlier.startInstant == later.startInstant {
      throw DecodingError.dataCorruptedError(
        forKey: .intervals, in: container,
        debugDescription:
          "two intervals start at \(later.start); each start identifies one interval")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeTimeZone(timeZone, forKey: .timeZone)
    try container.encodeMilliseconds(tolerance, forKey: .toleranceMs)
    try container.encode(intervals, forKey: .intervals)
  }
}
