import AppPipeline
import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The app's state is a pure function of the facts: however a pipeline came to hold them —
/// drained one at a time, across relaunches, with duplicates, with late facts touching days
/// whose logs were written long before, with dashboards read in between — every day shows what
/// one drain of the same facts shows.
///
/// The app keeps the facts in logs per UTC day and derives a dashboard from the days it needs,
/// with caches; per-day summaries of past days are to come. Each of these is a way for a day to
/// show the history of the drains instead of the facts, and this suite is the rule they keep.
@Suite("Incremental derivation")
struct IncrementalDerivationTests {
  @Test(
    "property: a pipeline that drains fact by fact, reopened, with duplicates and late facts, shows every day as one drain of the same facts does",
    arguments: 1...6)
  func incrementalDrainsShowWhatOneDrainShows(seed: UInt64) throws {
    let stream = try FactStream(seed: seed)
    let (zone, boundary) = (stream.zone, DayBoundary(timeZone: stream.zone))
    let configuration = try stream.configuration()
    let directory = try TemporaryDirectory(prefix: "stk-incremental", preferringMemory: true)
    // Even seeds on files, odd ones in memory: a relaunch re-reads the logs either way.
    let folder =
      seed % 2 == 0
      ? try SharedFolder(directory: directory.url, layout: .standard(outboxCapacity: 10_000))
      : try SharedFolder.inMemory(layout: .standard(outboxCapacity: 10_000))
    var random = SplitMix64(seed: seed ^ 0x5EED)
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    var clock = Date.distantPast
    var relaunches = 0
    var checkpoints = 0
    let checkpointAt = Set(
      (0..<2).map { _ in Int(random.next() % UInt64(stream.deliveries.count)) })
    for (index, fact) in stream.deliveries.enumerated() {
      try folder.outbox.publish(fact.monitorFact(zone: zone))
      // A phone drains at the instant of the newest fact it knows of; a late fact does not set
      // the clock back, which would only keep more.
      clock = max(clock, fact.at)
      if random.next() % 40 == 0 {  // the app is relaunched
        pipeline = try UsagePipeline(folder: folder, configuration: configuration)
        relaunches += 1
      }
      try pipeline.wake(.notification, now: clock)
      if random.next() % 15 == 0 {  // a dashboard, which only reads, fills the caches
        let day = stream.days[Int(random.next() % UInt64(stream.days.count))]
        _ = try pipeline.dashboard(for: day, now: clock)
      }
      if checkpointAt.contains(index) {  // mid-stream, too, the days are those of the facts
        let reference = try Self.oneDrain(
          of: Array(stream.deliveries[...index]), configuration: configuration, now: clock,
          zone: zone)
        let today = try boundary.day(containing: clock)
        for day in stream.days where day <= today {
          let differences = Self.differences(
            try pipeline.dashboard(for: day, now: clock),
            try reference.dashboard(for: day, now: clock))
          #expect(differences.isEmpty, "seed \(seed), after fact \(index), \(day): \(differences)")
        }
        #expect(try pipeline.facts() == reference.facts(), "seed \(seed), after fact \(index)")
        checkpoints += 1
      }
    }
    let reference = try Self.oneDrain(
      of: stream.deliveries, configuration: configuration, now: stream.end, zone: zone)
    let reopened = try UsagePipeline(folder: folder, configuration: configuration)
    var budgeted = 0  // days with budgets
    var used = 0  // days with use
    var unconfirmed = 0  // days with use the evidence does not confirm
    for day in stream.days {
      let expected = try reference.dashboard(for: day, now: stream.end)
      budgeted += expected.budgets.isEmpty ? 0 : 1
      used += expected.usage.total > .zero ? 1 : 0
      unconfirmed += expected.unconfirmed.isEmpty ? 0 : 1
      for (name, actual) in [("running", pipeline), ("reopened", reopened)] {
        let differences = Self.differences(
          try actual.dashboard(for: day, now: stream.end), expected)
        #expect(differences.isEmpty, "seed \(seed), \(name) pipeline, \(day): \(differences)")
      }
    }
    #expect(try pipeline.facts() == reference.facts(), "seed \(seed)")
    #expect(try pipeline.facts().count == Set(stream.deliveries).count)
    // The stream is what it claims to be.
    #expect(relaunches > 0 || stream.deliveries.count < 40, "seed \(seed): relaunched")
    #expect(checkpoints > 0)
    #expect(!stream.stragglers.isEmpty, "seed \(seed): late facts of closed days")
    #expect(!stream.lateDeliveries.isEmpty, "seed \(seed): late deliveries after midnight")
    for late in stream.lateDeliveries {
      // Counted for the day before, where its threshold is its app's highest: not implausible
      // on the day it was received.
      let name = try ThresholdEventName(parsing: late.event ?? "")
      let day = try boundary.day(containing: late.at).advanced(by: -1)
      let usage = try reference.dashboard(for: day, now: stream.end).usage
      let total = usage.apps.first { $0.app == name.app }?.total ?? .zero
      #expect(total >= name.threshold, "seed \(seed), \(day): \(late)")
    }
    #expect(budgeted == stream.days.count { configuration.plan(for: $0) != nil }, "seed \(seed)")
    #expect(used == stream.days.count - 1, "seed \(seed): each day of the stream has use")
    #expect(unconfirmed > 0, "seed \(seed): bursts")
  }

