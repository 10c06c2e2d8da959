import Foundation

/// Attributes a threshold event to the monitoring interval it was counted in.
///
/// The platform counts an event's threshold from the start of the interval the event belongs
/// to, so the interval's start is what makes two events comparable. The rule:
/// - When the activity is in the ``MonitoringPlan``, the event belongs to the occurrence of its
///   schedule that contains it — from the latest `intervalDidStart` recorded inside that
///   occurrence, when monitoring was started again in it (a restart begins a new interval
///   there).
/// - Otherwise it belongs to the activity's latest recorded start before it, if that is at most
///   ``longestInterval`` earlier (the platform's longest monitoring interval is a week).
/// - Otherwise no known interval contains it.
///
/// ```swift
/// var attribution = IntervalAttribution(plan: plan, timeZone: zone)
/// attribution.recordStart(of: "daily", at: start)
/// let intervalStart = attribution.intervalStart(of: "daily", containing: receivedAt)
/// ```
///
/// The schedules' wall clock is read in ``timeZone``.
public struct IntervalAttribution: Sendable, Hashable {
  /// The longest monitoring interval the platform allows: 7 days.
  public static let longestInterval: Duration = .milliseconds(longestIntervalMilliseconds)

  /// ``longestInterval`` in milliseconds.
  package static let longestIntervalMilliseconds: Int64 = 7 * 86_400_000

  /// The activities and their schedules, if known.
  public let plan: MonitoringPlan?
  /// The zone of the schedules' wall clock.
  public let timeZone: TimeZone
  /// Each activity's recorded starts, in milliseconds, ascending.
  private var starts: [String: [Int64]] = [:]

  /// Creates an attribution with no recorded start.
  ///
  /// - Parameters:
  ///   - plan: The monitored activities and their schedules; `nil` when unknown.
  ///   - timeZone: The zone of the schedules' wall clock.
  public init(plan: MonitoringPlan?, timeZone: TimeZone) {
    self.plan = plan
    self.timeZone = timeZone
  }

  /// Records that an interval of `activity` started at `instant` (an `intervalDidStart`).
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - instant: When the interval started.
  /// - Complexity: O(*n*) in the starts recorded for the activity; O(1) when starts are
  ///   recorded in order.
  public mutating func recordStart(of activity: String, at instant: Date) {
    recordStart(of: activity, at: Milliseconds.clampedInstant(instant))
  }

  /// The start of the interval of `activity` that an event received at `instant` was counted
  /// in.
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - instant: When the event was received.
  /// - Returns: The interval's start, or `nil` when no known interval contains the instant.
  /// - Complexity: O(log *n*) in the starts recorded for the activity, plus the schedule's
  ///   occurrence lookup.
  public func intervalStart(of activity: String, containing instant: Date) -> Date? {
    intervalStart(of: activity, containing: Milliseconds.clampedInstant(instant)).map(
      Milliseconds.date)
  }

  // MARK: - Milliseconds

  /// ``recordStart(of:at:)`` in milliseconds since 1970.
  package mutating func recordStart(of activity: String, at instant: Int64) {
    var list = starts[activity, default: []]
    if let last = list.last, last > instant {
      let position = list.firstIndex { $0 >= instant } ?? list.endIndex
      if position < list.count, list[position] == instant { return }
      list.insert(instant, at: position)
    } else if list.last != instant {
      list.append(instant)
    }
    starts[activity] = list
  }

  /// ``intervalStart(of:containing:)`` in milliseconds since 1970.
  package func intervalStart(of activity: String, containing instant: Int64) -> Int64? {
    let latest = latestStart(of: activity, atOrBefore: instant)
    if let schedule = plan?.activities.first(where: { $0.name == activity })?.schedule,
      let occurrence = occurrenceStart(of: schedule, containing: instant)
    {
      guard let latest, latest >= occurrence else { return occurrence }
      return latest
    }
    guard let latest, instant - latest <= Self.longestIntervalMilliseconds else { return nil }
    return latest
  }

  private func latestStart(of activity: String, atOrBefore instant: Int64) -> Int64? {
    guard let list = starts[activity] else { return nil }
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if list[middle] <= instant { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : list[low - 1]
  }

  private func occurrenceStart(of schedule: MonitoringSchedule, containing instant: Int64)
    -> Int64?
  {
    let date = Milliseconds.date(instant)
    switch schedule {
    case .daily(let window):
      return window.occurrence(containing: date, in: timeZone).flatMap {
        Milliseconds.instant($0.start)
      }
    case .timer(let window):
      return window.contains(date) ? window.startInstant : nil
    }
  }
}
