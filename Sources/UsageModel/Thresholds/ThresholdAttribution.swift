import Foundation

/// Where a threshold event counts, or why it counts nothing, by the rules of
/// ``IntervalAttribution/attribute(_:of:receivedAt:timeZone:)``.
public enum ThresholdAttribution: Sendable, Hashable {
  /// The event counts in the interval that began at `start`; `registration` is the
  /// registration that armed it, `nil` for a name without a generation or an activity without
  /// registrations.
  case interval(start: Date, registration: MonitoringRegistration?)
  /// The event was delivered after its interval ended, and counts there: the interval began at
  /// `start` and ended at `reachedBy`, by which the event's threshold was reached
  /// (``IntervalAttribution/lateDeliveryWindow``). `registration` is as for
  /// ``interval(start:registration:)``.
  case lateDelivery(start: Date, registration: MonitoringRegistration?, reachedBy: Date)
  /// The event was held back past ``IntervalAttribution/lateDeliveryWindow`` — a catch-up storm
  /// across midnight — and belongs to the interval before: it began at `start` and ended at
  /// `reachedBy` (``IntervalAttribution/lateDeliveryWindow``). It counts in the upper bound only: a
  /// phantom that claims more than the time since its interval began looks the same.
  /// `registration` is as for ``interval(start:registration:)``.
  case heldDelivery(start: Date, registration: MonitoringRegistration?, reachedBy: Date)
  /// The event is a replay of an older generation: `current`, a higher generation of the same
  /// activity, had been registered when it was received. It counts nothing.
  case replay(generation: UInt32, current: MonitoringRegistration)
  /// No registration of the activity has the event's generation, or it was registered after
  /// the event was received. It counts nothing.
  case unknownGeneration(UInt32)
  /// No known interval of the activity contains the event.
  case noKnownInterval
}