  @Test(
    "a late fact another app process drains while a day is summarised marks the new summary stale")
  func lateFactDrainedWhileSummarisingMarksTheSummaryStale() throws {
    let harness = try PipelineHarness()
    let (first, second) = ("2026-04-15", "2026-04-16")
    let layout = harness.pipeline.folder.layout
    let firstDay = try LocalDay(parsing: first)
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(first) 00:00"))
    _ = try harness.use("com.example", day: first, from: "08:00", minutes: 30, step: 5)
    // The other process drains the first day before it closes: nothing summarised yet.
    let other = OtherAppProcess(harness.pipeline)
    try other.pipeline.wake(.foreground, now: try harness.at("\(first) 09:00"))
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(second) 00:00"))

    // This process summarises the first day; between its read of the day's facts and the
    // append of the summary, the extension publishes a late threshold of that day (held while
    // the device was locked) and the other process drains it. The day's facts are in the log
    // of its UTC day: 08:00 in New York is 12:00 UTC.
    let hook = BeforeTheLock(afterOpening: layout.appFactsKey(of: firstDay))
    let (folder, store) = try hook.folder(at: harness.directory.url)
    var app = try UsagePipeline(folder: folder, configuration: harness.pipeline.configuration)
    let late = try harness.at("\(first) 08:35")
    let recorder = harness.recorder
    let now = try harness.at("\(second) 09:00")
    hook.arm(skippingLocks: Self.locksBeforeTheSummary) {
      _ = recorder.eventDidReachThreshold("stk:35m:com.example", activity: "daily", now: late)
      do {
        let summaries = try store.readLog(layout.appSummariesKey, newest: nil)?.records ?? []
        let summarised = summaries.contains {
          String(decoding: $0.bytes, as: UTF8.self).contains("\"day\":\"\(first)\"")
        }
        #expect(!summarised, "the hook runs before the first day's summary is appended")
        #expect(try other.pipeline.wake(.foreground, now: now).applied == 1)
      } catch {
        Issue.record(error)
      }
    }
    #expect(try app.wake(.foreground, now: now).applied == 1, "the second day's start only")

    let records = try #require(try store.readLog(layout.appSummariesKey, newest: nil)).records
    let lines = records.map { String(decoding: $0.bytes, as: UTF8.self) }
    let newest = try #require(lines.last { $0.contains("\"day\":\"\(first)\"") })
    #expect(newest == #"{"day":"\#(first)","stale":true}"#, "the summary without 08:35 is stale")
  }

  /// The locks the app's wake takes between its first open of the first day's log and the lock
  /// of the summary's append.
  ///
  /// They are its drain's writes: the hook runs just before the summary's lock. A wake that
  /// took more or fewer fails the test loudly — the hook runs inside the drain, finds the
  /// summary appended, or never runs — rather than passing without the interleaving.
  static let locksBeforeTheSummary = 3

