import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The dashboard is a function of the set of facts: any interleaving of the same facts —
/// reordered, duplicated, drained a few at a time or all at once — gives the same value, and
/// its per-app totals are those of a second-by-second model written here.
@Suite("Pipeline properties")
struct PipelinePropertyTests {
  let zone: TimeZone
  let boundary: DayBoundary

  init() throws {
    zone = try TestSupport.zone("America/New_York")
    boundary = DayBoundary(timeZone: zone)
  }

  /// Publishes `callbacks` in the order given, draining after each `drainEvery` of them, and
  /// returns the dashboard of the scenario's day at its end.
  func dashboard(
    of callbacks: [FactScenario.Callback], drainEvery: Int, configuration: PipelineConfiguration
  ) throws -> Dashboard {
    let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 10_000))
    let outbox = folder.outbox
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    let day = try LocalDay(parsing: FactScenario.day)
    let end = boundary.interval(of: day).end
    for (index, callback) in callbacks.enumerated() {
      try outbox.publish(
        try MonitorFact(
          callback.kind, activity: callback.activity, event: callback.event, at: callback.at)
      )
      if (index + 1) % drainEvery == 0 { try pipeline.wake(.notification, now: end) }
    }
    try pipeline.wake(.foreground, now: end)
    return try pipeline.dashboard(for: day, now: end)
  }

  @Test("any interleaving of the same facts gives the same dashboard", arguments: 1...4)
  func interleavingsAgree(seed: UInt64) throws {
    let scenario = try FactScenario(seed: seed, zone: zone)
    var configuration = try FactScenario.configuration(zone: zone)
    // Rewards on the upper bound, which only grows as facts arrive in any order; the lower
    // bound's rewards hold for facts in the order of their instants (the next test).
    configuration.rewardBound = .upper
    let sorted = scenario.callbacks.sorted { $0.at < $1.at }
    let expected = try dashboard(of: sorted, drainEvery: 11, configuration: configuration)
    var random = SplitMix64(seed: seed ^ 0xA5A5)
    for round in 0..<3 {
      var shuffled = scenario.callbacks.shuffled(using: &random)
      for _ in 0..<(shuffled.count / 5) {  // some facts published twice
        shuffled.insert(
          shuffled[Int(random.next() % UInt64(shuffled.count))],
          at: Int(random.next() % UInt64(shuffled.count)))
      }
      let drainEvery = [5, 37, 1_000_000][round % 3]
      let actual = try dashboard(of: shuffled, drainEvery: drainEvery, configuration: configuration)
      #expect(actual == expected, "seed \(seed), round \(round)")
    }
    #expect(expected.usage.total > .zero, "the scenario uses apps")
    #expect(expected.facts.thresholds.implausible == 6, "the burst counts nothing")
    #expect(expected.facts.rejected.count == 2, "a foreign name, an activity with no interval")
  }

  @Test("per-app totals equal a second-by-second model of the facts", arguments: 1...6)
  func totalsMatchReference(seed: UInt64) throws {
    let scenario = try FactScenario(seed: seed, zone: zone)
    let configuration = try FactScenario.configuration(zone: zone)
    let dashboard = try dashboard(
      of: scenario.callbacks, drainEvery: 50, configuration: configuration)
    let reference = try ReferenceUsage(scenario.callbacks, zone: zone)
    let day = try LocalDay(parsing: FactScenario.day)
    let actual = Dictionary(
      uniqueKeysWithValues: dashboard.usage.apps.map { ($0.app.rawValue, $0.total) })
    #expect(actual == reference.totals(on: boundary.interval(of: day)))
  }
}

