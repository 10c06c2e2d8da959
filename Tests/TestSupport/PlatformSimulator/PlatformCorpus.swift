import Foundation

/// The platform scenarios every reader of DeviceActivity callbacks should be tried against, one
/// per documented misbehaviour, each with a stable name and seed.
///
/// The runs span 2026-04-13 to 2026-04-15 in Europe/Paris with four apps, except the DST run
/// (2026-03-07 to 2026-03-09 in America/New_York).
package enum PlatformCorpus {
  /// A scenario of the corpus.
  package typealias Scenario = PlatformScenario

  /// The home zone of the corpus.
  package static let paris = TimeZone(identifier: "Europe/Paris") ?? .gmt
  /// The zone the travel scenario flies to.
  package static let newYork = TimeZone(identifier: "America/New_York") ?? .gmt

  /// A Paris wall-clock time of the corpus's days.
  ///
  /// - Parameter local: `yyyy-MM-ddTHH:mm:ss`.
  /// - Returns: The instant.
  package static func paris(_ local: String) -> Date {
    LocalClock.date(LocalClock.instant(local, in: paris) ?? 0)
  }

  /// The names of the scenarios, in order.
  package static var names: [String] { scenarios.map(\.name) }

  /// Every scenario, in a fixed order.
  package static var scenarios: [Scenario] {
    let cases: [(String, UInt64, [Behaviour])] = [
      ("ideal", 101, [.ideal]),
      ("late", 102, [.late(maxSeconds: 45 * 60)]),
      ("duplicated", 103, [.duplicated(probability: 0.6)]),
      ("out-of-order", 104, [.outOfOrder]),
      (
        "catch-up storm", 105,
        [.catchUpStorm(from: paris("2026-04-13T21:30:00"), to: paris("2026-04-14T07:30:00"))]
      ),
      ("first-pickup phantoms", 106, [.firstPickupPhantoms]),
      ("charger phantoms", 107, [.chargerPhantoms]),
      ("monitoring-start phantoms", 108, [.monitoringStartPhantoms]),
      (
        "re-arm, counted from registration", 109,
        [
          .reArm(
            at: paris("2026-04-14T15:00:00"), semantics: .fromRegistration,
            includesPastActivity: false)
        ]
      ),
      (
        "re-arm, counted from occurrence start (replays)", 110,
        [
          .reArm(
            at: paris("2026-04-14T15:00:00"), semantics: .fromOccurrenceStart,
            includesPastActivity: true)
        ]
      ),
      ("midnight re-arm", 111, [.midnightReArm]),
      ("DST spring forward", 112, [.dstDay]),
      ("travel Paris→New York", 113, [.travel(at: paris("2026-04-14T14:00:00"), to: newYork)]),
    ]
    return cases.map { PlatformScenario(name: $0.0, seed: $0.1, behaviours: $0.2) }
  }
}
