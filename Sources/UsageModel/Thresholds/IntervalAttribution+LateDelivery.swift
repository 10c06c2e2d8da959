import Foundation

extension IntervalAttribution {
  /// How long after an interval's end a threshold of it may still be delivered: 1 hour.
  ///
  /// The platform holds threshold callbacks back (a device asleep, a busy extension) and
  /// delivers them late, sometimes after their interval ended and the next one began.
  public static let lateDeliveryWindow: Duration = .seconds(3_600)

  /// The interval a threshold event of `activity` was counted in, and the instant by which its
  /// threshold was reached, allowing for late delivery.
  ///
  /// An event received at `receivedAt` belongs to the interval that contains it
  /// (``intervalStart(of:containing:timeZone:)``), unless its threshold exceeds the time since
  /// that interval began and the activity's scheduled occurrence before it ended at most
  /// ``lateDeliveryWindow`` earlier: then the platform could not have counted it in the new
  /// interval, and it is a late delivery of the one before, whose threshold was reached by the
  /// time it ended. Activities without a daily schedule in the plan have no known end, and keep
  /// the interval that contains the event.
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - threshold: The event's threshold.
  ///   - receivedAt: When the event was received.
  ///   - timeZone: The zone the device was in when the event was received, if known.
  /// - Returns: The interval's start and the instant the threshold was reached by (the
  ///   reception, or the end of the interval for a late delivery); `nil` when no known interval
  ///   contains the event.
  /// - Complexity: Two lookups of ``intervalStart(of:containing:timeZone:)``.
  public func attribution(
    of activity: String, threshold: Duration, receivedAt: Date, timeZone: TimeZone? = nil
  ) -> (intervalStart: Date, reachedBy: Date)? {
    let received = Milliseconds.clampedInstant(receivedAt)
    guard let start = intervalStart(of: activity, containing: received, timeZone: timeZone)
    else { return nil }
    let amount = Milliseconds.amount(threshold) ?? .max
    let window = Milliseconds.amount(Self.lateDeliveryWindow) ?? 0
    if amount > received - start,
      case .daily(let daily)? = plan?.activities.first(where: { $0.name == activity })?.schedule,
      let previous = Self.occurrence(of: daily, before: start, in: timeZone ?? self.timeZone),
      let end = Milliseconds.instant(previous.end), end <= received, received - end <= window,
      let previousStart = intervalStart(of: activity, containing: end - 1, timeZone: timeZone),
      previousStart < start
    {
      return (Milliseconds.date(previousStart), previous.end)
    }
    return (Milliseconds.date(start), Milliseconds.date(received))
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
