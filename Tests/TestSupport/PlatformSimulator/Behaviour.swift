import Foundation

/// One way the simulated platform delivers its callbacks; a scenario combines several.
///
/// Delivery behaviours (`late`, `duplicated`, `outOfOrder`, `catchUpStorm`) move or copy the
/// callbacks of real thresholds but never invent one. Phantom behaviours fire thresholds with no
/// use behind them. Registration behaviours (`reArm`, `midnightReArm`) register a new
/// generation of events. `dstDay` and `travel` change the calendar the intervals are read in.
package enum Behaviour: Hashable, Sendable {
  /// Every callback at the instant its cause happens, once, in order.
  case ideal
  /// Every callback delayed by up to `maxSeconds`.
  case late(maxSeconds: Int)
  /// Each threshold callback delivered a second time, within a minute, with this probability.
  case duplicated(probability: Double)
  /// Neighbouring callbacks swapped: the earlier one is held and delivered just after the later.
  case outOfOrder
  /// Every callback due between `from` and `to` held, then all delivered at `to` in any order.
  case catchUpStorm(from: Date, to: Date)
  /// At the first pickup of each interval, every threshold of every app up to some level (two
  /// to four hours) fires, with no use behind it.
  case firstPickupPhantoms
  /// At each charger plug-in, every threshold of every app up to some level (one to four hours)
  /// fires.
  case chargerPhantoms
  /// When monitoring starts, every threshold of every app fires.
  case monitoringStartPhantoms
  /// A new generation of events registered at an instant, counted per `semantics`.
  case reArm(at: Date, semantics: RegistrationSemantics, includesPastActivity: Bool)
  /// A new generation registered 45 seconds into each interval after the first, counted from the
  /// occurrence's start with past activity; the platform also replays, under the new names,
  /// every threshold the previous interval reached, with no use behind them in the new one.
  case midnightReArm
  /// The simulation runs across 2026-03-08 in America/New_York, a 23-hour day.
  case dstDay
  /// The device's zone changes at an instant, in the middle of an interval.
  case travel(at: Date, to: TimeZone)
}

/// Where the platform starts counting an app's use for events registered inside an interval.
package enum RegistrationSemantics: String, Hashable, Sendable, CaseIterable {
  /// Use counts from the registration instant.
  case fromRegistration
  /// Use counts from the occurrence's start when past activity is included, so every threshold
  /// already reached fires again at the registration instant (a replay); without past activity
  /// it counts from the registration, as `fromRegistration` does.
  case fromOccurrenceStart
}

/// One registration of the ladder's events, which replaces the previous one.
package struct Registration: Hashable, Sendable {
  /// The generation its event names carry (0 writes none).
  package let generation: Int
  /// The registration instant, in seconds since 1970.
  package let at: Int
  /// Where counting starts when registered inside an interval.
  package let semantics: RegistrationSemantics
  /// Whether use before the registration in the same interval counts.
  package let includesPastActivity: Bool

  /// Where this registration counts use from, in an interval it was made inside of.
  ///
  /// - Parameter interval: The interval.
  /// - Returns: The interval's start for a registration before it, or one that counts from the
  ///   occurrence's start with past activity; the registration instant otherwise.
  package func origin(in interval: MonitoringInterval) -> Int {
    guard at > interval.start else { return interval.start }
    return semantics == .fromOccurrenceStart && includesPastActivity ? interval.start : at
  }
}
