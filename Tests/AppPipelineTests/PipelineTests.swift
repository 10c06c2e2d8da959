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

/// The pipeline's rules, one at a time: exactly once, attribution to intervals, clamping,
/// losses with their epochs, undecodable entries, retention, and its settings.
@Suite("Usage pipeline")
struct PipelineTests {
  let day = "2026-04-15"

  @Test("a drained fact is applied once: draining again, or a duplicate delivery, adds nothing")
  func exactlyOnce() throws {
    var harness = try PipelineHarness()
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    try harness.use("com.example", day: day, from: "08:00", minutes: 10, step: 5)
    // The platform delivers the 10-minute event again.
    _ = harness.recorder.eventDidReachThreshold(
      "stk:10m:com.example", activity: "daily", now: try harness.at("\(day) 08:10:07"))
    let first = try harness.dashboard(day, at: "09:00")
    let drain = try harness.pipeline.wake(.poll, now: try harness.at("\(day) 09:01"))
    #expect(drain.applied == 0)
    #expect(!drain.decision.shouldDrain)
    let second = try harness.dashboard(day, at: "09:00")
    #expect(first.usage.total == minutes(10))
    #expect(second.usage == first.usage)
    #expect(second.gaps == first.gaps)
    #expect(second.facts == first.facts)
    #expect(first.facts.thresholds.duplicates == 1)
    #expect(try harness.pipeline.facts().count == 4)
  }

  @Test("usage counted from before the interval is clamped to the interval's start")
  func recordsAreClampedToTheInterval() throws {
    var harness = try PipelineHarness { $0.includesPastActivity = true }
    // Monitoring began at 07:12; the platform counts use since 07:00, so a 5-minute threshold
    // at 07:14 is plausible, but only 2 of its minutes lie in the interval.
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 07:12"))
    _ = harness.recorder.eventDidReachThreshold(
      "stk:5m:com.example", activity: "daily", now: try harness.at("\(day) 07:14"))
    let dashboard = try harness.dashboard(day, at: "08:00")
    #expect(dashboard.facts.thresholds.counted == 1)
    #expect(dashboard.usage.total == minutes(2))
  }

  @Test("monitoring restarted inside a scheduled occurrence starts a new interval from zero")
  func restartStartsANewInterval() throws {
    var harness = try PipelineHarness { configuration in
      configuration.monitoring = try MonitoringPlan([
        MonitoredActivity(
          name: "daily",
          schedule: .daily(
            try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
      ])
    }
    try harness.use("com.example", day: day, from: "08:00", minutes: 20, step: 5)
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 12:00"))
    try harness.use("com.example", day: day, from: "12:00", minutes: 10, step: 5)
    let dashboard = try harness.dashboard(day, at: "13:00")
    #expect(dashboard.usage.total == minutes(30), "20 minutes before the restart, 10 after")
  }

  @Test("two activities that watch one app count its time once")
  func overlappingActivitiesCountOnce() throws {
    var harness = try PipelineHarness()
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    _ = harness.recorder.intervalDidStart(for: "evening", now: try harness.at("\(day) 18:00"))
    try harness.use("com.example", activity: "daily", day: day, from: "19:00", minutes: 15, step: 5)
    try harness.use(
      "com.example", activity: "evening", day: day, from: "19:00", minutes: 15, step: 5)
    #expect(try harness.dashboard(day, at: "20:00").usage.total == minutes(15))
  }

  @Test("facts evicted before the app drained them are losses, with their epoch, as gap evidence")
  func evictedFactsAreLossesWithTheirEpoch() throws {
    var harness = try PipelineHarness(outboxCapacity: 4)
    let outbox = harness.recorder.outbox
    try harness.tick(from: "\(day) 09:00", through: "\(day) 12:00", every: 60)
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 09:00"))
    try harness.pipeline.wake(.notification, now: try harness.at("\(day) 09:01"))
    // Ten facts while the app is suspended: numbers 2...7 are evicted before it drains.
    for minute in 1...10 {
      _ = harness.recorder.intervalWillEndWarning(
        for: "daily", now: try harness.at("\(day) 10:\(minute < 10 ? "0" : "")\(minute)"))
    }
    let drain = try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 11:00"))
    let epoch = try #require(try outbox.head()?.number.epoch)
    #expect(drain.lost == SequenceRange(epoch: epoch, values: 2...7))
    let losses = try harness.pipeline.state().losses
    #expect(losses.map(\.range.values) == [2...7])
    #expect(losses.map(\.range.epoch) == [epoch])
    #expect(try losses.first?.after == harness.at("\(day) 09:00"))
    #expect(try losses.first?.before == harness.at("\(day) 10:07"))
    let dashboard = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: day), now: try harness.at("\(day) 12:00"))
    let evidence = dashboard.gaps.gaps.flatMap(\.evidence).filter { $0.kind == .missedSequence }
    #expect(evidence.map(\.missed?.values) == [2...7])
    #expect(evidence.map(\.missed?.epoch) == [epoch])
    #expect(dashboard.facts.losses == losses)
  }