  @Test(
    "control: a reference missing one late fact shows that fact's day differently",
    arguments: 1...2)
  func controlMissingLateFact(seed: UInt64) throws {
    let stream = try FactStream(seed: seed)
    let (zone, boundary) = (stream.zone, DayBoundary(timeZone: stream.zone))
    let configuration = try stream.configuration()
    let straggler = try #require(stream.stragglers.first)
    let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 10_000))
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    var clock = Date.distantPast
    for (index, fact) in stream.deliveries.enumerated() {
      try folder.outbox.publish(fact.monitorFact(zone: zone))
      clock = max(clock, fact.at)
      if index % 20 == 0 { try pipeline.wake(.notification, now: clock) }
    }
    try pipeline.wake(.notification, now: clock)
    let reference = try Self.oneDrain(
      of: stream.deliveries.filter { $0 != straggler }, configuration: configuration,
      now: stream.end, zone: zone)
    let touched = try boundary.day(containing: straggler.at)
    for day in stream.days where day <= touched {
      let differences = Self.differences(
        try pipeline.dashboard(for: day, now: stream.end),
        try reference.dashboard(for: day, now: stream.end))
      if day < touched {
        #expect(differences.isEmpty, "seed \(seed), \(day): \(differences)")
      } else {
        // The day's highest threshold of its app: without it, the app's use is 5 minutes less.
        #expect(differences.contains("usage"), "seed \(seed), \(day): \(differences)")
        #expect(differences.contains("facts.thresholds"), "seed \(seed), \(day): \(differences)")
        let app = try ThresholdEventName(parsing: straggler.event ?? "").app
        func total(_ dashboard: Dashboard) -> Duration {
          dashboard.usage.apps.first { $0.app == app }?.total ?? .zero
        }
        #expect(
          try total(pipeline.dashboard(for: day, now: stream.end))
            - total(reference.dashboard(for: day, now: stream.end)) == .seconds(300),
          "seed \(seed), \(day)")
      }
    }
    #expect(try pipeline.facts() != reference.facts())
  }
}

extension IncrementalDerivationTests {
  /// A late `intervalDidStart` of the occurrence itself credits no use twice.
  ///
  /// The property's streams showed it: published after its interval's thresholds, the
  /// occurrence's own callback moved the interval's start, which keys the earnings, and their use
  /// was credited again. It is the occurrence's own callback and moves nothing.
  ///
  /// Rewards are left out of the property: credits are never taken back, so on the lower bound
  /// they are what one drain credits only for facts arriving in the order of their instants; and
  /// a restart (an `intervalDidStart` well after the occurrence's start) published after the
  /// thresholds it begins still moves them to its interval.
  @Test(
    "rewards on the upper bound: an intervalDidStart published after its thresholds credits no use twice"
  )
  func lateStartCreditsUseOnce() throws {
    let zone = try TestSupport.zone("America/New_York")
    let boundary = DayBoundary(timeZone: zone)
    var configuration = try FactScenario.configuration(zone: zone)
    configuration.rewardBound = .upper
    let day = try LocalDay(parsing: "2026-04-15")
    let start = boundary.start(of: day)
    // Three thresholds of 15 minutes of education (10 XP a minute), then the interval's start,
    // 2 s after its occurrence's: until it arrives the interval starts at midnight.
    let thresholds = try [5, 10, 15].map { minutes in
      try FactScenario.threshold(
        "com.duolingo", minutes: minutes, activity: "daily",
        at: start.addingTimeInterval(Double(8 * 3600 + minutes * 60)))
    }
    let late = FactScenario.Callback(
      kind: .intervalDidStart, activity: "daily", at: start.addingTimeInterval(2))
    let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 10_000))
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    var clock = Date.distantPast
    for fact in thresholds + [late] {
      try folder.outbox.publish(fact.monitorFact(zone: zone))
      clock = max(clock, fact.at)
      try pipeline.wake(.notification, now: clock)
    }
    let end = boundary.interval(of: day).end
    let reference = try Self.oneDrain(
      of: thresholds + [late], configuration: configuration, now: end, zone: zone)
    let expected = try reference.dashboard(for: day, now: end)
    let actual = try pipeline.dashboard(for: day, now: end)
    #expect(Self.differences(actual, expected).isEmpty, "the rule the property checks holds")
    #expect(expected.rewards.xp == 150)
    // Earnings are keyed by the interval's start; the late intervalDidStart is the occurrence's
    // own callback, which moves no start, so the use is credited under one key, once.
    #expect(actual.rewards == expected.rewards)
  }

  /// A fresh folder where `facts` are published in order of their instants, and one drain at
  /// `now`.
  static func oneDrain(
    of facts: [FactScenario.Callback], configuration: PipelineConfiguration, now: Date,
    zone: TimeZone
  ) throws -> UsagePipeline {
    let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 10_000))
    for fact in facts.sorted(by: { $0.at < $1.at }) {
      try folder.outbox.publish(fact.monitorFact(zone: zone))
    }
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    try pipeline.wake(.foreground, now: now)
    return pipeline
  }

  /// The names of the parts of two dashboards that differ, among those that are functions of
  /// the facts alone: everything but the reward balance, which is credited as facts arrive and
  /// never taken back, and the instant it was evaluated at.
  static func differences(_ actual: Dashboard, _ expected: Dashboard) -> [String] {
    func parts(_ dashboard: Dashboard) -> [(String, AnyHashable)] {
      [
        ("usage", dashboard.usage), ("confirmedUsage", dashboard.confirmedUsage),
        ("budgets", dashboard.budgets), ("unconfirmed", dashboard.unconfirmed),
        ("facts.thresholds", dashboard.facts.thresholds), ("facts", dashboard.facts),
        ("alerts", dashboard.alerts), ("health", dashboard.health), ("gaps", dashboard.gaps),
        ("payload", dashboard.payload),
      ]
    }
    return zip(parts(actual), parts(expected)).filter { $0.0.1 != $0.1.1 }.map(\.0.0)
  }
}

