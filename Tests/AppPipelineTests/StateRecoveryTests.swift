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

/// The app side's own files heal themselves: a damaged one is quarantined, rebuilt from the facts
/// still in the outbox and the surviving day logs, and reported with what could not be rebuilt;
/// the pipeline goes on, and the next wake is a normal one.
@Suite("The app's state heals itself")
struct StateRecoveryTests {
  /// The app side's files a scenario damages, by what they hold.
  enum Target: String, CaseIterable, CustomStringConvertible {
    case state, facts, starts, summaries, ledger

    var description: String { rawValue }

    var file: PipelineRecovery.File {
      switch self {
      case .state: return .state
      case .facts: return .facts
      case .starts: return .starts
      case .summaries: return .summaries
      case .ledger: return .ledger
      }
    }

    /// Its key in the standard layout; the facts are those of the second day, in UTC.
    func key(_ layout: SharedFolderLayout) throws -> String {
      switch self {
      case .state: return layout.appStateKey
      case .facts: return layout.appFactsKey(of: try LocalDay(parsing: "2026-04-16"))
      case .starts: return layout.appStartsKey
      case .summaries: return layout.appSummariesKey
      case .ledger: return layout.appLedgerKey
      }
    }
  }

  /// Two days of use, drained and settled on the morning of the second: the first day
  /// summarised, the ledger credited with 40 minutes at 10 XP a minute, 100 XP redeemed.
  struct Scenario {
    var harness: PipelineHarness
    let first = "2026-04-15"
    let second = "2026-04-16"

    init() throws {
      harness = try PipelineHarness { configuration in
        configuration.rewards = try UsageRewards(xpPerMinute: [.other: 10])
      }
      _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(first) 00:00"))
      try harness.use("com.example", day: first, from: "08:00", minutes: 30, step: 5)
      _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(second) 00:00"))
      try harness.use("com.example", day: second, from: "08:00", minutes: 10, step: 5)
      try harness.pipeline.wake(.foreground, now: try harness.at("\(second) 09:00"))
      try harness.pipeline.redeemAll(id: "movie", at: try harness.at("\(second) 09:01"))
    }

    var key: (Target) throws -> String {
      let layout = harness.pipeline.folder.layout
      return { try $0.key(layout) }
    }

    func url(of target: Target) throws -> URL {
      harness.directory.url.appendingPathComponent(try key(target))
    }

    /// Ten more minutes of use on the second day, from 09:00.
    func useMore() throws {
      try harness.use(
        "com.example", day: second, from: "09:00", minutes: 10, step: 5, alreadyUsed: 10)
    }

    func quarantined(_ target: Target) throws -> [String] {
      let key = try key(target)
      return try harness.directory.contents().filter { $0.hasPrefix(".quarantined.\(key).") }
    }
  }

  /// The damages that make a file unreadable, with the error the store reports.
  static let unreadable: [FolderDamage] = [.flipHeader, .truncateToStub, .newerVersion, .garbage]