extension PipelinePropertyTests {
  @Test(
    "rewards on the lower bound: facts arriving in order credit what one drain at the end does",
    arguments: 1...3)
  func lowerBoundRewardsAgreeForOrderedArrivals(seed: UInt64) throws {
    let scenario = try FactScenario(seed: seed, zone: zone)
    let configuration = try FactScenario.configuration(zone: zone)
    #expect(configuration.rewardBound == .lower)
    let sorted = scenario.callbacks.sorted { $0.at < $1.at }
    let day = try LocalDay(parsing: FactScenario.day)
    let end = boundary.interval(of: day).end
    func balance(drainEvery: Int) throws -> RewardBalance {
      let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 10_000))
      var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
      for (index, callback) in sorted.enumerated() {
        try folder.outbox.publish(
          try MonitorFact(
            callback.kind, activity: callback.activity, event: callback.event, at: callback.at))
        // The app drains at the instant of the newest fact, as a phone does.
        if (index + 1) % drainEvery == 0 { try pipeline.wake(.notification, now: callback.at) }
      }
      try pipeline.wake(.foreground, now: end)
      return try pipeline.dashboard(for: day, now: end).rewards
    }
    let once = try balance(drainEvery: .max)
    #expect(once.xp > 0, "the scenario earns")
    for drainEvery in [1, 3, 17] {
      #expect(try balance(drainEvery: drainEvery) == once, "drained every \(drainEvery)")
    }
  }

  @Test(
    "usage records cover exactly the seconds the model says each app was used", arguments: 1...4)
  func recordsCoverTheModelsSeconds(seed: UInt64) throws {
    let scenario = try FactScenario(seed: seed, zone: zone)
    let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 10_000))
    let outbox = folder.outbox
    var pipeline = try UsagePipeline(
      folder: folder, configuration: try FactScenario.configuration(zone: zone))
    for callback in scenario.callbacks {
      try outbox.publish(
        try MonitorFact(
          callback.kind, activity: callback.activity, event: callback.event, at: callback.at)
      )
    }
    try pipeline.wake(.foreground, now: Date(timeIntervalSince1970: 1_776_400_000))
    var covered: [String: Set<Int>] = [:]
    for record in try pipeline.usageRecords() {
      let start = Int(record.start.timeIntervalSince1970)
      let end = Int(record.end.timeIntervalSince1970)
      covered[record.app.rawValue, default: []].formUnion(start..<end)
    }
    let reference = try ReferenceUsage(scenario.callbacks, zone: zone)
    for app in Set(covered.keys).union(reference.usedSeconds.keys).sorted() {
      let actual = covered[app] ?? []
      let expected = reference.usedSeconds[app] ?? []
      let extra = actual.subtracting(expected)
      let missing = expected.subtracting(actual)
      let difference =
        "\(extra.count) seconds too many (first \(extra.min() ?? 0)), "
        + "\(missing.count) missing (first \(missing.min() ?? 0))"
      #expect(extra.isEmpty && missing.isEmpty, "\(app): \(difference)")
    }
  }
}

/// A deliberately simple model of the pipeline's usage rules, second by second: attribute each
/// plausible threshold event to its interval, keep each threshold's earliest report, and fill
/// each interval's seconds backwards from its last report, each second going to the pending
/// step with the latest deadline (a step: the use between one threshold of an app and the next
/// lower; its deadline: the earliest report of it or of a higher threshold of the same app),
/// one app a second; then give each app the seconds other apps' steps crowded out of its own
/// (what its steps alone would fill), in the interval's free seconds before its last report of
/// any threshold, latest first, apps in ascending order; then count the seconds of use of each
/// app, once however many intervals cover them.
struct ReferenceUsage {
  /// The seconds since 1970 in which each app was in use.
  var usedSeconds: [String: Set<Int>] = [:]

  /// One step of one app, with the seconds of it not yet placed.
  struct Step {
    var app: String
    var threshold: Int
    var deadline: Int
    var remaining: Int
  }