  @Test("an entry that never decodes is passed over, recorded as undecodable, the rest applied")
  func undecodableEntryIsSkipped() throws {
    var harness = try PipelineHarness()
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    // A newer extension publishes something this version cannot read.
    let foreign = try SequencedOutbox<Int>(
      store: try FileStore(directory: harness.directory.url),
      key: SharedFolderLayout.standard.outboxKey,
      capacity: SharedFolderLayout.standard.outboxCapacity)
    let number = try foreign.publish(42)
    try harness.use("com.example", day: day, from: "08:00", minutes: 10, step: 5)
    let drain = try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 09:00"))
    #expect(drain.applied == 3)
    #expect(try harness.pipeline.state().undecodable == [number])
    #expect(try harness.pipeline.state().losses.isEmpty)
    let dashboard = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: day), now: try harness.at("\(day) 09:00"))
    #expect(dashboard.usage.total == minutes(10))
    #expect(dashboard.facts.undecodable == [number])
  }

  @Test("an entry that never decodes, passed over by two app processes at once, is recorded once")
  func undecodableEntryPassedOverTwiceIsRecordedOnce() throws {
    let directory = try TemporaryDirectory(prefix: "stk-undecodable-twice")
    let hook = BeforeTheLock(afterOpening: SharedFolderLayout.standard.outboxKey)
    let configuration = PipelineConfiguration(userId: "twice", timeZone: .gmt)
    var app = try UsagePipeline(
      folder: try hook.folder(at: directory.url).folder, configuration: configuration)
    let other = OtherAppProcess(
      try UsagePipeline(
        folder: try SharedFolder(directory: directory.url), configuration: configuration))
    let recorder = MonitorRecorder(
      folder: try SharedFolder(directory: directory.url), timeZone: { .gmt })
    let start = Date(timeIntervalSince1970: 1_776_211_200)
    _ = recorder.intervalDidStart(for: "daily", now: start)
    let foreign = try SequencedOutbox<Int>(
      store: try FileStore(directory: directory.url), key: SharedFolderLayout.standard.outboxKey,
      capacity: SharedFolderLayout.standard.outboxCapacity)
    let number = try foreign.publish(42)

    // The app reads the entry; before it takes the lock to pass over it, the other process
    // passes over it.
    hook.arm { _ = try? other.pipeline.wake(.foreground, now: start + 60) }
    _ = try app.wake(.foreground, now: start + 60)
    #expect(try other.pipeline.state().undecodable == [number])
    #expect(try app.state().undecodable == [number], "once, not once per process")
  }

  /// How an epoch ends in ``endedEpochCountsFromTheStoredCursor(ending:)``.
  enum EpochEnd: String, CaseIterable, Sendable {
    /// The outbox is removed; the extension's next fact begins a new epoch, which the app's
    /// drain crosses into.
    case outboxRemoved
    /// The outbox's header is damaged; the app's wake moves it aside, and drains nothing.
    case appHealsTheOutbox
  }

  @Test(
    "an ended epoch costs the numbers after the last one any app process applied, not this one's",
    arguments: EpochEnd.allCases)
  func endedEpochCountsFromTheStoredCursor(ending: EpochEnd) throws {
    var harness = try PipelineHarness()
    var other = try UsagePipeline(
      folder: try SharedFolder(directory: harness.directory.url),
      configuration: harness.pipeline.configuration)
    let start = try harness.at("\(day) 00:00")
    func publish(_ range: ClosedRange<Int>) -> [SequenceNumber] {
      range.compactMap {
        harness.recorder.intervalDidStart(for: "a\($0)", now: start + Double($0 * 60)).notification
      }
    }
    let epoch = try #require(publish(1...5).last).epoch
    #expect(try harness.pipeline.wake(.foreground, now: start + 300).applied == 5)
    _ = publish(6...10)
    // The other process (a widget, say) drains 6…10; this one's own cursor stays at 5.
    #expect(try other.wake(.foreground, now: start + 600).applied == 5)

    let outbox = harness.directory.url.appendingPathComponent(
      SharedFolderLayout.standard.outboxKey)
    switch ending {
    case .outboxRemoved:
      try FileManager.default.removeItem(at: outbox)
      let next = try #require(publish(11...11).first)
      #expect(next.epoch != epoch && next.value == 1)
    case .appHealsTheOutbox:
      var bytes = try Data(contentsOf: outbox)
      for offset in 20..<24 { bytes[offset] ^= 0x5A }
      try bytes.write(to: outbox, options: .atomic)
    }
    let drain = try harness.pipeline.wake(.foreground, now: start + 700)
    #expect(drain.applied == (ending == .outboxRemoved ? 1 : 0))
    #expect(drain.outboxRecoveries.map(\.epoch) == [epoch])
    #expect(drain.outboxRecoveries.map(\.lastNumber) == [10])
    #expect(try harness.pipeline.state().losses.isEmpty, "6…10 were applied, by the other process")
  }

  @Test("facts older than the retention are dropped when the app drains")
  func retentionDropsOldFacts() throws {
    var harness = try PipelineHarness()
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("2026-03-01 00:00"))
    try harness.use("com.example", day: "2026-03-01", from: "08:00", minutes: 10, step: 5)
    try harness.pipeline.wake(.foreground, now: try harness.at("2026-03-01 09:00"))
    #expect(try harness.pipeline.facts().count == 3)
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("2026-04-12 00:00"))
    try harness.pipeline.wake(.foreground, now: try harness.at("2026-04-12 09:00"))
    let kept = try harness.pipeline.facts()
    #expect(
      kept.map(\.callback) == [.intervalDidStart, .intervalDidStart],
      "42 days later the events are gone; an interval's start stays 7 days longer")
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("2026-04-19 00:00"))
    try harness.pipeline.wake(.foreground, now: try harness.at("2026-04-19 09:00"))
    #expect(try harness.pipeline.facts().count == 2, "49 days later, it is gone too")
  }

  @Test("a day before the month's plan starts has no budgets, and is not an error")
  func dayBeforeThePlanStarts() throws {
    var harness = try PipelineHarness { configuration in
      configuration.plans = [
        try MonthlyPlan(
          month: LocalMonth(year: 2026, month: 4), amounts: [.socialMedia: .seconds(3600)],
          startDay: LocalDay(year: 2026, month: 4, day: 20))
      ]
    }
    #expect(try harness.dashboard(day, at: "12:00").budgets.isEmpty)
    #expect(try harness.dashboard("2026-04-20", at: "12:00").budgets.count == 1)
  }

  @Test("health counts a fact written after the last heartbeat as a sign of life")
  func factAfterTheLastHeartbeatIsASignOfLife() throws {
    var harness = try PipelineHarness()
    _ = harness.recorder.heartbeat(now: try harness.at("\(day) 08:00"))
    // A fact whose heartbeat was lost to a kill: published without the recorder's heartbeat.
    try harness.recorder.outbox.publish(
      try MonitorFact(.intervalDidStart, activity: "daily", at: try harness.at("\(day) 09:00"))
    )
    let health = try harness.dashboard(day, at: "09:01").health
    #expect(health.status == .healthy(age: .seconds(60)))
  }

  @Test("settings out of range are rejected when the pipeline opens")
  func invalidSettingsAreRejected() throws {
    let directory = try TemporaryDirectory(prefix: "stk-pipeline")
    var configuration = PipelineConfiguration(userId: "u", timeZone: try zone("UTC"))
    configuration.retentionDays = 31
    #expect(throws: PipelineError.self) {
      try UsagePipeline(
        folder: try SharedFolder(directory: directory.url), configuration: configuration)
    }
    configuration.retentionDays = 40
    configuration.thresholdTolerance = .seconds(-1)
    #expect(throws: PipelineError.self) {
      try UsagePipeline(
        folder: try SharedFolder(directory: directory.url), configuration: configuration)
    }
  }

  @Test("a configuration's JSON form round-trips")
  func configurationRoundTrips() throws {
    let zone = try TestSupport.zone("America/New_York")
    let configuration = try FactScenario.configuration(zone: zone)
    #expect(try decode(PipelineConfiguration.self, json(configuration)) == configuration)
    let state = try PipelineHarness().pipeline.state()
    #expect(try decode(PipelineState.self, json(state)) == state)
  }

  @Test("the state says that a drain began from the first drain on, and round-trips with it")
  func stateSaysThatADrainBegan() throws {
    var harness = try PipelineHarness()
    #expect(try !json(harness.pipeline.state()).contains("drainBegan"))
    try harness.use("com.example", day: "2026-04-16", from: "08:00", minutes: 5, step: 5)
    try harness.pipeline.wake(.foreground, now: try harness.at("2026-04-16 08:30"))
    let state = try harness.pipeline.state()
    #expect(try json(state).contains(#""drainBegan":true"#))
    #expect(try decode(PipelineState.self, json(state)) == state)
    // Alone, it is what tells a state whose drain began from one that never drained.
    let initial = try json(PipelineState())
    #expect(try decode(PipelineState.self, initial) == PipelineState())
    let began = try decode(PipelineState.self, #"{"drainBegan":true,"# + initial.dropFirst())
    #expect(began != PipelineState())
    #expect(try json(began).contains(#""drainBegan":true"#))
    #expect(try decode(PipelineState.self, json(began)) == began)
  }

  @Test("a pipeline error gives the store's error in one call")
  func storeErrorIsOneCallAway() {
    let error = SharedStoreError.corrupted(key: "k", path: "/p", reason: "r")
    #expect(PipelineError.store(error).storeError == error)
    #expect(PipelineError.sequence(.store(error)).storeError == error)
    #expect(PipelineError.signals(.store(error)).storeError == error)
    #expect(PipelineError.usage(.emptyActivityName).storeError == nil)
  }
}
