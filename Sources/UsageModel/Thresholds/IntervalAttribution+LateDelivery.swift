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
  /// that interval began, which is at most ``lateDeliveryWindow``: then the platform could not
  /// have counted it there, and it is a late delivery of the interval before, whose threshold
  /// was reached by the time that interval ended.
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
    let elapsed = received - start
    let window = Milliseconds.amount(Self.lateDeliveryWindow) ?? 0
    if amount > elapsed, elapsed <= window,
      let previous = intervalStart(of: activity, containing: start - 1, timeZone: timeZone),
      previous < start
    {
      return (Milliseconds.date(previous), Milliseconds.date(start))
    }
    return (Milliseconds.date(start), Milliseconds.date(received))
  }
}
