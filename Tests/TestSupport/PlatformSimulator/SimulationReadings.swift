import SignalValues

/// The three readings of a simulation: the truth, what the delivered callbacks prove, and what a
/// naive reader of the callbacks concludes.
package enum SimulationReadings {
  /// The true seconds per app per local day.
  ///
  /// Each interval's use belongs to the interval's day, read in the zone the interval began in,
  /// even when the device changes zone in the middle of it.
  ///
  /// - Parameters:
  ///   - plan: The real use.
  ///   - intervals: The daily intervals.
  /// - Returns: The truth.
  /// - Complexity: O(*i* · *a* · *s*).
  package static func truth(plan: UsagePlan, intervals: [MonitoringInterval]) -> AppDayTotals {
    var totals = AppDayTotals()
    for interval in intervals {
      for app in plan.apps {
        let used = plan.use(of: app, from: interval.start, to: interval.end)
        if used > 0 { totals[interval.day, app] += used }
      }
    }
    return totals
  }

  /// The true use that the delivered, non-phantom threshold callbacks prove.
  ///
  /// Per app and interval, each registration window proves its highest real threshold
  /// delivered. A window counted from the interval's start proves that much use since the
  /// start, so it raises the proof to at least its threshold; a window counted from its
  /// registration proves use the earlier windows did not see, so it adds its threshold. The
  /// intervals' proofs add up in their days.
  ///
  /// - Parameters:
  ///   - deliveries: The deliveries.
  ///   - windows: Every registration window.
  ///   - intervals: The daily intervals.
  ///   - includingPhantoms: Whether phantoms count as proof too, as a control that shows a
  ///     test of "revealed never exceeds the truth" failing.
  /// - Returns: The revealed truth, never above the truth unless `includingPhantoms`.
  /// - Complexity: O(*n* + *w*) for *n* deliveries and *w* windows.
  package static func revealed(
    deliveries: [SimulatedDelivery], windows: [RegistrationWindow],
    intervals: [MonitoringInterval], includingPhantoms: Bool = false
  ) -> AppDayTotals {
    /// The deliveries of one generation of one app's events in one interval.
    struct Key: Hashable {
      let interval: Int
      let generation: Int
      let app: String
    }
    var highest: [Key: Int] = [:]
    for delivery in deliveries where includingPhantoms || !delivery.isPhantom {
      guard let threshold = delivery.threshold, let app = delivery.app else { continue }
      let key = Key(interval: delivery.interval, generation: delivery.generation, app: app)
      highest[key] = max(highest[key, default: 0], threshold)
    }
    let apps = Set(highest.keys.map(\.app)).sorted()
    var proofs: [Int: [String: Int]] = [:]
    for window in windows {
      for app in apps {
        let key = Key(
          interval: window.interval, generation: window.registration.generation, app: app)
        let proved = highest[key, default: 0]
        let sofar = proofs[window.interval]?[app] ?? 0
        proofs[window.interval, default: [:]][app] =
          window.countsWholeInterval ? max(sofar, proved) : sofar + proved
      }
    }
    var totals = AppDayTotals()
    for interval in intervals {
      for (app, proved) in proofs[interval.index] ?? [:] where proved > 0 {
        totals[interval.day, app] += proved
      }
    }
    return totals
  }

  /// What a naive reader concludes: per app and local day of delivery (in the device's zone),
  /// the highest threshold among the callbacks' event names, generations and guards ignored.
  ///
  /// - Parameter callbacks: The callbacks as delivered.
  /// - Returns: The naive reading.
  /// - Complexity: O(*n*).
  package static func naive(callbacks: [SimulatedCallback]) -> AppDayTotals {
    var totals = AppDayTotals()
    for callback in callbacks where callback.kind == .eventDidReachThreshold {
      guard let name = callback.event, let parsed = ThresholdLadder.parse(name) else { continue }
      let day = LocalClock.day(of: LocalClock.seconds(callback.at), in: callback.timeZone)
      totals[day, parsed.app] = max(totals[day, parsed.app], parsed.threshold)
    }
    return totals
  }
}
