/// The stretch of an interval in which one registration's events may fire, and where it counts
/// use from.
///
/// A registration made before the interval counts from the interval's start; one made inside it
/// counts per its ``RegistrationSemantics``. Either stops firing when the next registration
/// replaces it or the interval ends.
package struct RegistrationWindow: Hashable, Sendable {
  /// The interval's index.
  package let interval: Int
  /// The registration.
  package let registration: Registration
  /// Where use counts from, in seconds since 1970.
  package let origin: Int
  /// The first instant its events may fire (the later of the registration and interval start).
  package let start: Int
  /// The instant it stops firing (the next registration, or the interval's end).
  package let end: Int

  /// Whether it counts from the interval's start, so that its thresholds prove all the
  /// interval's use so far rather than the use since its registration.
  package let countsWholeInterval: Bool

  /// The windows of an interval, in order.
  ///
  /// - Parameters:
  ///   - interval: The interval.
  ///   - registrations: Every registration, in order of instant.
  /// - Returns: One window per registration in force during the interval.
  package static func windows(in interval: MonitoringInterval, registrations: [Registration])
    -> [RegistrationWindow]
  {
    let inForce = registrations.last { $0.at <= interval.start }
    let inside = registrations.filter { $0.at > interval.start && $0.at < interval.end }
    let all = (inForce.map { [$0] } ?? []) + inside
    return all.enumerated().map { offset, registration in
      let end = offset + 1 < all.count ? all[offset + 1].at : interval.end
      return RegistrationWindow(
        interval: interval.index, registration: registration,
        origin: registration.origin(in: interval), start: max(registration.at, interval.start),
        end: end, countsWholeInterval: registration.origin(in: interval) == interval.start)
    }
  }
}
