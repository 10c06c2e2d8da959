import Foundation

/// A simulated run of the platform with its ground truth: the real use, the callbacks iOS
/// delivers under a set of behaviours, and the truth, revealed truth and naive readings.
///
/// Everything follows from the seed: equal seeds and behaviours give equal scenarios. The plan
/// draws from the seed and the travels alone, so two scenarios with the same seed and no travel
/// share their real use whatever their other behaviours.
///
/// ```swift
/// let scenario = PlatformScenario(name: "late", seed: 11, behaviours: [.late(maxSeconds: 900)])
/// #expect(scenario.revealed.total <= scenario.truth.total)
/// ```
package struct PlatformScenario: Hashable, Sendable {
  /// The scenario's stable name.
  package let name: String
  /// The seed.
  package let seed: UInt64
  /// The behaviours.
  package let behaviours: [Behaviour]
  /// The real use.
  package let plan: UsagePlan
  /// The platform model the callbacks came from.
  package let simulator: PlatformSimulator
  /// The callbacks with what the simulator knows of each, in delivery order.
  package let deliveries: [SimulatedDelivery]
  /// The true seconds per app per day.
  package let truth: AppDayTotals
  /// The true use the delivered, non-phantom callbacks prove.
  package let revealed: AppDayTotals
  /// What a naive reader of the callbacks concludes.
  package let naive: AppDayTotals

  /// The apps a scenario uses unless told otherwise.
  package static let defaultApps = ["com.a", "com.b", "com.c", "com.d"]

  /// Builds a scenario.
  ///
  /// - Parameters:
  ///   - name: A stable name.
  ///   - seed: Equal seeds give equal scenarios.
  ///   - behaviours: How the platform misbehaves. With ``Behaviour/dstDay`` the run starts on
  ///     2026-03-07 in America/New_York, whatever `firstDay` and `timeZone` say.
  ///   - firstDay: The first local day, `yyyy-MM-dd`.
  ///   - days: How many days.
  ///   - apps: The apps.
  ///   - timeZone: The device's home zone.
  package init(
    name: String, seed: UInt64, behaviours: [Behaviour], firstDay: String = "2026-04-13",
    days: Int = 3, apps: [String] = defaultApps,
    timeZone: TimeZone = TimeZone(identifier: "Europe/Paris") ?? .gmt
  ) {
    let dst = behaviours.contains(.dstDay)
    let zone = dst ? TimeZone(identifier: "America/New_York") ?? .gmt : timeZone
    self.name = name
    self.seed = seed
    self.behaviours = behaviours
    plan = UsagePlan.generate(
      seed: seed, firstDay: dst ? "2026-03-07" : firstDay, days: days, apps: apps,
      zones: DeviceZones(home: zone, behaviours: behaviours))
    simulator = PlatformSimulator(plan: plan, behaviours: behaviours)
    deliveries = simulator.run(seed: seed)
    truth = SimulationReadings.truth(plan: plan, intervals: simulator.intervals)
    revealed = SimulationReadings.revealed(
      deliveries: deliveries, windows: simulator.windows, intervals: simulator.intervals)
    naive = SimulationReadings.naive(callbacks: deliveries.map(\.callback))
  }

  /// The callbacks as the monitor extension receives them, in delivery order.
  package var callbacks: [SimulatedCallback] { deliveries.map(\.callback) }

  /// The ladder's step in seconds, so that a test can say "within one step".
  package var ladderStep: Int { simulator.ladder.step }

  /// The naive reading's error against the truth over all days and apps, in percent.
  package var naiveErrorPercent: Double {
    guard truth.total > 0 else { return 0 }
    return Double(naive.total - truth.total) / Double(truth.total) * 100
  }

  /// One line for a report: the truth, naive and revealed seconds and the naive error.
  package var summary: String {
    let error = String(format: "%+.1f%%", naiveErrorPercent)
    return "\(name): truth \(truth.total) s, naive \(naive.total) s, revealed "
      + "\(revealed.total) s, naive error \(error), \(callbacks.count) callbacks"
  }

  /// One line per day for a report: the truth, naive and revealed seconds of all apps.
  package var dayLines: [String] {
    Set(truth.days + naive.days + revealed.days).sorted().map { day in
      "\(name) \(day): truth \(truth.total(day: day)) s, naive \(naive.total(day: day)) s, "
        + "revealed \(revealed.total(day: day)) s"
    }
  }
}
