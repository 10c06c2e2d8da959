import AppPipeline
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The app heals a damaged day log in one hold of the folder's lock, taking the outbox's
/// undrained facts of the day too: a fact another app process (the app and its widget) appends
/// to the log while it heals — it does not see the damage, since an append reads only the newest
/// frame — is in the rebuilt log, never moved aside unread.
@Suite("The app heals its files in one hold of the folder's lock")
struct StateRecoveryHoldTests {
  static let day = "2026-04-16"

  /// A day of use drained in two wakes, so that the day's log holds two frames, then the first
  /// frame damaged: a full read of the log fails, an append (which reads the newest) does not.
  struct Fixture {
    let harness: PipelineHarness
    /// The app process that drained the day: its journal has the day's facts cached, so it does
    /// not read the damage either.
    var warm: UsagePipeline
    let key: String
    /// The threshold the extension delivers during the heal: the 25th minute, at 08:50.
    let late: String

    /// Drains through `hook`'s file system when given, else through the harness's pipeline.
    init(drainingThrough hook: BeforeTheLock? = nil) throws {
      let harness = try PipelineHarness()
      let configuration = harness.pipeline.configuration
      var warm =
        try hook.map {
          try UsagePipeline(
            folder: try $0.folder(at: harness.directory.url).folder, configuration: configuration)
        } ?? harness.pipeline
      let day = StateRecoveryHoldTests.day
      let at = { (time: String) throws -> Date in try harness.at("\(day) \(time)") }
      _ = harness.recorder.intervalDidStart(for: "daily", now: try at("00:00"))
      try harness.use("com.example", day: day, from: "08:00", minutes: 10, step: 5)
      try warm.wake(.foreground, now: try at("08:30"))
      try harness.use(
        "com.example", day: day, from: "08:30", minutes: 10, step: 5, alreadyUsed: 10)
      try warm.wake(.foreground, now: try at("08:45"))
      // The first frame holds the day's start; the second, the 15th and 20th minutes.
      let url = harness.directory.url.appendingPathComponent(StateRecoveryHoldTests.key)
      var bytes = try Data(contentsOf: url)
      for offset in try #require(bytes.range(of: Data("intervalDidStart".utf8))) {
        bytes[offset] ^= 0x5A
      }
      try bytes.write(to: url, options: .atomic)
      self.harness = harness
      self.warm = warm
      key = StateRecoveryHoldTests.key
      late = try ThresholdEventName(app: try AppID("com.example"), threshold: .seconds(25 * 60))
        .rawValue
    }

    func at(_ time: String) throws -> Date {
      try harness.at("\(StateRecoveryHoldTests.day) \(time)")
    }

    /// A pipeline on the folder opened afresh, as another app process opens it — through
    /// `hook`'s file system when given.
    func coldPipeline(through hook: BeforeTheLock? = nil) throws -> UsagePipeline {
      let folder: SharedFolder
      if let hook {
        folder = try hook.folder(at: harness.directory.url).folder
      } else {
        folder = try SharedFolder(directory: harness.directory.url)
      }
      return try UsagePipeline(folder: folder, configuration: harness.pipeline.configuration)
    }

    /// The day's usage, as an app process opened now derives it.
    func usage() throws -> Duration {
      try coldPipeline().dashboard(
        for: try LocalDay(parsing: StateRecoveryHoldTests.day), now: try at("09:30")
      )
      .usage.total
    }

    /// Runs, when `hook` next fires, another app process's dashboard of the damaged day, which
    /// heals its log (a dashboard does not check the state); returns whether it ran.
    func healInAnotherProcess(at hook: BeforeTheLock) throws -> LockedValue<Bool> {
      let other = OtherAppProcess(try coldPipeline())
      let (day, now) = (try LocalDay(parsing: StateRecoveryHoldTests.day), try at("09:00"))
      let ran = LockedValue(false)
      hook.arm {
        do {
          let healed = try other.pipeline.dashboard(for: day, now: now)
          #expect(healed.facts.recoveries.map(\.file) == [.facts])
          ran.withLock { $0 = true }
        } catch {
          Issue.record(error)
        }
      }
      return ran
    }

    /// The state's key, and the key to read its consumer's record through.
    static let state = (
      name: SharedFolderLayout.standard.appStateKey,
      key: StoreKey(
        SharedFolderLayout.standard.appStateKey, default: emptyState,
        storage: OutboxConsumer<MonitorFact, PipelineState>.recordStorage)
    )
    /// A state with nothing applied: what a state replaced by an empty one holds.
    static let emptyState = OutboxConsumerRecord(cursor: .start, state: PipelineState())

