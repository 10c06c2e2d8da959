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

  @Test(
    "months of earnings and redemptions: the log stays small and the balance is the whole fold's, also when the records covered are never removed",
    arguments: [false, true])
  func ledgerStaysSmallAndExact(removalFails: Bool) throws {
    let zone = try TestSupport.zone("Europe/Berlin")
    let boundary = DayBoundary(timeZone: zone)
    var configuration = PipelineConfiguration(userId: "user-1", timeZone: zone)
    configuration.rewards = try UsageRewards(xpPerMinute: [.other: 3])
    let store: any SharedStore = removalFails ? NoRemovalStore() : InMemoryStore()
    var layout = SharedFolderLayout.standard(outboxCapacity: 64)
    layout.outboxKey = "facts"
    let folder = try SharedFolder(store: store, layout: layout)
    let recorder = MonitorRecorder(folder: folder, timeZone: { zone })
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    // The reference: every transaction the pipeline ever showed, applied to a ledger that is
    // never compacted.
    var whole = RewardLedger(rate: .tenXPPerMinute)
    var seen: Set<String> = []
    let first = try LocalDay(parsing: "2026-03-01")
    var longest = 0
    for offset in 0..<150 {
      let start = boundary.start(of: first.advanced(by: offset))
      _ = recorder.intervalDidStart(for: "daily", now: start)
      for minute in stride(from: 5, through: 20, by: 5) {
        _ = recorder.eventDidReachThreshold(
          "stk:\(minute)m:com.a", activity: "daily",
          now: start.addingTimeInterval(Double(8 * 3_600 + minute * 60)))
      }
      let noon = start.addingTimeInterval(12 * 3_600)
      try pipeline.wake(.notification, now: noon)
      if offset % 10 == 9 {
        try pipeline.redeemAll(id: "swap-\(offset)", at: noon.addingTimeInterval(60))
      }
      let ledger = try pipeline.ledger()
      for transaction in ledger.transactions where seen.insert(transaction.id).inserted {
        try whole.apply(transaction)
      }
      #expect(ledger.balance == whole.balance, "day \(offset)")
      let log = try #require(try store.readLog(layout.appLedgerKey, newest: nil))
      longest = max(longest, log.count)
    }
    let ledger = try pipeline.ledger()
    let opening = try #require(ledger.opening, "150 days of a 40-day retention compact the ledger")
    #expect(whole.transactions.count > ledger.transactions.count)
    #expect(ledger.transactions.allSatisfy { $0.at >= opening.through })
    // At most the retention, the cut's 8 days and the 30 between compactions of transactions
    // (and a checkpoint): never the whole history, unless nothing covered is ever removed.
    #expect((longest < whole.transactions.count) != removalFails)
    // Another process folds the compacted log to the same ledger.
    var reopened = try UsagePipeline(folder: folder, configuration: configuration)
    #expect(try reopened.ledger() == ledger)
    // A wake with nothing new credits nothing again.
    let last = boundary.start(of: first.advanced(by: 149)).addingTimeInterval(13 * 3_600)
    try reopened.wake(.poll, now: last)
    #expect(try reopened.ledger().balance == whole.balance)
  }

  @Test("a transaction the app dates before the ledger's opening is refused and changes nothing")
  func appTransactionBeforeOpeningIsRefused() throws {
    let zone = try TestSupport.zone("Europe/Berlin")
    let boundary = DayBoundary(timeZone: zone)
    var configuration = PipelineConfiguration(userId: "user-1", timeZone: zone)
    configuration.rewards = try UsageRewards(xpPerMinute: [.other: 3])
    let folder = try SharedFolder(store: InMemoryStore())
    let recorder = MonitorRecorder(folder: folder, timeZone: { zone })
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    let first = try LocalDay(parsing: "2026-03-01")
    let early = boundary.start(of: first).addingTimeInterval(3_600)
    try pipeline.apply(LedgerTransaction(id: "task-1", at: early, kind: .earn(xp: 50)))
    // Three months later a wake that drains lets the task go: it is older than the retention
    // (40 days), the cut's 8 days and the 30 days a ledger waits between compactions.
    let later = boundary.start(of: first.advanced(by: 90))
    try pipeline.apply(LedgerTransaction(id: "task-2", at: later, kind: .earn(xp: 5)))
    _ = recorder.intervalDidStart(for: "daily", now: later)
    try pipeline.wake(.notification, now: later.addingTimeInterval(60))
    let ledger = try pipeline.ledger()
    #expect(ledger.opening != nil)
    #expect(ledger.balance.xp == 55)
    #expect(throws: PipelineError.self) {
      try pipeline.apply(LedgerTransaction(id: "task-1", at: early, kind: .earn(xp: 50)))
    }
    #expect(try pipeline.ledger().balance.xp == 55)
  }

  @Test("a transaction missing after the newest checkpoint is damage: rebuilt at zero and reported")
  func evictedTransactionIsDamage() throws {
    let zone = try TestSupport.zone("Europe/Berlin")
    var configuration = PipelineConfiguration(userId: "user-1", timeZone: zone)
    configuration.rewards = try UsageRewards(xpPerMinute: [.other: 3])
    let store = InMemoryStore()
    let folder = try SharedFolder(store: store)
    let recorder = MonitorRecorder(folder: folder, timeZone: { zone })
    let pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    let noon = DayBoundary(timeZone: zone).start(of: try LocalDay(parsing: "2026-03-01"))
      .addingTimeInterval(12 * 3_600)
    for (index, xp) in [50, 20, 5].enumerated() {
      try pipeline.apply(
        LedgerTransaction(id: "task-\(index)", at: noon, kind: .earn(xp: xp)))
    }
    // The control: the whole log folds.
    #expect(try pipeline.ledger().balance.xp == 75)
    // The middle transaction goes, as an eviction at the log's capacity would take one; another
    // process, which has not folded the log yet, reads it.
    try store.compactLog(folder.layout.appLedgerKey) { $0.position != 2 }
    var other = try UsagePipeline(folder: folder, configuration: configuration)
    #expect(throws: PipelineError.self) { try other.ledger() }
    // A wake rebuilds the ledger at zero, rather than at 55 XP, and says so.
    _ = recorder.intervalDidStart(for: "daily", now: noon)
    let drain = try other.wake(.notification, now: noon.addingTimeInterval(60))
    #expect(drain.recoveries.contains { $0.file == .ledger })
    #expect(try other.ledger().balance == .zero)
  }
}