extension FactScenario.Callback {
  /// The fact the extension publishes for this callback, in `zone`.
  func monitorFact(zone: TimeZone) throws -> MonitorFact {
    try MonitorFact(kind, activity: activity, event: event, at: at, timeZone: zone)
  }
}

/// Three to six local days of monitor facts, from a seed, in the order the app receives them.
///
/// Each day: the "daily" activity of the monitoring plan starts at midnight, and sessions of use
/// of two to four apps are reported by threshold ladders of 5 minutes; on some days an "evening"
/// activity outside the plan starts at 18:00 and watches one app too. Then the platform's ways:
/// events delivered twice (the same fact, and again seconds later), a lower threshold much
/// later, an implausible threshold, an event name not ours, the interval's end; events of the
/// day's last minutes delivered within the first hour after midnight (late deliveries of the
/// interval before); and facts of a day published only after facts of later days were drained
/// — among them each day's straggler, the highest threshold of one app, delivered once.
struct FactStream {
  /// Every local day a fact falls on, in order.
  var days: [LocalDay]
  /// The facts, in the order they are published, duplicates included.
  var deliveries: [FactScenario.Callback] = []
  /// One threshold per closed day, its app's highest that day, published once and only after
  /// later days' facts.
  var stragglers: [FactScenario.Callback] = []
  /// The events delivered after midnight for the interval before, each the highest threshold
  /// of its app there.
  var lateDeliveries: [FactScenario.Callback] = []
  /// An instant after every fact.
  var end: Date
  /// The zone of the days, the device's and the configuration's.
  var zone: TimeZone
  /// Whether May's plan starts on its second day, so that May's first has no budgets.
  var mayPlanStartsLate = false

  /// The app "evening" watches, when a day has it.
  static let eveningApp = FactScenario.apps[1]