  init(_ callbacks: [FactScenario.Callback], zone: TimeZone) throws {
    let starts = callbacks.filter { $0.kind == .intervalDidStart }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    // interval start -> app -> threshold seconds -> earliest report.
    var reports: [Int: [String: [Int: Int]]] = [:]
    // interval start -> its last report of any plausible threshold.
    var lastReports: [Int: Int] = [:]
    for callback in callbacks where callback.kind == .eventDidReachThreshold {
      guard let name = try? ThresholdEventName(parsing: callback.event ?? "") else { continue }
      let at = Int(callback.at.timeIntervalSince1970)
      var intervalStart: Int?
      if callback.activity == "daily" {
        intervalStart = Int(calendar.startOfDay(for: callback.at).timeIntervalSince1970)
      } else {
        intervalStart =
          starts.filter { $0.activity == callback.activity && $0.at <= callback.at }
          .map { Int($0.at.timeIntervalSince1970) }.max()
      }
      guard let start = intervalStart else { continue }
      let threshold = Int(name.threshold.components.seconds)
      guard threshold <= at - start else { continue }  // implausible
      let app = name.app.rawValue
      reports[start, default: [:]][app, default: [:]][threshold] = min(
        reports[start]?[app]?[threshold] ?? .max, at)
      lastReports[start] = max(lastReports[start] ?? at, at)
    }
    for (start, apps) in reports {
      var steps: [Step] = []
      for (app, byThreshold) in apps {
        var deadline = Int.max
        var higher: Int?
        for threshold in byThreshold.keys.sorted(by: >) {
          deadline = min(deadline, byThreshold[threshold] ?? .max)
          if let higher, let index = steps.lastIndex(where: { $0.app == app }) {
            steps[index].remaining = higher - threshold
          }
          steps.append(
            Step(app: app, threshold: threshold, deadline: deadline, remaining: threshold))
          higher = threshold
        }
      }
      let joint = Self.fill(steps, from: start)
      var taken = Set(joint.values.joined())
      var second = (lastReports[start] ?? start) - 1
      for app in Set(steps.map(\.app)).sorted() {
        var crowded =
          Self.fill(steps.filter { $0.app == app }, from: start)[app, default: []].count
          - joint[app, default: []].count
        while crowded > 0, second >= start {
          if !taken.contains(second) {
            usedSeconds[app, default: []].insert(second)
            taken.insert(second)
            crowded -= 1
          }
          second -= 1
        }
      }
      for (app, seconds) in joint { usedSeconds[app, default: []].formUnion(seconds) }
    }
  }

  /// The seconds of each app that `steps` fill backwards from their last deadline to `start`,
  /// each second going to the pending step with the latest deadline.
  static func fill(_ steps: [Step], from start: Int) -> [String: [Int]] {
    var steps = steps
    var used: [String: [Int]] = [:]
    let last = steps.map(\.deadline).max() ?? start
    var second = last - 1
    while second >= start {
      // The pending step with the latest deadline, then the higher threshold, then the app.
      let candidates = steps.indices.filter {
        steps[$0].remaining > 0 && steps[$0].deadline > second
      }
      guard
        let chosen = candidates.max(by: {
          (steps[$0].deadline, steps[$0].threshold, steps[$0].app)
            < (steps[$1].deadline, steps[$1].threshold, steps[$1].app)
        })
      else {
        // Nothing is pending before the next deadline back: jump to it.
        let next = steps.filter { $0.remaining > 0 }.map(\.deadline).filter { $0 <= second }.max()
        second = (next ?? start) - 1
        continue
      }
      used[steps[chosen].app, default: []].append(second)
      steps[chosen].remaining -= 1
      second -= 1
    }
    return used
  }

  /// Each app's time in use within `interval`.
  func totals(on interval: DateInterval) -> [String: Duration] {
    let low = Int(interval.start.timeIntervalSince1970)
    let high = Int(interval.end.timeIntervalSince1970)
    var totals: [String: Duration] = [:]
    for (app, seconds) in usedSeconds {
      let count = seconds.filter { $0 >= low && $0 < high }.count
      if count > 0 { totals[app] = .seconds(count) }
    }
    return totals
  }
}
