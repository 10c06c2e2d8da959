import AppPipeline
import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import TestSupport
import Testing
import TrackerSignals
import UsageModel

@Suite("The reward ledger compacts at the retention")
struct LedgerCompactionPipelineTests {
  /// A store whose removal of the ledger's records always fails, as if every compaction were
  /// killed between appending its checkpoint and removing what it covers.
  final class NoRemovalStore: ForwardingStore, @unchecked Sendable {
    let base: any SharedStore = InMemoryStore()
    func compactLog(
      _ key: String, keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
    ) throws(SharedStoreError) -> Int {
      guard key == SharedFolderLayout.standard.appLedgerKey else {
        return try base.compactLog(key, keeping: isKept)
      }
      throw .io(operation: "compact", path: key, errno: .resourceTemporarilyUnavailable)
    }
  }

  /// An app with XP for every app's use, a monitor extension recording into the same
  /// folder in Berlin, and days of use of com.a.
  struct Household {
    let boundary: DayBoundary
    let configuration: PipelineConfiguration
    let store: any SharedStore
    let folder: SharedFolder
    let recorder: MonitorRecorder
    var pipeline: UsagePipeline

    init(store: any SharedStore = InMemoryStore()) throws {
      let zone = try TestSupport.zone("Europe/Berlin")
      boundary = DayBoundary(timeZone: zone)
      var configuration = PipelineConfiguration(userId: "user-1", timeZone: zone)
      configuration.rewards = try UsageRewards(xpPerMinute: [.other: 3])
      self.configuration = configuration
      self.store = store
      var layout = SharedFolderLayout.standard(outboxCapacity: 64)
      layout.outboxKey = "facts"
      folder = try SharedFolder(store: store, layout: layout)
      recorder = MonitorRecorder(folder: folder, timeZone: { zone })
      pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    }

    /// The start of the day `offset` days after 2026-03-01.
    func start(_ offset: Int) throws -> Date {
      boundary.start(of: try LocalDay(parsing: "2026-03-01").advanced(by: offset))
    }

    /// An interval from `start`, `minutes` of use of com.a in 5-minute steps from 08:00, and a
    /// wake at noon.
    mutating func use(from start: Date, minutes: Int) throws {
      _ = recorder.intervalDidStart(for: "daily", now: start)
      for step in stride(from: 5, through: minutes, by: 5) {
        _ = recorder.eventDidReachThreshold(
          "stk:\(step)m:com.a", activity: "daily",
          now: start.addingTimeInterval(Double(8 * 3_600 + step * 60)))
      }
      try pipeline.wake(.notification, now: start.addingTimeInterval(12 * 3_600))
    }
  }

