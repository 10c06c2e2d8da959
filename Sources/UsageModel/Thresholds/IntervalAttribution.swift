import Foundation

/// Attributes a threshold event to the monitoring interval it was counted in.
///
/// The platform counts an event's threshold from the start of the interval the event belongs
/// to, so the interval's start is what makes two events comparable. The rule:
/// - When the activity is in the ``MonitoringPlan``, the event belongs to the occurrence of its
///   schedule that contains it — from the latest `intervalDidStart` recorded inside that
///   occurrence, when monitoring was started again in it (a restart begins a new interval
///   there). An `intervalDidStart` up to ``ownCallbackWindow`` after the occurrence's start is
///   the occurrence's own callback, delivered late, not a restart: the platform counts from the
///   occurrence's start, and an interval's start does not move when its callback arrives after
///   its thresholds. The schedule's wall clock is read in the zone the interval began in: the zone
///   recorded with the latest start before the event, else the event's own, else
///   ``timeZone``. So a person who travels keeps each interval in the zone it began in, and
///   reading the facts with another configured zone changes nothing.
/// - Otherwise it belongs to the activity's latest recorded start before it, if that is at most
///   ``longestInterval`` earlier (the platform's longest monitoring interval is a week). For a
///   scheduled activity, such an event came after an occurrence ended (delivered late): it
///   belongs to the last occurrence, under the start its events inside had — the occurrence's
///   start, unless a restart inside it was recorded — never to a second interval of it, nor to
///   an earlier occurrence whose start is the latest recorded because this one's was lost.
/// - Otherwise no known interval contains it.
///
/// With the app's ``registrations``, the generation an event's name carries decides first
/// whether and where it counts (see ``attribute(_:of:receivedAt:timeZone:)``): a replay of an
/// older registration counts nothing, and a registration counted from the registration instant
/// begins its own interval there. An `intervalDidStart` up to ``ownCallbackWindow`` after a
/// re-registration counted from the occurrence's start is that re-registration's own callback,
/// not a restart.
///
/// ```swift
/// var attribution = IntervalAttribution(plan: plan, timeZone: zone)
/// attribution.recordStart(of: "daily", at: start)
/// let intervalStart = attribution.intervalStart(of: "daily", containing: receivedAt)
/// ```
///
/// The schedules' wall clock is read in the zone each interval began in (see above), or in
/// ``timeZone`` where no zone was recorded.
public struct IntervalAttribution: Sendable, Hashable {
  /// The longest monitoring interval the platform allows: 7 days.
  public static let longestInterval: Duration = .milliseconds(longestIntervalMilliseconds)

  /// ``longestInterval`` in milliseconds.
  package static let longestIntervalMilliseconds: Int64 = 7 * 86_400_000

  /// How long after a re-registration counted from the occurrence's start, or after a scheduled
  /// occurrence's start, an `intervalDidStart` is its own callback rather than a restart: 60
  /// seconds.
  public static let ownCallbackWindow: Duration = .seconds(60)

  /// ``ownCallbackWindow`` in milliseconds.
  static let ownCallbackMilliseconds: Int64 = 60_000

  /// The activities and their schedules, if known.
  public let plan: MonitoringPlan?
  /// The app's registrations, by activity, in ascending order of generation.
  let registrationsByActivity: [String: [MonitoringRegistration]]
  /// The zone of the schedules' wall clock where no zone was recorded.
  public let timeZone: TimeZone
  /// Each activity's recorded starts, in milliseconds, ascending, with the zone recorded.
  private var starts: [String: [Start]] = [:]

  /// One recorded start.
  struct Start: Sendable, Hashable {
    var instant: Int64
    var timeZone: TimeZone?
  }