  @Test(
    "a damaged file is quarantined, rebuilt and reported, and the pipeline goes on",
    arguments: Target.allCases, unreadable)
  func damagedFileHeals(_ target: Target, _ damage: FolderDamage) throws {
    var scenario = try Scenario()
    let before = try scenario.harness.dashboard(scenario.first, at: "09:02")
    try damage.apply(to: try scenario.url(of: target))
    try scenario.useMore()

    let wake = try scenario.harness.pipeline.wake(
      .notification, now: try scenario.harness.at("\(scenario.second) 09:30"))
    let recovery = try #require(wake.recoveries.first)
    #expect(wake.recoveries.count == 1)
    #expect(recovery.file == target.file)
    let key = try scenario.key(target)
    #expect(recovery.key == key)
    #expect(recovery.keptAt != nil)
    #expect(try scenario.quarantined(target).count == 1)
    // A rebuilt state applies the whole outbox again; the day logs read it as a set.
    #expect(wake.applied == (target == .state ? 12 : 2))
    #expect(wake.lost == nil)

    // Every minute is still there: the outbox held every fact.
    let first = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.first),
      now: try scenario.harness.at("\(scenario.second) 09:30"))
    let second = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.second),
      now: try scenario.harness.at("\(scenario.second) 09:30"))
    #expect(first.usage == before.usage)
    #expect(second.usage.total == .seconds(20 * 60))
    #expect(second.facts.recoveries == [recovery])
    #expect(second.facts.losses.isEmpty)
    #expect(try scenario.harness.pipeline.state().recoveries == [recovery])

    // Fail safe: a rebuilt ledger never pays again for what may have been redeemed.
    // 400 XP were earned and redeemed before: only the ten minutes drained since earn, 100 XP.
    // A rebuilt ledger expires what its facts credit again, since it may have been redeemed.
    #expect(second.rewards.xp == 100)
    if target == .ledger {
      #expect(recovery.unrebuilt == [.ledgerTransactions(before: recovery.at)])
    }

    // No loop: the next wake finds nothing to heal.
    try scenario.useMore()
    let next = try scenario.harness.pipeline.wake(
      .poll, now: try scenario.harness.at("\(scenario.second) 09:45"))
    #expect(next.recoveries.isEmpty)
    #expect(try scenario.quarantined(target).count == 1)
  }

  @Test(
    "a file cut short, its records garbled or removed never lifts a restriction nor pays twice",
    arguments: Target.allCases, [FolderDamage.flipRecords, .truncateToHalf, .delete])
  func fileThatReadsShorterFailsSafe(_ target: Target, _ damage: FolderDamage) throws {
    var scenario = try Scenario()
    let before = try scenario.harness.dashboard(scenario.first, at: "09:02")
    try damage.apply(to: try scenario.url(of: target))
    try scenario.useMore()
    let now = try scenario.harness.at("\(scenario.second) 09:30")
    let wake = try scenario.harness.pipeline.wake(.notification, now: now)
    #expect(wake.recoveries.allSatisfy { $0.file == target.file })
    let first = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.first), now: now)
    let second = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.second), now: now)
    #expect(first.usage == before.usage)
    #expect(second.usage.total == .seconds(20 * 60))
    // 400 XP were earned and redeemed: at most the 100 of the ten minutes since are left.
    #expect(second.rewards.xp <= 100)
    let next = try scenario.harness.pipeline.wake(
      .poll, now: try scenario.harness.at("\(scenario.second) 09:45"))
    #expect(next.recoveries.isEmpty)
  }

  @Test(
    "several files damaged at once are each healed and reported once",
    arguments: [
      [Target.facts, .starts], [.state, .ledger], [.summaries, .facts, .ledger],
      Target.allCases,
    ])
  func severalDamagedFilesHeal(_ targets: [Target]) throws {
    var scenario = try Scenario()
    for target in targets { try FolderDamage.garbage.apply(to: try scenario.url(of: target)) }
    try scenario.useMore()
    let now = try scenario.harness.at("\(scenario.second) 09:30")
    let wake = try scenario.harness.pipeline.wake(.notification, now: now)
    #expect(Set(wake.recoveries.map(\.file)) == Set(targets.map(\.file)))
    #expect(wake.recoveries.count == targets.count)
    let second = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.second), now: now)
    #expect(second.usage.total == .seconds(20 * 60))
    // Fail safe: never more than the ten minutes drained since the redemption. With the state,
    // the day and the ledger all lost, nothing says those minutes were not drained and redeemed
    // before: the rebuilt ledger expires them too.
    #expect(
      second.rewards.xp == (Set(targets).isSuperset(of: [.state, .facts, .ledger]) ? 0 : 100))
    #expect(Set(second.facts.recoveries) == Set(wake.recoveries))
    let next = try scenario.harness.pipeline.wake(
      .poll, now: try scenario.harness.at("\(scenario.second) 09:45"))
    #expect(next.recoveries.isEmpty)
  }

  @Test("a dashboard heals a damaged file too, before any wake")
  func dashboardHeals() throws {
    let scenario = try Scenario()
    try FolderDamage.flipRecords.apply(to: try scenario.url(of: .state))
    let now = try scenario.harness.at("\(scenario.second) 09:10")
    let dashboard = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.second), now: now)
    #expect(dashboard.facts.recoveries.map(\.file) == [.state])
    #expect(dashboard.usage.total == .seconds(10 * 60))
  }

  @Test("a summarised day rebuilt with an undrained late fact is marked stale")
  func dayRebuiltWithUndrainedFactMarksItsSummaryStale() throws {
    let scenario = try Scenario()
    let harness = scenario.harness
    // A threshold of the first day, summarised at 09:00 on the second, delivered late and not
    // drained yet: 23:30 in New York is 03:30 UTC, in the log of the second day, which holds
    // nothing before the outbox's oldest entry (the first day's start): nothing of it is lost.
    let late = try ThresholdEventName(app: try AppID("com.example"), threshold: .seconds(35 * 60))
    #expect(
      harness.recorder.eventDidReachThreshold(
        late.rawValue, activity: "daily", now: try harness.at("\(scenario.first) 23:30")
      ).succeeded)
    try FolderDamage.garbage.apply(to: try scenario.url(of: .facts))

    // A dashboard heals the log and drains nothing: the rebuilt log holds the late fact, and
    // nothing but the rebuild can tell the first day's summary that it lacks it.
    let dashboard = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.second), now: try harness.at("\(scenario.second) 09:30"))
    let recovery = try #require(dashboard.facts.recoveries.first)
    #expect(recovery.file == .facts)
    #expect(recovery.unrebuilt.isEmpty)
    let store = try FileStore(directory: harness.directory.url)
    let layout = harness.pipeline.folder.layout
    let records = try #require(try store.readLog(layout.appSummariesKey, newest: nil)).records
    let newest = try #require(
      records.map { String(decoding: $0.bytes, as: UTF8.self) }.last {
        $0.contains("\"day\":\"\(scenario.first)\"")
      })
    #expect(newest == #"{"day":"\#(scenario.first)","stale":true}"#)
  }

  @Test("a rebuilt ledger credits a fact delivered again, so that its copy does not pay it twice")
  func rebuiltLedgerCreditsAFactDeliveredAgain() throws {
    var scenario = try Scenario()
    // The second day's 10th minute, drained and credited before the redemption, published
    // again under a new number (the extension's backlog retried it): undrained when the ledger
    // is rebuilt, with the same payload as a drained fact.
    let outbox = scenario.harness.pipeline.folder.outbox
    let entries = try outbox.drain(after: OutboxCursor()).entries
    let tenth = try #require(entries.last { $0.payload.callback == .eventDidReachThreshold })
    try outbox.publish(tenth.payload)
    try FolderDamage.garbage.apply(to: try scenario.url(of: .ledger))

    let now = try scenario.harness.at("\(scenario.second) 09:30")
    let wake = try scenario.harness.pipeline.wake(.notification, now: now)
    #expect(wake.recoveries.map(\.file) == [.ledger])
    #expect(wake.applied == 1, "the copy is drained")
    let second = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.second), now: now)
    #expect(second.usage.total == .seconds(10 * 60))
    // Every minute credited before was credited again and expired: none is paid twice.
    #expect(second.rewards.xp == 0)
  }

  static let morning = "2026-04-15"

  /// A start and ten minutes of use on ``morning``, drained in two wakes (08:05 and 08:10)
  /// through an outbox of 8, which evicted the first facts after the app drained them.
  static func drainedMorning() throws -> PipelineHarness {
    var harness = try PipelineHarness(outboxCapacity: 8)
    let day = morning
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    try harness.use("com.example", day: day, from: "08:00", minutes: 5)
    try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 08:05"))
    try harness.use("com.example", day: day, from: "08:05", minutes: 5, alreadyUsed: 5)
    try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 08:10"))
    return harness
  }

  @Test(
    "a rebuilt day reports lost what was published before the outbox's oldest entry, whatever a late fact's date"
  )
  func rebuiltDayReportsLossUpToTheOldestEntry() throws {
    var harness = try Self.drainedMorning()
    let day = Self.morning
    // A threshold of 02:00 delivered late, after every other: the outbox now holds 08:04 to
    // 08:10 and it.
    let late = try ThresholdEventName(app: try AppID("com.example"), threshold: .seconds(60))
    _ = harness.recorder.eventDidReachThreshold(
      late.rawValue, activity: "daily", now: try harness.at("\(day) 02:00"))
    let key = harness.pipeline.folder.layout.appFactsKey(of: try LocalDay(parsing: day))
    try FolderDamage.garbage.apply(to: harness.directory.url.appendingPathComponent(key))

    let wake = try harness.pipeline.wake(.notification, now: try harness.at("\(day) 08:20"))
    let recovery = try #require(wake.recoveries.first)
    #expect(recovery.file == .facts)
    // Lost: the UTC day from its start to the oldest entry in number order, 08:04 in New York;
    // not only to the late fact's 02:00.
    let start = Date(timeIntervalSince1970: 1_776_211_200)  // 2026-04-15T00:00:00Z
    let oldest = try harness.at("\(day) 08:04")
    #expect(recovery.unrebuilt == [.facts(from: start, to: oldest)])
  }

  @Test("a rebuilt state reports the numbers it cannot vouch for, not a loss of them")
  func rebuiltStateReportsUnknownDeliveries() throws {
    var harness = try Self.drainedMorning()
    let day = Self.morning
    let key = harness.pipeline.folder.layout.appStateKey
    try FolderDamage.garbage.apply(to: harness.directory.url.appendingPathComponent(key))
    try harness.use("com.example", day: day, from: "08:10", minutes: 2, alreadyUsed: 10)

    let wake = try harness.pipeline.wake(.notification, now: try harness.at("\(day) 08:20"))
    let recovery = try #require(wake.recoveries.first)
    // 13 facts published, the newest 8 kept: 1...5 were drained before, but nothing says so.
    guard case .deliveries(let range)? = recovery.unrebuilt.first else {
      Issue.record("no deliveries reported: \(recovery.unrebuilt)")
      return
    }
    #expect(range.values == 1...5)
    #expect(recovery.unrebuilt.last == .acknowledgedAlerts)
    #expect(wake.lost == nil)
    let dashboard = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: day), now: try harness.at("\(day) 08:20"))
    #expect(dashboard.facts.losses.isEmpty)
    #expect(dashboard.usage.total == .seconds(12 * 60))
  }

  @Test("a day log that lost facts the outbox no longer holds reports the stretch it lost")
  func rebuiltDayReportsWhatTheOutboxNoLongerHeld() throws {
    var harness = try PipelineHarness(outboxCapacity: 4)
    let day = "2026-04-15"
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    try harness.use("com.example", day: day, from: "08:00", minutes: 10)
    try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 08:10"))
    // 08:00 in New York is 12:00 UTC: the facts are on the UTC day 2026-04-15.
    let key = harness.pipeline.folder.layout.appFactsKey(of: try LocalDay(parsing: day))
    try FolderDamage.flipHeader.apply(to: harness.directory.url.appendingPathComponent(key))
    try harness.use("com.example", day: day, from: "08:10", minutes: 1, alreadyUsed: 10)

    let wake = try harness.pipeline.wake(.notification, now: try harness.at("\(day) 08:20"))
    let recovery = try #require(wake.recoveries.first)
    // The outbox keeps the newest 4 facts, from 08:08 on: the day before them is lost.
    let lost = PipelineRecovery.Loss.facts(
      from: try instant("2026-04-15T00:00:00Z"), to: try harness.at("\(day) 08:08"))
    #expect(recovery.unrebuilt == [lost])
    let dashboard = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: day), now: try harness.at("\(day) 08:20"))
    #expect(dashboard.facts.recoveries == [recovery])
  }

  @Test("a day log cut short keeps what still reads: only the stretch it lost is reported")
  func dayLogCutShortKeepsWhatReads() throws {
    var harness = try PipelineHarness(outboxCapacity: 4)
    let day = "2026-04-15"
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    // Two drains, two frames of the day log: cut to half, the first still reads.
    try harness.use("com.example", day: day, from: "08:00", minutes: 1)
    try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 08:01"))
    try harness.use("com.example", day: day, from: "08:01", minutes: 9, alreadyUsed: 1)
    try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 08:10"))
    let key = harness.pipeline.folder.layout.appFactsKey(of: try LocalDay(parsing: day))
    try FolderDamage.truncateToHalf.apply(to: harness.directory.url.appendingPathComponent(key))
    let survivors = try harness.pipeline.facts()
    #expect(survivors.count == 2)
    try harness.use("com.example", day: day, from: "08:10", minutes: 1, alreadyUsed: 10)

    let wake = try harness.pipeline.wake(.notification, now: try harness.at("\(day) 08:20"))
    let recovery = try #require(wake.recoveries.first)
    // Kept: the facts that still read; lost: from the last of them to the outbox's oldest, 08:08.
    let last = try #require(survivors.last?.instant)
    let lost = PipelineRecovery.Loss.facts(
      from: Date(timeIntervalSince1970: Double(last + 1) / 1000),
      to: try harness.at("\(day) 08:08"))
    #expect(recovery.unrebuilt == [lost])
    #expect(try harness.pipeline.facts().count == survivors.count + 4)
    // Cumulative thresholds: the day's use is whole again.
    let dashboard = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: day), now: try harness.at("\(day) 08:20"))
    #expect(dashboard.usage.total == .seconds(11 * 60))
  }

  @Test(
    "a day log cut short or removed without an error is found by its last fact, and rebuilt",
    arguments: [FolderDamage.truncateToHalf, .delete])
  func dayLogThatWentBackHeals(_ damage: FolderDamage) throws {
    var scenario = try Scenario()
    try damage.apply(to: try scenario.url(of: .facts))
    try scenario.useMore()
    let wake = try scenario.harness.pipeline.wake(
      .notification, now: try scenario.harness.at("\(scenario.second) 09:30"))
    #expect(wake.recoveries.map(\.file) == [.facts])
    let second = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.second),
      now: try scenario.harness.at("\(scenario.second) 09:30"))
    #expect(second.usage.total == .seconds(20 * 60))
  }

  @Test("a removed state, with day logs still beside it, is reported as rebuilt")
  func removedStateIsReported() throws {
    var scenario = try Scenario()
    try FolderDamage.delete.apply(to: try scenario.url(of: .state))
    try scenario.useMore()
    let wake = try scenario.harness.pipeline.wake(
      .foreground, now: try scenario.harness.at("\(scenario.second) 09:30"))
    let recovery = try #require(wake.recoveries.first)
    #expect(recovery.file == .state)
    #expect(recovery.keptAt == nil)
    #expect(recovery.unrebuilt.contains(.acknowledgedAlerts))
  }

  @Test("a first drain killed, or read by another process, before its commit is no removed state")
  func firstDrainBeforeItsCommitIsNoRemovedState() throws {
    let harness = try PipelineHarness()
    let day = "2026-04-16"
    let at = { (time: String) throws -> Date in try harness.at("\(day) \(time)") }
    _ = harness.recorder.intervalDidStart(for: "daily", now: try at("00:00"))
    try harness.use("com.example", day: day, from: "08:00", minutes: 10, step: 5)
    let hook = BeforeTheLock(afterOpening: harness.pipeline.folder.layout.outboxKey)
    var first = try UsagePipeline(
      folder: try hook.folder(at: harness.directory.url).folder,
      configuration: harness.pipeline.configuration)
    let other = OtherAppProcess(
      try UsagePipeline(
        folder: try SharedFolder(directory: harness.directory.url),
        configuration: harness.pipeline.configuration))
    // The folder as a kill just before the first drain's commit leaves it.
    let killed = try TemporaryDirectory(prefix: "stk-killed")
    let dayLog = harness.directory.url.appendingPathComponent(
      harness.pipeline.folder.layout.appFactsKey(of: try LocalDay(parsing: day)))
    let (url, now) = (harness.directory.url, try at("08:31"))
    let ran = LockedValue(false)
    hook.arm(skippingLocks: Self.locksBeforeTheFirstCommit) {
      do {
        #expect(FileManager.default.fileExists(atPath: dayLog.path), "appended")
        #expect(try other.pipeline.state().lastApplied == nil, "not committed yet")
        let copy = killed.url.appendingPathComponent("folder")
        try FileManager.default.copyItem(at: url, to: copy)
        let wake = try other.pipeline.wake(.foreground, now: now)
        #expect(wake.recoveries == [])
        ran.withLock { $0 = true }
      } catch {
        Issue.record(error)
      }
    }
    #expect(try first.wake(.foreground, now: try at("08:30")).recoveries == [])
    #expect(ran.withLock { $0 }, "the other process woke between the append and the commit")

    // Control: without the state's first write, that folder is a removed state's.
    let copy = killed.url.appendingPathComponent("folder")
    let control = killed.url.appendingPathComponent("control")
    try FileManager.default.copyItem(at: copy, to: control)
    try FolderDamage.delete.apply(
      to: control.appendingPathComponent(harness.pipeline.folder.layout.appStateKey))
    var removed = try UsagePipeline(
      folder: try SharedFolder(directory: control), configuration: harness.pipeline.configuration)
    #expect(try removed.wake(.foreground, now: try at("08:40")).recoveries.map(\.file) == [.state])

    // The app killed then: its next launch drains the facts again, and finds nothing damaged.
    var relaunched = try UsagePipeline(
      folder: try SharedFolder(directory: copy), configuration: harness.pipeline.configuration)
    let wake = try relaunched.wake(.foreground, now: try at("08:40"))
    #expect(wake.recoveries == [])
    #expect(wake.applied == 3)
    for pipeline in [relaunched, other.pipeline] {
      #expect(try pipeline.state().recoveries == [])
      let dashboard = try pipeline.dashboard(for: try LocalDay(parsing: day), now: try at("08:45"))
      #expect(dashboard.usage.total == .seconds(10 * 60))
    }
  }

  /// The locks a first drain takes after it reads the outbox and before its commit's.
  ///
  /// They are the locks to write that it began, to append the facts to their day's log and to
  /// append the interval's start to the starts' log (no summary exists yet to mark stale), for
  /// facts of one UTC day that include a start. The hook's checks fail, rather than pass without
  /// the interleaving, if the order changes.
  static let locksBeforeTheFirstCommit = 3

  @Test(
    "a record that does not decode is damage: the file is rebuilt, keeping what still decodes",
    arguments: [Target.state, .facts, .starts, .ledger])
  func undecodableRecordHeals(_ target: Target) throws {
    var scenario = try Scenario()
    // A newer version of the app, say, appended a record this one cannot read.
    try scenario.harness.pipeline.folder.store.append(
      [Data(#"{"written":"by something else"}"#.utf8)], toLog: try scenario.key(target),
      capacity: 100_000)
    try scenario.useMore()
    let now = try scenario.harness.at("\(scenario.second) 09:30")
    let wake = try scenario.harness.pipeline.wake(.notification, now: now)
    let recovery = try #require(wake.recoveries.first)
    #expect(wake.recoveries.map(\.file) == [target.file])
    #expect(recovery.damage.contains("does not decode"))
    // Every fact still read, from the old log or the outbox: nothing of the day is lost.
    if target == .facts { #expect(recovery.unrebuilt == []) }
    let second = try scenario.harness.pipeline.dashboard(
      for: try LocalDay(parsing: scenario.second), now: now)
    #expect(second.usage.total == .seconds(20 * 60))
    #expect(second.rewards.xp == 100)
  }

  @Test("a ledger transaction that no longer applies is damage: the ledger restarts at zero")
  func ledgerThatDoesNotApplyHeals() throws {
    var scenario = try Scenario()
    let overdraft = LedgerTransaction(
      id: "planted", at: try scenario.harness.at("\(scenario.second) 09:02"),
      kind: .redeem(xp: 1_000_000))
    let layout = scenario.harness.pipeline.folder.layout
    try scenario.harness.pipeline.folder.store.append(
      [try JSONEncoder().encode(overdraft)], toLog: layout.appLedgerKey, capacity: 100_000)
    #expect(throws: PipelineError.self) { try scenario.harness.pipeline.ledger() }
    try scenario.useMore()
    let wake = try scenario.harness.pipeline.wake(
      .notification, now: try scenario.harness.at("\(scenario.second) 09:30"))
    #expect(wake.recoveries.map(\.file) == [.ledger])
    // What was credited before may have been redeemed: only the ten minutes drained since earn.
    #expect(try scenario.harness.pipeline.ledger().balance.xp == 100)
  }

  @Test(
    "a transient failure of the store is thrown and quarantines nothing",
    arguments: [Errno.ioError, .noSpace, .permissionDenied, .operationNotPermitted])
  func transientFailureQuarantinesNothing(_ errno: Errno) throws {
    var scenario = try Scenario()
    let layout = scenario.harness.pipeline.folder.layout
    let failing = FailingStore(
      base: scenario.harness.pipeline.folder.store, key: layout.appStateKey, errno: errno)
    var pipeline = try UsagePipeline(
      folder: try SharedFolder(store: failing, layout: layout),
      configuration: scenario.harness.pipeline.configuration)
    try scenario.useMore()
    #expect(throws: PipelineError.self) {
      try pipeline.wake(.notification, now: try scenario.harness.at("\(scenario.second) 09:30"))
    }
    #expect(
      throws: PipelineError.self,
      performing: {
        try pipeline.dashboard(
          for: try LocalDay(parsing: scenario.second),
          now: try scenario.harness.at("\(scenario.second) 09:30"))
      })
    #expect(
      try scenario.harness.directory.contents().filter { $0.hasPrefix(".quarantined.") } == [])
    // Control: the same store without the fault heals nothing either, and drains.
    let wake = try scenario.harness.pipeline.wake(
      .notification, now: try scenario.harness.at("\(scenario.second) 09:30"))
    #expect(wake.recoveries.isEmpty)
    #expect(wake.applied == 2)
  }

  @Test(
    "a file found damaged once, then whole — healed by another process meanwhile — is not moved",
    arguments: [1, Int.max])
  func fileHealedMeanwhileIsNotMoved(_ damagedReads: Int) throws {
    let scenario = try Scenario()
    let layout = scenario.harness.pipeline.folder.layout
    let flaky = DamagedReads(
      base: scenario.harness.pipeline.folder.store, key: layout.appLedgerKey,
      count: damagedReads)
    var pipeline = try UsagePipeline(
      folder: try SharedFolder(store: flaky, layout: layout),
      configuration: scenario.harness.pipeline.configuration)
    try scenario.useMore()
    let wake = try pipeline.wake(
      .notification, now: try scenario.harness.at("\(scenario.second) 09:30"))
    // Control: a file damaged at every read until it is moved is moved and reported.
    #expect(wake.recoveries.map(\.file) == (damagedReads == 1 ? [] : [.ledger]))
    #expect(try scenario.quarantined(.ledger).count == (damagedReads == 1 ? 0 : 1))
  }

  /// The ledger damaged, ten more minutes recorded, and two app processes on the folder: one
  /// through a hook on the ledger's file, and one opened as usual.
  struct DamagedLedger {
    let scenario: Scenario
    let hook: BeforeTheLock
    var cold: UsagePipeline
    let other: OtherAppProcess
    /// When both wake.
    let now: Date

    init() throws {
      scenario = try Scenario()
      let harness = scenario.harness
      try FolderDamage.flipHeader.apply(to: try scenario.url(of: .ledger))
      try scenario.useMore()
      hook = BeforeTheLock(afterOpening: harness.pipeline.folder.layout.appLedgerKey)
      cold = try UsagePipeline(
        folder: try hook.folder(at: harness.directory.url).folder,
        configuration: harness.pipeline.configuration)
      other = OtherAppProcess(
        try UsagePipeline(
          folder: try SharedFolder(directory: harness.directory.url),
          configuration: harness.pipeline.configuration))
      now = try harness.at("\(scenario.second) 09:30")
    }
  }

  @Test("a ledger another app process healed and paid from meanwhile is not rebuilt again")
  func ledgerHealedMeanwhileKeepsItsTransactions() throws {
    var race = try DamagedLedger()

    // When the cold process takes the lock to move the ledger it found damaged, another app
    // process has healed it and the app has granted 500 XP through it.
    let (other, now) = (race.other, race.now)
    let ran = LockedValue(false)
    race.hook.arm {
      do {
        let healed = try other.pipeline.wake(.notification, now: now)
        #expect(healed.recoveries.map(\.file) == [.ledger])
        let grant = LedgerTransaction(id: "grant", at: now, kind: .earn(xp: 500))
        _ = try other.pipeline.apply(grant)
        ran.withLock { $0 = true }
      } catch {
        Issue.record(error)
      }
    }
    let wake = try race.cold.wake(.notification, now: now)
    #expect(ran.withLock { $0 }, "the other process healed the ledger during the heal")
    #expect(wake.recoveries == [])
    #expect(try race.scenario.quarantined(.ledger).count == 1)
    // The ten minutes drained since the rebuild earn 100 XP; the grant is kept.
    #expect(try race.cold.ledger().balance.xp == 600)
  }

  @Test("another app process that takes the lock right after a ledger's rebuild finds it known")
  func ledgerRebuildIsRecordedInItsHold() throws {
    var race = try DamagedLedger()

    // At the first lock after the rebuild's hold, another app process wakes: the state names the
    // rebuilt ledger already, so it finds nothing gone back and moves nothing.
    let (other, now) = (race.other, race.now)
    let ran = LockedValue(false)
    race.hook.arm(skippingLocks: 1) {
      do {
        #expect(try other.pipeline.state().recoveries.map(\.file) == [.ledger], "rebuilt")
        #expect(try other.pipeline.wake(.notification, now: now).recoveries == [])
        ran.withLock { $0 = true }
      } catch {
        Issue.record(error)
      }
    }
    let wake = try race.cold.wake(.notification, now: now)
    #expect(ran.withLock { $0 }, "the other process woke after the rebuild")
    #expect(wake.recoveries.map(\.file) == [.ledger])
    #expect(try race.scenario.quarantined(.ledger).count == 1)
    // The ten minutes drained since the rebuild earn 100 XP.
    #expect(try race.cold.ledger().balance.xp == 100)
  }

  @Test("a reader that found a rebuilt ledger before its rebuild was recorded moves nothing")
  func ledgerRebuiltButNotRecordedYetIsNotMoved() throws {
    let scenario = try Scenario()
    let harness = scenario.harness
    let (key, configuration) = (
      harness.pipeline.folder.layout.appLedgerKey, harness.pipeline.configuration
    )
    try FolderDamage.flipHeader.apply(to: try scenario.url(of: .ledger))
    try scenario.useMore()
    let now = try harness.at("\(scenario.second) 09:30")

    // Process A heals the ledger. Once its rebuild is renamed into place, and before A records it
    // in the state, process B — a reader, which takes no lock — finds the rebuilt ledger behind
    // the state's old mark, twice, and asks for the lock to move it; then A goes on.
    let renaming = AfterRenaming(to: key)
    let store = try FileStore(
      directory: harness.directory.url, durability: .durable, fileSystem: renaming)
    var healer = try UsagePipeline(
      folder: try SharedFolder(
        store: store, heartbeatStore: store.withDurability(.processCrashSafe)),
      configuration: configuration)
    let hook = BeforeTheLock(afterOpening: key)
    let reader = OtherAppProcess(
      try UsagePipeline(
        folder: try hook.folder(at: harness.directory.url).folder, configuration: configuration))
    let (waiting, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let read = LockedValue<[PipelineRecovery.File]?>(nil)
    hook.arm { waiting.signal() }
    renaming.arm {
      Thread.detachNewThread {
        do {
          let wake = try reader.pipeline.wake(.notification, now: now)
          read.withLock { $0 = wake.recoveries.map(\.file) }
        } catch {
          Issue.record(error)
        }
        done.signal()
      }
      #expect(waiting.wait(timeout: .now() + 30) == .success, "B asks for the lock")
    }
    let wake = try healer.wake(.notification, now: now)
    #expect(done.wait(timeout: .now() + 30) == .success, "B woke")
    #expect(wake.recoveries.map(\.file) == [.ledger])
    #expect(read.withLock { $0 } == [], "B found the rebuild recorded, and moved nothing")
    #expect(try scenario.quarantined(.ledger).count == 1)
    #expect(try healer.ledger().balance.xp == 100)
  }

  @Test("a ledger another app process rebuilds during a transaction is not found gone back after")
  func ledgerRebuiltDuringATransactionKeepsItsMark() throws {
    let scenario = try Scenario()
    let (harness, ledger) = (scenario.harness, try scenario.url(of: .ledger))
    let hook = BeforeTheLock(afterOpening: try scenario.key(.ledger))
    var app = try UsagePipeline(
      folder: try hook.folder(at: harness.directory.url).folder,
      configuration: harness.pipeline.configuration)
    try scenario.useMore()
    try app.wake(.foreground, now: try harness.at("\(scenario.second) 09:20"))
    let other = harness.pipeline
    let now = try harness.at("\(scenario.second) 09:30")

    // Between this process's redemption and the record of the ledger's position after it,
    // another app process finds the ledger damaged and rebuilds it: a new log, with its mark.
    hook.arm(skippingLocks: 1) {
      do {
        var bytes = try Data(contentsOf: ledger)
        for offset in bytes.count / 2..<bytes.count / 2 + 4 { bytes[offset] ^= 0x5A }
        try bytes.write(to: ledger, options: .atomic)
        try other.redeemAll(id: "snack", at: now)
      } catch {
        Issue.record(error)
      }
    }
    #expect(try app.redeemAll(id: "popcorn", at: now).redeemedXP > 0)
    let rebuilt = try app.state().recoveries.filter { $0.file == .ledger }
    #expect(rebuilt.count == 1, "the other process's rebuild")

    // The next transaction finds the rebuilt ledger where its mark says: nothing to rebuild.
    try app.redeemAll(id: "tea", at: now + 60)
    #expect(try app.state().recoveries.filter { $0.file == .ledger } == rebuilt)
  }

  @Test("a recovery's JSON form round-trips and names its kinds")
  func recoveryCoding() throws {
    let recovery = try JSONDecoder().decode(
      PipelineRecovery.self,
      from: Data(
        """
        {"file": "facts", "key": "stk.pipeline.state.facts.2026-03-08", "damage": "d",
         "keptAt": "k", "at": "2026-03-09T08:00:00Z", "unrebuilt": [
           {"kind": "deliveries", "range": {"epoch": "5f1c0a3be29d4471", "first": 1, "last": 5}},
           {"kind": "acknowledgedAlerts"},
           {"kind": "facts", "from": "2026-03-08T00:00:00Z", "to": "2026-03-08T10:00:00Z"},
           {"kind": "intervalStarts", "before": "2026-03-01T00:00:00Z"},
           {"kind": "daySummaries", "before": "2026-02-01"},
           {"kind": "ledgerTransactions", "before": "2026-03-09T08:00:00Z"}]}
        """.utf8))
    #expect(recovery.unrebuilt.count == 6)
    let at = try instant("2026-03-09T08:00:00Z")
    #expect(recovery.at == at)
    let again = try JSONDecoder().decode(
      PipelineRecovery.self, from: try JSONEncoder().encode(recovery))
    #expect(again == recovery)
    // Control: an unknown kind is refused, not read as something else.
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PipelineRecovery.Loss.self, from: Data(#"{"kind": "x"}"#.utf8))
    }
  }
}

