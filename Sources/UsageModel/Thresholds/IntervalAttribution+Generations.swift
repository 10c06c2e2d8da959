import Foundation

extension IntervalAttribution {
  /// Where an event named `name` of `activity`, received at `receivedAt`, counts: the one home
  /// of the registration-generation rules.
  ///
  /// - A name without a generation, or an activity without registrations: the interval
  ///   ``intervalStart(of:containing:timeZone:)`` gives, as without registrations.
  /// - A generation no registration of the activity has, or one registered after the event:
  ///   ``ThresholdAttribution/unknownGeneration(_:)``.
  /// - A generation older than one registered at or before the event: a replay,
  ///   ``ThresholdAttribution/replay(generation:current:)``; it counts nothing.
  /// - Otherwise, for a registration counted ``ThresholdCounting/fromOccurrenceStart``, the
  ///   event's interval (the occurrence's, since the re-registration's own `intervalDidStart`
  ///   is no restart), so the interval's usage is the highest threshold across registrations.
  /// - For one counted ``ThresholdCounting/fromRegistration``, an interval that starts at the
  ///   later of that interval's start and the registration, so each registration's highest
  ///   threshold adds up, and plausibility is measured from the registration.
  /// - Where the event's threshold exceeds the time since its interval began, it may belong to
  ///   the interval before: ``ThresholdAttribution/lateDelivery(start:registration:reachedBy:)``
  ///   within ``lateDeliveryWindow`` of its end,
  ///   ``ThresholdAttribution/heldDelivery(start:registration:reachedBy:)`` past it, on the
  ///   conditions ``lateDeliveryWindow`` gives.
  ///
  /// ```swift
  /// switch attribution.attribute(name, of: "daily", receivedAt: now) {
  /// case .interval(let start, let registration): count(name, from: start, registration)
  /// case .replay, .unknownGeneration, .noKnownInterval: reject(name)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The event's name.
  ///   - activity: The activity's name.
  ///   - receivedAt: When the event was received.
  ///   - timeZone: The zone the device was in when it was received, if known.
  /// - Returns: Where it counts, or why it counts nothing.
  /// - Complexity: O(*r* + log *n*) for *r* registrations of the activity and *n* recorded
  ///   starts, plus the schedule's occurrence lookup.
  public func attribute(
    _ name: ThresholdEventName, of activity: String, receivedAt: Date, timeZone: TimeZone? = nil
  ) -> ThresholdAttribution {
    attribute(
      name, of: activity, receivedAt: Milliseconds.clampedInstant(receivedAt), timeZone: timeZone)
  }

  /// ``attribute(_:of:receivedAt:timeZone:)`` with the instant in milliseconds since 1970.
  package func attribute(
    _ name: ThresholdEventName, of activity: String, receivedAt instant: Int64,
    timeZone: TimeZone? = nil
  ) -> ThresholdAttribution {
    let start = intervalStart(of: activity, containing: instant, timeZone: timeZone)
    guard let generation = name.generation, let list = registrationsByActivity[activity] else {
      guard let start else { return .noKnownInterval }
      return counted(
        name, of: activity, receivedAt: instant, in: start, registration: nil,
        timeZone: timeZone)
    }
    guard let registration = list.first(where: { $0.generation == generation }),
      registration.registeredInstant <= instant
    else { return .unknownGeneration(generation) }
    if let current = list.last(where: {
      $0.generation > generation && $0.registeredInstant <= instant
    }) {
      return .replay(generation: generation, current: current)
    }
    let counted: Int64?
    switch registration.counting {
    case .fromOccurrenceStart:
      guard let start else { return .noKnownInterval }
      return self.counted(
        name, of: activity, receivedAt: instant, in: start, registration: registration,
        timeZone: timeZone)
    case .fromRegistration:
      let sinceRegistration = instant - registration.registeredInstant
      counted =
        start.map { max($0, registration.registeredInstant) }
        ?? (sinceRegistration <= Self.longestIntervalMilliseconds
          ? registration.registeredInstant : nil)
    }
    return counted.map { .interval(start: Milliseconds.date($0), registration: registration) }
      ?? .noKnownInterval
  }

  /// Where an event received at `instant` counts when the interval that contains it began at
  /// `start`: there, or in the interval before when it is a late or held delivery of it.
  private func counted(
    _ name: ThresholdEventName, of activity: String, receivedAt instant: Int64, in start: Int64,
    registration: MonitoringRegistration?, timeZone: TimeZone?
  ) -> ThresholdAttribution {
    if let late = lateDelivery(
      of: activity, threshold: name.threshold, receivedAt: instant, intervalStart: start,
      timeZone: timeZone)
    {
      guard late.held else {
        return .lateDelivery(
          start: Milliseconds.date(late.start), registration: registration,
          reachedBy: Milliseconds.date(late.end))
      }
      // A registration made after the previous occurrence ended counted nothing in it.
      if (registration?.registeredInstant ?? .min) <= late.end {
        return .heldDelivery(
          start: Milliseconds.date(late.start), registration: registration,
          reachedBy: Milliseconds.date(late.end))
      }
    }
    return .interval(start: Milliseconds.date(start), registration: registration)
  }

  /// Whether an `intervalDidStart` of `activity` at `instant` is a re-registration's own
  /// callback: at most ``ownCallbackWindow`` after a registration counted from the occurrence's
  /// start that is not the activity's first.
  func isOwnCallback(of activity: String, at instant: Int64) -> Bool {
    guard let list = registrationsByActivity[activity] else { return false }
    let window = Milliseconds.amount(Self.ownCallbackWindow) ?? 0
    return list.dropFirst().contains {
      $0.counting == .fromOccurrenceStart && $0.registeredInstant <= instant
        && instant - $0.registeredInstant <= window
    }
  }
}