    /// Moves the state aside, as a removal does, and then, when `empty`, stores a state with
    /// nothing applied (an old backup restored, say); returns the record moved aside and where.
    func removeState(leavingAnEmptyOne empty: Bool) throws -> (
      OutboxConsumerRecord<PipelineState>, String
    ) {
      let store = try FileStore(directory: harness.directory.url)
      let record = try store.value(for: Self.state.key)
      let movedTo = try #require(try store.quarantine(Self.state.name))
      if empty { try store.set(Self.emptyState, for: Self.state.key) }
      return (record, movedTo)
    }

    /// Whether the day's log, as it is on disk now, ends with the late threshold.
    func logEndsWithTheLateFact() throws -> Bool {
      let store = try FileStore(directory: harness.directory.url)
      let newest = try store.readLog(key, newest: 1)?.records.last?.bytes ?? Data()
      return String(decoding: newest, as: UTF8.self).contains(late)
    }
  }

  /// The day's log: the facts of 08:00 in New York are in the log of that UTC day.
  static let key = SharedFolderLayout.standard.appFactsKeyPrefix + day

  @Test("a fact another app process drains between this one's failed read and its heal is kept")
  func factDrainedBeforeTheHoldIsKept() throws {
    let fixture = try Fixture()
    let hook = BeforeTheLock(afterOpening: Self.key)
    let cold = try fixture.coldPipeline(through: hook)

    // When the cold process takes the lock after its read of the day failed, the extension
    // delivers the 25th minute and the warm process drains it into the damaged log.
    let (recorder, warm) = (fixture.harness.recorder, OtherAppProcess(fixture.warm))
    let (late, lateAt, drainAt) = (fixture.late, try fixture.at("08:50"), try fixture.at("08:55"))
    let ran = LockedValue(false)
    hook.arm {
      do {
        #expect(recorder.eventDidReachThreshold(late, activity: "daily", now: lateAt).succeeded)
        #expect(try warm.pipeline.wake(.foreground, now: drainAt).applied == 1)
        #expect(try fixture.logEndsWithTheLateFact(), "appended to the damaged log")
        ran.withLock { $0 = true }
      } catch {
        Issue.record(error)
      }
    }
    let dashboard = try cold.dashboard(
      for: try LocalDay(parsing: Self.day), now: try fixture.at("09:00"))
    #expect(ran.withLock { $0 }, "the other process drained during the heal")
    #expect(dashboard.facts.recoveries.map(\.file) == [.facts])
    #expect(dashboard.usage.total == .seconds(25 * 60))
    #expect(try fixture.usage() == .seconds(25 * 60))
  }

  @Test("a file another app process healed since this one found it damaged is not moved again")
  func fileHealedMeanwhileIsNotMovedAgain() throws {
    let fixture = try Fixture()
    let hook = BeforeTheLock(afterOpening: Self.key)
    let cold = try fixture.coldPipeline(through: hook)

    // When the cold process takes the lock to move the log it found damaged, another app process
    // has just healed it.
    let ran = try fixture.healInAnotherProcess(at: hook)
    let dashboard = try cold.dashboard(
      for: try LocalDay(parsing: Self.day), now: try fixture.at("09:00"))
    #expect(ran.withLock { $0 }, "the other process healed the log during the heal")
    // One recovery, the other's, and one file moved aside: the rebuild stays where it is.
    #expect(dashboard.facts.recoveries.map(\.file) == [.facts])
    let moved = try fixture.harness.directory.contents().filter {
      $0.hasPrefix(".quarantined.\(Self.key).")
    }
    #expect(moved.count == 1)
    #expect(dashboard.usage.total == .seconds(20 * 60))
    #expect(try fixture.usage() == .seconds(20 * 60))
  }

  @Test("a fact another app process appended but has not committed when this one heals is kept")
  func factAppendedButNotCommittedIsKept() throws {
    let hook = BeforeTheLock(afterOpening: Self.key)
    var fixture = try Fixture(drainingThrough: hook)
    #expect(
      fixture.harness.recorder.eventDidReachThreshold(
        fixture.late, activity: "daily", now: try fixture.at("08:50")
      ).succeeded)

    // The warm process drains the 25th minute: it appends it to the damaged log (the first lock
    // after it opens the log) and, just before it commits (the second), the cold process heals
    // the day's log in a dashboard, which does not drain.
    let cold = OtherAppProcess(try fixture.coldPipeline())
    let (day, now) = (try LocalDay(parsing: Self.day), try fixture.at("08:56"))
    let committed = try fixture.at("08:40")
    let ran = LockedValue(false)
    hook.arm(skippingLocks: 1) { [fixture] in
      do {
        #expect(try fixture.logEndsWithTheLateFact(), "appended")
        #expect(try cold.pipeline.state().lastApplied?.at == committed, "not committed yet")
        let dashboard = try cold.pipeline.dashboard(for: day, now: now)
        #expect(dashboard.facts.recoveries.map(\.file) == [.facts])
        ran.withLock { $0 = true }
      } catch {
        Issue.record(error)
      }
    }
    #expect(try fixture.warm.wake(.foreground, now: try fixture.at("08:55")).applied == 1)
    #expect(ran.withLock { $0 }, "the other process healed during the drain")
    #expect(try fixture.usage() == .seconds(25 * 60))
  }

  @Test(
    "a recovery another app process records in a removed state before it is moved is kept",
    arguments: [true, false])
  func recoveryRecordedInARemovedStateIsKept(replacedByAnEmptyOne: Bool) throws {
    let fixture = try Fixture()
    // The state removed, or replaced by an empty one, beside the day logs: the other process's
    // record makes a new log of it, or a version of the same.
    let (_, replaced) = try fixture.removeState(leavingAnEmptyOne: replacedByAnEmptyOne)
    let hook = BeforeTheLock(afterOpening: Fixture.state.name)
    var cold = try fixture.coldPipeline(through: hook)

    // When the cold process takes the lock to move the state it found removed, another app
    // process has healed the damaged day log and recorded that recovery in the removed state.
    let ran = try fixture.healInAnotherProcess(at: hook)
    let drain = try cold.wake(.foreground, now: try fixture.at("09:00"))
    #expect(ran.withLock { $0 }, "the other process healed the day log during the heal")
    #expect(drain.recoveries.map(\.file) == [.state], "still removed: moved and rebuilt")
    // The control: the state moved aside lists the other's recovery, so a rebuild that kept
    // nothing of it would have lost it.
    let aside = try #require(
      try Self.statesMovedAside(fixture).first { !replaced.hasSuffix("/" + $0) })
    let copy = try TemporaryDirectory(prefix: "stk-state-aside")
    try FileManager.default.copyItem(
      at: fixture.harness.directory.url.appendingPathComponent(aside),
      to: copy.url.appendingPathComponent(Fixture.state.name))
    let old = try FileStore(directory: copy.url).value(for: Fixture.state.key)
    #expect(old.state.recoveries.map(\.file) == [.facts])
    #expect(try cold.state().recoveries.map(\.file) == [.facts, .state])
    #expect(try fixture.usage() == .seconds(20 * 60))
  }

  @Test("a removed state another app process committed a drain to before it is moved stays")
  func stateDrainedMeanwhileIsNotMoved() throws {
    let fixture = try Fixture()
    let (drained, _) = try fixture.removeState(leavingAnEmptyOne: true)
    let store = try FileStore(directory: fixture.harness.directory.url)
    let hook = BeforeTheLock(afterOpening: Fixture.state.name)
    var cold = try fixture.coldPipeline(through: hook)

    // When the cold process takes the lock to move the state it found removed, another process
    // has committed a drain to it: the same log, no longer removed.
    let ran = LockedValue(false)
    hook.arm {
      do {
        try store.set(drained, for: Fixture.state.key)
        ran.withLock { $0 = true }
      } catch {
        Issue.record(error)
      }
    }
    let drain = try cold.wake(.foreground, now: try fixture.at("09:00"))
    #expect(ran.withLock { $0 }, "the other process committed during the heal")
    #expect(!drain.recoveries.contains { $0.file == .state }, "the state is not reported")
    #expect(try Self.statesMovedAside(fixture).count == 1, "only the state the test replaced")
    #expect(try cold.state().lastApplied == drained.state.lastApplied)
  }

  /// The names of the state's files moved aside, `.quarantined.<state key>.<n>`.
  static func statesMovedAside(_ fixture: Fixture) throws -> [String] {
    let prefix = ".quarantined.\(Fixture.state.name)."
    return try fixture.harness.directory.contents().filter {
      $0.hasPrefix(prefix) && Int($0.dropFirst(prefix.count)) != nil
    }
  }
}