  @Test(
    "months of earnings and redemptions: the log stays small and the balance is the whole fold's, also when the records covered are never removed",
    arguments: [false, true])
  func ledgerStaysSmallAndExact(removalFails: Bool) throws {
    var household = try Household(store: removalFails ? NoRemovalStore() : InMemoryStore())
    // The reference: every transaction the pipeline ever showed, applied to a ledger that is
    // never compacted.
    var whole = RewardLedger(rate: .tenXPPerMinute)
    var seen: Set<String> = []
    var longest = 0
    for offset in 0..<150 {
      let start = try household.start(offset)
      try household.use(from: start, minutes: 20)
      if offset % 10 == 9 {
        try household.pipeline.redeemAll(
          id: "swap-\(offset)", at: start.addingTimeInterval(12 * 3_600 + 60))
      }
      let ledger = try household.pipeline.ledger()
      for transaction in ledger.transactions where seen.insert(transaction.id).inserted {
        try whole.apply(transaction)
      }
      #expect(ledger.balance == whole.balance, "day \(offset)")
      let log = try #require(
        try household.store.readLog(household.folder.layout.appLedgerKey, newest: nil))
      longest = max(longest, log.count)
    }
    let ledger = try household.pipeline.ledger()
    let opening = try #require(ledger.opening, "150 days of a 40-day retention compact the ledger")
    #expect(whole.transactions.count > ledger.transactions.count)
    // Nothing created or lost: 20 minutes a day at 3 XP a minute, as XP or as time bought at
    // 10 XP a minute.
    let bought = Int(ledger.balance.available.components.seconds / 60)
    #expect(ledger.balance.xp + 10 * bought == 150 * 20 * 3)
    #expect(ledger.transactions.allSatisfy { $0.at >= opening.through })
    // At most the retention, the cut's 8 days and the 30 between compactions of transactions
    // (and a checkpoint): never the whole history, unless nothing covered is ever removed.
    #expect((longest < whole.transactions.count) != removalFails)
    // Another process folds the compacted log to the same ledger.
    var reopened = try UsagePipeline(
      folder: household.folder, configuration: household.configuration)
    #expect(try reopened.ledger() == ledger)
    // A wake with nothing new credits nothing again.
    let last = try household.start(149).addingTimeInterval(13 * 3_600)
    try reopened.wake(.poll, now: last)
    #expect(try reopened.ledger().balance == whole.balance)
  }

  @Test("a transaction the app dates before the ledger's opening is refused and changes nothing")
  func appTransactionBeforeOpeningIsRefused() throws {
    var household = try Household()
    let early = try household.start(0).addingTimeInterval(3_600)
    try household.pipeline.apply(LedgerTransaction(id: "task-1", at: early, kind: .earn(xp: 50)))
    // Three months later a wake that drains lets the task go: it is older than the retention
    // (40 days), the cut's 8 days and the 30 days a ledger waits between compactions.
    let later = try household.start(90)
    try household.pipeline.apply(
      LedgerTransaction(id: "task-2", at: later, kind: .earn(xp: 5)))
    _ = household.recorder.intervalDidStart(for: "daily", now: later)
    try household.pipeline.wake(.notification, now: later.addingTimeInterval(60))
    let ledger = try household.pipeline.ledger()
    #expect(ledger.opening != nil)
    #expect(ledger.balance.xp == 55)
    #expect(throws: PipelineError.self) {
      try household.pipeline.apply(
        LedgerTransaction(id: "task-1", at: early, kind: .earn(xp: 50)))
    }
    #expect(try household.pipeline.ledger().balance.xp == 55)
  }

  @Test("a transaction missing after the newest checkpoint is damage: rebuilt at zero and reported")
  func evictedTransactionIsDamage() throws {
    let household = try Household()
    let (store, folder, configuration) = (
      household.store, household.folder, household.configuration
    )
    let noon = try household.start(0).addingTimeInterval(12 * 3_600)
    for (index, xp) in [50, 20, 5].enumerated() {
      try household.pipeline.apply(
        LedgerTransaction(id: "task-\(index)", at: noon, kind: .earn(xp: xp)))
    }
    // The control: the whole log folds.
    #expect(try household.pipeline.ledger().balance.xp == 75)
    // The middle transaction goes, as an eviction at the log's capacity would take one; another
    // process, which has not folded the log yet, reads it.
    try store.compactLog(folder.layout.appLedgerKey) { $0.position != 2 }
    var other = try UsagePipeline(folder: folder, configuration: configuration)
    #expect(throws: PipelineError.self) { try other.ledger() }
    // A wake rebuilds the ledger at zero, rather than at 55 XP, and says so.
    _ = household.recorder.intervalDidStart(for: "daily", now: noon)
    let drain = try other.wake(.notification, now: noon.addingTimeInterval(60))
    #expect(drain.recoveries.contains { $0.file == .ledger })
    #expect(try other.ledger().balance == .zero)
  }

  @Test(
    "a clock set a year ahead for two months stops neither the wakes nor the app's transactions after it"
  )
  func clockAheadForTwoMonths() throws {
    var household = try Household()
    let today = try household.start(1)
    try household.use(from: today, minutes: 20)
    #expect(try household.pipeline.ledger().balance.xp == 60)
    // A year ahead, for two months: a day of use, then a wake that lets go of every earning so
    // far, the newest dated a year ahead.
    let ahead = today.addingTimeInterval(365 * 86_400)
    try household.use(from: ahead, minutes: 10)
    _ = household.recorder.intervalDidEnd(for: "daily", now: ahead.addingTimeInterval(80 * 86_400))
    try household.pipeline.wake(.notification, now: ahead.addingTimeInterval(80 * 86_400))
    // What the clock dated a year ahead stays: the opening is just after today's earning.
    let opening = try #require(try household.pipeline.ledger().opening)
    #expect(opening.through < today.addingTimeInterval(86_400))
    #expect(try household.pipeline.ledger().balance.xp == 90)
    // Back to the real time, in the afternoon: the next use is credited, the wakes go on, and
    // the app's own transactions, dated by the real clock, are accepted.
    try household.use(from: today.addingTimeInterval(13 * 3_600), minutes: 5)
    #expect(try household.pipeline.ledger().balance.xp == 105)
    let swap = try household.pipeline.redeemAll(
      id: "swap", at: today.addingTimeInterval(14 * 3_600))
    #expect(swap.outcome == .redeemed)
    #expect(try household.pipeline.ledger().balance.available == .seconds(10 * 60))
  }

  @Test(
    "a stored checkpoint that covers past the log's end or credits below zero is damage, not a trap",
    arguments: [
      #"{"checkpoint":{"covers":18446744073709551615,"earned":{},"opening":{"balance":{"availableMs":0,"reservedMs":0,"xp":5},"through":"2026-03-01T00:00:00Z"},"rate":{"timeMs":60000,"xp":10}}}"#,
      #"{"checkpoint":{"covers":5,"earned":{},"opening":{"balance":{"availableMs":0,"reservedMs":0,"xp":5},"through":"2026-03-01T00:00:00Z"},"rate":{"timeMs":60000,"xp":10}}}"#,
      #"{"checkpoint":{"covers":2,"earned":{},"opening":{"balance":{"availableMs":0,"reservedMs":0,"xp":5},"through":"2026-03-01T00:00:00Z"},"rate":{"timeMs":60000,"xp":10}}}"#,
      #"{"checkpoint":{"covers":1,"earned":{"0|com.a":-9223372036854775808},"opening":{"balance":{"availableMs":0,"reservedMs":0,"xp":5},"through":"2026-03-01T00:00:00Z"},"rate":{"timeMs":60000,"xp":10}}}"#,
      #"{"checkpoint":{"covers":1,"earned":{"0|com.a":12},"opening":{"balance":{"availableMs":0,"reservedMs":0,"xp":5},"through":"2026-03-01T00:00:00Z"},"rate":{"timeMs":60000,"xp":10}}}"#,
    ])
  func hostileCheckpointIsDamage(_ checkpoint: String) throws {
    let household = try Household()
    let (store, folder, configuration) = (
      household.store, household.folder, household.configuration
    )
    let transaction =
      #"{"at":"2026-02-01T00:00:00Z","id":"task-1","type":"earn","xp":5}"#
    try store.appendToLog(folder.layout.appLedgerKey, capacity: 100, examiningNewest: 0) { _ in
      [Data(transaction.utf8), Data(checkpoint.utf8)]
    }
    let pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    if checkpoint.contains(":12}") {
      // The control: a checkpoint that covers the transaction before it, crediting 12 XP.
      #expect(try pipeline.ledger().balance.xp == 5)
    } else {
      #expect(throws: PipelineError.self) { try pipeline.ledger() }
    }
  }

  @Test(
    "use reported before the ledger's opening, with its interval's credit forgotten, is not paid and stops no wake"
  )
  func useBeforeOpeningIsNotPaid() throws {
    var household = try Household()
    for offset in 0..<100 { try household.use(from: household.start(offset), minutes: 20) }
    let opening = try #require(try household.pipeline.ledger().opening)
    let balance = try household.pipeline.ledger().balance
    #expect(balance.xp == 100 * 20 * 3)
    // The clock set back 130 days, before the opening and before every credit it still knows:
    // the use is not paid (it may have been, among what was let go), and the wake works.
    try household.use(from: household.start(-30), minutes: 10)
    #expect(try household.pipeline.ledger().opening == opening)
    #expect(try household.pipeline.ledger().balance == balance)
  }

  /// The real file system, which runs an action once, just before the store takes its lock
  /// while the reward ledger's newest record is a checkpoint: another app process's work placed
  /// after a compaction's checkpoint, before whatever the store locks next.
  final class AfterTheCheckpoint: ForwardingFileSystem, @unchecked Sendable {
    let base: any FileSystem = POSIXFileSystem()
    let directory: URL
    let key: String
    private let action = LockedValue<(@Sendable () -> Void)?>(nil)

    init(directory: URL, key: String) {
      self.directory = directory
      self.key = key
    }

    func arm(_ run: @escaping @Sendable () -> Void) {
      action.withLock { $0 = run }
    }

    func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
      if action.withLock({ $0 != nil }) {
        // Read as another process reads it: through a store on the real file system.
        let newest = try? FileStore(directory: directory).readLog(key, newest: 1)?.records.last
        if let newest, String(decoding: newest.bytes, as: UTF8.self).contains("\"covers\"") {
          action.withLock { run in
            let once = run
            run = nil
            return once
          }?()
        }
      }
      try base.lockExclusively(descriptor)
    }
  }

  @Test(
    "a ledger another app process replaces just after a compaction's checkpoint keeps its first records"
  )
  func ledgerReplacedAfterTheCheckpointKeepsItsRecords() throws {
    let directory = try TemporaryDirectory(prefix: "stk-ledger-checkpoint")
    let key = SharedFolderLayout.standard.appLedgerKey
    let hook = AfterTheCheckpoint(directory: directory.url, key: key)
    var household = try Household(
      store: try FileStore(directory: directory.url, durability: .durable, fileSystem: hook))
    let early = try household.start(0).addingTimeInterval(3_600)
    try household.pipeline.apply(LedgerTransaction(id: "task-1", at: early, kind: .earn(xp: 50)))
    let later = try household.start(90)
    try household.pipeline.apply(LedgerTransaction(id: "task-2", at: later, kind: .earn(xp: 5)))

    // Once the compaction has appended its checkpoint (covering task-1), another process
    // rebuilds the ledger with the transactions it finds, from its position 1: both, or task-2
    // alone once the compaction has removed task-1.
    let rebuilt = LockedValue<[Data]>([])
    hook.arm {
      do {
        let other = try FileStore(directory: directory.url)
        let records = try #require(try other.readLog(key, newest: nil)).records
        let transactions = records.map(\.bytes).filter {
          !String(decoding: $0, as: UTF8.self).contains("\"covers\"")
        }
        _ = try other.quarantine(key)
        try other.append(transactions, toLog: key, capacity: 100_000)
        rebuilt.withLock { $0 = transactions }
      } catch {
        Issue.record(error)
      }
    }
    _ = household.recorder.intervalDidStart(for: "daily", now: later)
    try household.pipeline.wake(.notification, now: later.addingTimeInterval(60))
    // The store's next lock, if the wake took none after the checkpoint.
    try household.store.append([Data("{}".utf8)], toLog: "test.poke", capacity: 1)

    let transactions = rebuilt.withLock { $0 }
    #expect(!transactions.isEmpty, "the wake compacted the ledger, and the other rebuilt it")
    let log = try #require(try FileStore(directory: directory.url).readLog(key, newest: nil))
    #expect(Array(log.records.prefix(transactions.count).map(\.bytes)) == transactions)
    #expect(log.records.first?.position == 1)
  }
}