  /// Builds the stream of `seed`, in New York, Berlin or Tokyo: local days that begin in the
  /// middle of a UTC day, late in one, or early.
  init(seed: UInt64) throws {
    zone = try TestSupport.zone(["America/New_York", "Europe/Berlin", "Asia/Tokyo"][Int(seed % 3)])
    var random = SplitMix64(seed: seed)
    func roll(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    let boundary = DayBoundary(timeZone: zone)
    // Mid-April, or across the end of April into May.
    let first = try LocalDay(parsing: roll(2) == 0 ? "2026-04-13" : "2026-04-28")
    let count = 3 + roll(4)
    days = (0...count).map { first.advanced(by: $0) }  // and the day after, for late deliveries
    end = boundary.interval(of: first.advanced(by: count)).end
    // Each fact with the instant it is published at: its own, or a later one.
    var published: [(fact: FactScenario.Callback, at: Date)] = []
    for offset in 0..<count {
      let start = boundary.start(of: first.advanced(by: offset))
      let next = boundary.start(of: first.advanced(by: offset + 1))
      func at(_ seconds: Int) -> Date { start.addingTimeInterval(Double(seconds)) }
      var facts: [FactScenario.Callback] = [
        .init(kind: .intervalDidStart, activity: "daily", at: at(roll(3)))
      ]
      let evening = roll(2) == 0
      if evening {
        facts.append(.init(kind: .intervalDidStart, activity: "evening", at: at(18 * 3600)))
      }
      let apps = Array(FactScenario.apps.shuffled(using: &random).prefix(2 + roll(3)))
      var used: [String: Int] = [:]  // minutes of use of each app in the daily interval
      var usedInEvening = 0
      var highest: [String: Int] = [:]  // each app's highest threshold: its index in `facts`
      var clock = 6 * 3600 + roll(3 * 3600)
      while clock < 22 * 3600 + 1800 {
        let app = apps[roll(apps.count)]
        var steps = 1 + roll(4)
        let pause = 60 * (10 + roll(140))
        let last = clock + steps * 300 + pause >= 22 * 3600 + 1800
        if last, offset == 0 { steps = max(steps, 2) }
        // Now and then the platform holds a session's ladder back and delivers it at once, at
        // its end: a burst, which the evidence does not confirm when it is the day's last.
        let burst = steps > 1 && (last && (offset == 0 || roll(2) == 0) || roll(5) == 0)
        for step in 1...steps {
          let minutes = used[app, default: 0] + 5
          used[app] = minutes
          let received = at(clock + (burst ? steps : step) * 300 + roll(20))
          highest[app] = facts.count
          facts.append(
            try FactScenario.threshold(app, minutes: minutes, activity: "daily", at: received))
          if evening, app == Self.eveningApp, clock + (step - 1) * 300 >= 18 * 3600 {
            usedInEvening += 5
            facts.append(
              try FactScenario.threshold(
                app, minutes: usedInEvening, activity: "evening", at: received))
          }
        }
        clock += steps * 300 + pause
      }
      if roll(3) == 0, let app = apps.first {  // 10 hours claimed by the morning
        facts.append(
          try FactScenario.threshold(
            app, minutes: 600, activity: "daily", at: at(7 * 3600 + roll(3600))))
      }
      if roll(4) == 0 {
        facts.append(
          .init(kind: .eventDidReachThreshold, activity: "daily", event: "not-ours", at: at(9000)))
      }
      facts.append(.init(kind: .intervalWillEndWarning, activity: "daily", at: at(86_040)))
      facts.append(.init(kind: .intervalDidEnd, activity: "daily", at: at(86_340)))

      // The straggler: an app's highest threshold, not watched by "evening".
      let candidates = apps.filter { highest[$0] != nil && !(evening && $0 == Self.eveningApp) }
      let straggler = offset < count - 1 ? candidates.first.flatMap { highest[$0] } : nil
      // The last 5 minutes of another app, before 23:59, delivered after midnight: a threshold
      // higher than the time since the next interval began.
      if roll(3) != 0,
        let app = apps.first(where: { used[$0] != nil && $0 != candidates.first })
      {
        let minutes = (used[app] ?? 0) + 5
        let received = next.addingTimeInterval(Double(60 * (1 + roll(min(minutes - 1, 55)))))
        let late = try FactScenario.threshold(
          app, minutes: minutes, activity: "daily", at: received)
        facts.append(late)
        lateDeliveries.append(late)
      }

      for (index, fact) in facts.enumerated() {
        if index == straggler {
          // Published once, a random while after the next day began.
          let delay = 3600 + roll((count - offset - 1) * 86_400 - 3600)
          published.append((fact, next.addingTimeInterval(Double(delay))))
          stragglers.append(fact)
          continue
        }
        var publishedAt = fact.at
        if roll(20) == 0, offset < count - 1 {  // a fact of a closed day, published late
          publishedAt = next.addingTimeInterval(Double(roll((count - offset - 1) * 86_400)))
        }
        published.append((fact, publishedAt))
        guard fact.kind == .eventDidReachThreshold, fact.event != "not-ours" else { continue }
        if roll(8) == 0 {  // the same fact, published twice
          published.append((fact, publishedAt.addingTimeInterval(Double(roll(600)))))
        }
        if roll(10) == 0 {  // delivered twice: the callback ran again
          var again = fact
          again.at = fact.at.addingTimeInterval(Double(1 + roll(30)))
          published.append((again, again.at))
        }
        let name = try ThresholdEventName(parsing: fact.event ?? "")
        let minutes = Int(name.threshold.components.seconds / 60)
        if minutes > 5, minutes < 600, roll(12) == 0, fact.at < at(22 * 3600) {
          // A lower threshold, much later (still within the interval).
          let later = fact.at.addingTimeInterval(Double(300 + roll(3000)))
          published.append(
            (
              try FactScenario.threshold(
                name.app.rawValue, minutes: minutes - 5, activity: fact.activity, at: later),
              later
            ))
        }
      }
    }
    mayPlanStartsLate = seed % 4 < 2  // seeds 1 and 3 cross into May: one of each
    // Stable: facts published at one instant keep the order they were made in.
    deliveries = published.enumerated().sorted {
      ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
    }.map(\.element.fact)
  }

  /// ``FactScenario/configuration(zone:)``, with a plan for May too, from its first day or
  /// its second (``mayPlanStartsLate``).
  func configuration() throws -> PipelineConfiguration {
    var configuration = try FactScenario.configuration(zone: zone)
    let may = try LocalMonth(year: 2026, month: 5)
    configuration.plans.append(
      try MonthlyPlan(
        month: may,
        amounts: [.socialMedia: .seconds(30 * 3600), .education: .seconds(10 * 3600)],
        startDay: mayPlanStartsLate ? may.firstDay.advanced(by: 1) : may.firstDay))
    return configuration
  }
}
