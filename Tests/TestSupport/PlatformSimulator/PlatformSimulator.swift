import Foundation
import SignalValues

/// A model of DeviceActivity's monitoring: it computes when each threshold of each app is truly
/// reached in each interval, and fires callbacks as iOS would under a set of ``Behaviour``s.
///
/// The activity is monitored daily 00:00–23:59 from the plan's first midnight, with the
/// ``ThresholdLadder/standard`` ladder for every app, registered first as generation 0 counted
/// from the occurrence's start with past activity. Firing is deterministic; only the phantom
/// levels and the delivery (see `deliver(_:random:)`) draw from the seed.
package struct PlatformSimulator: Hashable, Sendable {
  /// The monitored activity's name.
  package static let activity = "stk.daily"

  /// The real use.
  package let plan: UsagePlan
  /// The behaviours, applied in order.
  package let behaviours: [Behaviour]
  /// The device's zone over time.
  package let zones: DeviceZones
  /// The daily intervals.
  package let intervals: [MonitoringInterval]
  /// Every registration, in order of instant, numbered from generation 0.
  package let registrations: [Registration]
  /// The thresholds registered per app.
  package let ladder: ThresholdLadder

  /// Prepares a simulation.
  ///
  /// - Parameters:
  ///   - plan: The real use.
  ///   - behaviours: How the platform misbehaves.
  ///   - ladder: The thresholds registered per app.
  package init(plan: UsagePlan, behaviours: [Behaviour], ladder: ThresholdLadder = .standard) {
    self.plan = plan
    self.behaviours = behaviours
    self.ladder = ladder
    zones = DeviceZones(home: plan.homeZone, behaviours: behaviours)
    intervals = MonitoringInterval.intervals(from: plan.start, until: plan.end, zones: zones)
    var pending: [(at: Int, semantics: RegistrationSemantics, past: Bool)] = [
      (plan.start, .fromOccurrenceStart, true)
    ]
    for behaviour in behaviours {
      switch behaviour {
      case .reArm(let at, let semantics, let past):
        pending.append((LocalClock.seconds(at), semantics, past))
      case .midnightReArm:
        pending += intervals.dropFirst().map { ($0.start + 45, .fromOccurrenceStart, true) }
      default: break
      }
    }
    registrations = pending.sorted { $0.at < $1.at }.enumerated().map { offset, entry in
      Registration(
        generation: offset, at: entry.at, semantics: entry.semantics,
        includesPastActivity: entry.past)
    }
  }

  /// Every registration window of every interval, in order.
  package var windows: [RegistrationWindow] {
    intervals.flatMap { RegistrationWindow.windows(in: $0, registrations: registrations) }
  }

  /// Runs the simulation.
  ///
  /// - Parameter seed: Equal seeds give equal deliveries.
  /// - Returns: The callbacks in delivery order, with what the simulator knows of each.
  /// - Complexity: O(*i* · *a* · (*s* + *t*)) for *i* intervals, *a* apps, *s* sessions and *t*
  ///   thresholds, plus the phantoms.
  package func run(seed: UInt64) -> [SimulatedDelivery] {
    var random = SplitMix64(seed: seed ^ 0x5EED_CA11_BAC4)
    let fired = fire(random: &random)
    return deliver(fired, random: &random)
  }

  /// Fires every callback at the instant the platform means to.
  func fire(random: inout SplitMix64) -> [Fired] {
    var fired: [Fired] = []
    var previousLevels: [String: Int] = [:]
    for interval in intervals {
      let windows = RegistrationWindow.windows(in: interval, registrations: registrations)
      fired.append(Fired(kind: .intervalDidStart, interval: interval.index, at: interval.start))
      for window in windows where window.start > interval.start {
        fired.append(Fired(kind: .intervalDidStart, interval: interval.index, at: window.start))
      }
      fired.append(Fired(kind: .intervalDidEnd, interval: interval.index, at: interval.end))
      var levels: [String: Int] = [:]
      for window in windows {
        for app in plan.apps {
          let reaches = plan.reachInstants(
            of: app, from: window.origin, before: window.end, thresholds: ladder.thresholds)
          for (threshold, reach) in zip(ladder.thresholds, reaches) {
            guard let reach, max(reach, window.start) < window.end else { continue }
            fired.append(
              Fired(
                interval: interval.index, at: max(reach, window.start), threshold: threshold,
                app: app, generation: window.registration.generation, isPhantom: false))
            levels[app] = max(levels[app, default: 0], threshold)
          }
        }
      }
      fired += phantoms(
        in: interval, windows: windows, previousLevels: previousLevels, random: &random)
      previousLevels = levels
    }
    return fired.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
      .map(\.element)
  }

  /// The thresholds fired with no use behind them, or again with no reason, in an interval.
  func phantoms(
    in interval: MonitoringInterval, windows: [RegistrationWindow], previousLevels: [String: Int],
    random: inout SplitMix64
  ) -> [Fired] {
    let steps = ladder.thresholds.count
    var result: [Fired] = []
    func burst(at instant: Int, levels: (String) -> Int) {
      guard let window = windows.last(where: { $0.start <= instant }) else { return }
      for app in plan.apps {
        let used = plan.use(of: app, from: window.origin, to: instant)
        for threshold in ladder.thresholds where threshold <= levels(app) {
          result.append(
            Fired(
              interval: interval.index, at: instant, threshold: threshold, app: app,
              generation: window.registration.generation, isPhantom: threshold > used))
        }
      }
    }
    let inside = { (instant: Int) in instant >= interval.start && instant < interval.end }
    for behaviour in behaviours {
      switch behaviour {
      case .firstPickupPhantoms:
        guard let pickup = plan.pickups.first(where: inside) else { continue }
        let level = Int.random(in: (steps / 2)...steps, using: &random) * ladder.step
        burst(at: pickup, levels: { _ in level })
      case .chargerPhantoms:
        for plugIn in plan.chargerPlugIns where inside(plugIn) {
          let level = Int.random(in: (steps / 4)...steps, using: &random) * ladder.step
          burst(at: plugIn, levels: { _ in level })
        }
      case .monitoringStartPhantoms:
        guard interval.start == plan.start else { continue }
        burst(at: plan.start, levels: { _ in ladder.top })
      case .midnightReArm:
        guard let window = windows.dropFirst().first(where: { $0.start == interval.start + 45 })
        else { continue }
        burst(at: window.start, levels: { previousLevels[$0, default: 0] })
      default: continue
      }
    }
    return result
  }
}

/// A callback at the instant the platform fires it, before delivery moves or copies it.
struct Fired: Hashable, Sendable {
  var kind: MonitorCallback = .eventDidReachThreshold
  var interval: Int
  var at: Int
  var threshold: Int?
  var app: String?
  var generation = 0
  var isPhantom = false
}