/// A store whose every operation on one key but quarantine fails with an I/O error: a transient
/// failure, as a full disk or protected data not yet available give.
private final class FailingStore: ForwardingStore {
  let base: any SharedStore
  let key: String
  let errno: Errno

  init(base: any SharedStore, key: String, errno: Errno) {
    self.base = base
    self.key = key
    self.errno = errno
  }

  private func check(_ key: String) throws(SharedStoreError) {
    if key == self.key { throw .io(operation: "open", path: key, errno: errno) }
  }

  func read(_ key: String) throws(SharedStoreError) -> Data? {
    try check(key)
    return try base.read(key)
  }

  func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    try check(key)
    return try base.changeToken(for: key)
  }

  func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    try check(key)
    return try base.update(key, body)
  }

  func appendToLog(
    _ key: String, capacity: Int, examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    try check(key)
    return try base.appendToLog(
      key, capacity: capacity, examiningNewest: examiningNewest, makeRecords)
  }

  func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    try check(key)
    return try base.readLog(key, newest: newest)
  }
}

/// The real file system, which runs an action once, just after a file is renamed to a name:
/// another process's work placed between a rebuild's rename and what follows it in the same
/// hold.
private final class AfterRenaming: ForwardingFileSystem, @unchecked Sendable {
  let base: any FileSystem = POSIXFileSystem()
  private let name: String
  private let action = LockedValue<(@Sendable () -> Void)?>(nil)