  /// Creates an attribution with no recorded start.
  ///
  /// - Parameters:
  ///   - plan: The monitored activities and their schedules; `nil` when unknown.
  ///   - timeZone: The zone of the schedules' wall clock.
  ///   - registrations: The `startMonitoring` calls the app made, valid per
  ///     ``MonitoringRegistration/validate(_:)``; none by default.
  /// - Complexity: O(*r* log *r*) for *r* registrations.
  public init(
    plan: MonitoringPlan?, timeZone: TimeZone, registrations: [MonitoringRegistration] = []
  ) {
    self.plan = plan
    self.timeZone = timeZone
    registrationsByActivity = Dictionary(grouping: registrations, by: \.activity)
      .mapValues { $0.sorted { $0.generation < $1.generation } }
  }

  /// The app's registrations, in ascending order of activity and generation.
  public var registrations: [MonitoringRegistration] {
    registrationsByActivity.keys.sorted().flatMap { registrationsByActivity[$0] ?? [] }
  }

  /// Records that an interval of `activity` started at `instant` (an `intervalDidStart`).
  ///
  /// A second start at the same instant is the same start; the first zone recorded for it is
  /// kept. A start up to ``ownCallbackWindow`` after a re-registration counted from the
  /// occurrence's start is that registration's own callback and is not recorded.
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - instant: When the interval started.
  ///   - timeZone: The zone the device was in, if known.
  /// - Complexity: O(*n*) in the starts recorded for the activity; O(1) when starts are
  ///   recorded in order.
  public mutating func recordStart(of activity: String, at instant: Date, timeZone: TimeZone? = nil)
  {
    recordStart(of: activity, at: Milliseconds.clampedInstant(instant), timeZone: timeZone)
  }

  /// The start of the interval of `activity` that an event received at `instant` was counted
  /// in.
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - instant: When the event was received.
  ///   - timeZone: The zone the device was in when the event was received, if known.
  /// - Returns: The interval's start, or `nil` when no known interval contains the instant.
  /// - Complexity: O(log *n*) in the starts recorded for the activity, plus the schedule's
  ///   occurrence lookup.
  public func intervalStart(
    of activity: String, containing instant: Date, timeZone: TimeZone? = nil
  ) -> Date? {
    intervalStart(
      of: activity, containing: Milliseconds.clampedInstant(instant), timeZone: timeZone
    ).map(Milliseconds.date)
  }

  // MARK: - Milliseconds

  /// ``recordStart(of:at:timeZone:)`` in milliseconds since 1970.
  package mutating func recordStart(
    of activity: String, at instant: Int64, timeZone: TimeZone? = nil
  ) {
    if isOwnCallback(of: activity, at: instant) { return }
    var list = starts[activity, default: []]
    let start = Start(instant: instant, timeZone: timeZone)
    if let last = list.last, last.instant >= instant {
      let position = list.firstIndex { $0.instant >= instant } ?? list.endIndex
      if position < list.count, list[position].instant == instant { return }
      list.insert(start, at: position)
    } else {
      list.append(start)
    }
    starts[activity] = list
  }

  /// ``intervalStart(of:containing:timeZone:)`` in milliseconds since 1970.
  package func intervalStart(
    of activity: String, containing instant: Int64, timeZone eventZone: TimeZone? = nil
  ) -> Int64? {
    let latest = latestStart(of: activity, atOrBefore: instant)
    let schedule = plan?.activities.first { $0.name == activity }?.schedule
    if let schedule {
      let zone = self.zone(of: activity, at: instant, eventZone: eventZone)
      if let occurrence = occurrenceStart(of: schedule, containing: instant, in: zone) {
        guard let latest, Self.isRestart(latest.instant, inOccurrenceAt: occurrence) else {
          return occurrence
        }
        return latest.instant
      }
    }
    guard let latest, instant - latest.instant <= Self.longestIntervalMilliseconds else {
      return nil
    }
    // Between occurrences (a threshold delivered after its occurrence ended): the last
    // occurrence's interval, under the start its events inside had — the occurrence's, unless a
    // restart in it was recorded. The own callback's instant, or an earlier occurrence's start
    // when this one's `intervalDidStart` was lost, would count one interval under two starts,
    // each with its highest threshold.
    if let schedule,
      let occurrence = lastOccurrenceStart(
        of: schedule, atOrBefore: instant,
        in: zone(of: activity, at: instant, eventZone: eventZone)),
      !Self.isRestart(latest.instant, inOccurrenceAt: occurrence)
    {
      return occurrence
    }
    return latest.instant
  }

