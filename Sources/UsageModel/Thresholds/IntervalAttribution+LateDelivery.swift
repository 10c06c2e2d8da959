import Foundation

extension IntervalAttribution {
  /// How long after an interval's end a threshold of it may still be delivered: 1 hour.
  ///
  /// The platform holds threshold callbacks back (a device asleep, a busy extension) and
  /// delivers them late, sometimes after their interval ended and the next one began.
  public static let lateDeliveryWindow: Duration = .seconds(3_600)

  /// The interval before `start` and its end, when an event of `activity` received at
  /// `received` with threshold `threshold` is a late delivery of it.
  ///
  /// An event belongs to the interval that contains it, unless its threshold exceeds the time
  /// since that interval began and the activity's scheduled occurrence before it ended at most
  /// ``lateDeliveryWindow`` earlier: then the platform could not have counted it in the new
  /// interval, and it is a late delivery of the one before, whose threshold was reached by the
  /// time it ended. Activities without a daily schedule in the plan have no known end, and keep
  /// the interval that contains the event; so do events of a registration counted from the
  /// registration. The occurrence is read in the zone the interval began in.
  ///
  /// A late delivery is graded at the end of its interval, where it may join a burst with the
  /// interval's last reports: it can lower a lower bound already read.
  ///
  /// - Returns: The earlier interval's start and its end, in milliseconds; `nil` when the event
  ///   is not a late delivery.
  func lateDelivery(
    of activity: String, threshold: Duration, receivedAt received: Int64,
    intervalStart start: Int64,
    timeZone: TimeZone?
  ) -> (start: Int64, end: Int64)? {
    let amount = Milliseconds.amount(threshold) ?? .max
    let window = Milliseconds.amount(Self.lateDeliveryWindow) ?? 0
    guard amount > received - start,
      case .daily(let daily)? = plan?.activities.first(where: { $0.name == activity })?.schedule,
      let previous = Self.occurrence(
        of: daily, before: start, in: zone(of: activity, at: start, eventZone: timeZone)),
      let end = Milliseconds.instant(previous.end), end <= received, received - end <= window,
      let previousStart = intervalStart(of: activity, containing: end - 1, timeZone: timeZone),
      previousStart < start
    else { return nil }
    return (previousStart, end)
  }

  /// The occurrence of `window` before the one that contains `instant`.
  private static func occurrence(of window: DailyWindow, before instant: Int64, in zone: TimeZone)
    -> DateInterval?
  {
    let date = Milliseconds.date(instant)
    guard let current = window.occurrence(containing: date, in: zone) else { return nil }
    let boundary = DayBoundary(timeZone: zone)
    let day = boundary.day(containingSupported: Milliseconds.clampedInstant(current.start))
    guard day.dayNumber > LocalDay.supportedDayNumbers.lowerBound else { return nil }
    return window.occurrence(startingOn: day.advanced(by: -1), in: zone)
  }
}