  init(to name: String) {
    self.name = "/" + name
  }

  /// Runs `action` after the next rename to the name, and then no more.
  func arm(_ action: @escaping @Sendable () -> Void) {
    self.action.withLock { $0 = action }
  }

  func rename(_ source: String, to destination: String) throws(SystemCallError) {
    try base.rename(source, to: destination)
    guard destination.hasSuffix(name) else { return }
    let run = action.withLock { action -> (@Sendable () -> Void)? in
      defer { action = nil }
      return action
    }
    run?()
  }
}

/// A store whose first `count` reads of one log report it corrupted, as a file another process
/// heals meanwhile reads — or, with `Int.max`, every read until the log is moved aside.
private final class DamagedReads: ForwardingStore, @unchecked Sendable {
  let base: any SharedStore
  let key: String
  private let lock = NSLock()
  private var left: Int

  init(base: any SharedStore, key: String, count: Int) {
    self.base = base
    self.key = key
    left = count
  }

  func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    if key == self.key {
      lock.lock()
      let damaged = left > 0
      if damaged { left -= 1 }
      lock.unlock()
      if damaged { throw .corrupted(key: key, path: key, reason: "planted") }
    }
    return try base.readLog(key, newest: newest)
  }

  /// Moves the file aside, and with it the damage its reads report.
  func quarantine(_ key: String) throws(SharedStoreError) -> String? {
    if key == self.key {
      lock.lock()
      left = 0
      lock.unlock()
    }
    return try base.quarantine(key)
  }
}