  /// The start of the last occurrence of `schedule` that began at or before `instant`, read in
  /// `zone`; `nil` when none did (a timer not begun yet), or past the supported days.
  private func lastOccurrenceStart(
    of schedule: MonitoringSchedule, atOrBefore instant: Int64, in zone: TimeZone
  ) -> Int64? {
    switch schedule {
    case .timer(let window):
      return window.startInstant <= instant ? window.startInstant : nil
    case .daily(let window):
      // The occurrence of the instant's day, or of a day before when that one begins later (a
      // window that starts after the instant's time, or crosses midnight).
      let day = DayBoundary(timeZone: zone).day(containingSupported: instant)
      for offset in [0, -1, -2]
      where LocalDay.supportedDayNumbers.contains(day.dayNumber + offset) {
        let occurrence = window.occurrence(startingOn: day.advanced(by: offset), in: zone)
        if let start = Milliseconds.instant(occurrence.start), start <= instant { return start }
      }
      return nil
    }
  }

  /// Whether a start recorded at `start` begins an interval of its own in the occurrence that
  /// began at `occurrence`: more than ``ownCallbackWindow`` after it.
  ///
  /// A start up to the window after the occurrence's start is its own callback, delivered late,
  /// and the platform counts from the occurrence's start; a start before it is an earlier
  /// occurrence's.
  private static func isRestart(_ start: Int64, inOccurrenceAt occurrence: Int64) -> Bool {
    start - occurrence > ownCallbackMilliseconds
  }

  /// The end of the interval of `activity` that contains `instant`, as far as the plan and the
  /// recorded starts tell: the scheduled occurrence's end, else the activity's next recorded
  /// start, else ``longestInterval`` after the interval's start; `nil` when no known interval
  /// contains `instant`.
  package func intervalEnd(of activity: String, containing instant: Int64) -> Int64? {
    guard let start = intervalStart(of: activity, containing: instant) else { return nil }
    if let schedule = plan?.activities.first(where: { $0.name == activity })?.schedule {
      let zone = self.zone(of: activity, at: instant, eventZone: nil)
      switch schedule {
      case .daily(let window):
        if let occurrence = window.occurrence(containing: Milliseconds.date(instant), in: zone),
          let end = Milliseconds.instant(occurrence.end)
        {
          return end
        }
      case .timer(let window):
        if window.contains(Milliseconds.date(instant)) { return window.endInstant }
      }
    }
    // The next start after the event, not after the interval's: an interval read from its
    // occurrence's start may have its own callback's start after it.
    let next = starts[activity]?.first { $0.instant > instant }?.instant
    return min(next ?? .max, start + Self.longestIntervalMilliseconds)
  }

  /// The activities whose starts were recorded, sorted.
  package var activitiesStarted: [String] { starts.keys.sorted() }

  /// The zone an interval of `activity` containing `instant` is read in: the zone recorded with
  /// the latest start at or before it, else the event's, else ``timeZone``.
  package func zone(of activity: String, at instant: Int64, eventZone: TimeZone?) -> TimeZone {
    latestStart(of: activity, atOrBefore: instant)?.timeZone ?? eventZone ?? timeZone
  }

  func latestStart(of activity: String, atOrBefore instant: Int64) -> Start? {
    guard let list = starts[activity] else { return nil }
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if list[middle].instant <= instant { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : list[low - 1]
  }

  private func occurrenceStart(
    of schedule: MonitoringSchedule, containing instant: Int64, in zone: TimeZone
  ) -> Int64? {
    let date = Milliseconds.date(instant)
    switch schedule {
    case .daily(let window):
      return window.occurrence(containing: date, in: zone).flatMap {
        Milliseconds.instant($0.start)
      }
    case .timer(let window):
      return window.contains(date) ? window.startInstant : nil
    }
  }
}
