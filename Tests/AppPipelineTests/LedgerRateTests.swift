import AppPipeline
import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import TestSupport
import Testing
import TrackerSignals

@Suite("The reward ledger keeps its exchange rate in its log")
struct LedgerRateTests {
  typealias Household = LedgerCompactionPipelineTests.Household

  /// 10 XP buy 2 minutes: cheaper than the configuration's 10 XP a minute.
  static func cheaper() throws -> ExchangeRate {
    try ExchangeRate(experiencePoints: 10, time: .seconds(120))
  }
  /// 20 XP buy 1 minute: dearer than the configuration's 10 XP a minute.
  static func dearer() throws -> ExchangeRate {
    try ExchangeRate(experiencePoints: 20, time: .seconds(60))
  }

  /// Another app process, opened on the same folder with `rate` configured.
  static func reopen(_ household: Household, at rate: ExchangeRate) throws -> UsagePipeline {
    var configuration = household.configuration
    configuration.exchangeRate = rate
    return try UsagePipeline(folder: household.folder, configuration: configuration)
  }

  /// The ledger's records, as text.
  static func records(_ household: Household) throws -> [String] {
    let log = try household.store.readLog(household.folder.layout.appLedgerKey, newest: nil)
    return (log?.records ?? []).map { String(decoding: $0.bytes, as: UTF8.self) }
  }

  @Test("a redemption keeps the minutes it bought when the configured rate changes")
  func redemptionKeepsItsMinutes() throws {
    let household = try Household()
    let noon = try household.start(0).addingTimeInterval(12 * 3_600)
    try household.pipeline.apply(LedgerTransaction(id: "task-1", at: noon, kind: .earn(xp: 100)))
    let swap = try household.pipeline.redeemAll(id: "swap-1", at: noon.addingTimeInterval(60))
    #expect(swap.timeBought == .seconds(10 * 60))

    // The app ships 10 XP = 2 minutes: the ten minutes bought stay ten, not twenty.
    let reopened = try Self.reopen(household, at: Self.cheaper())
    #expect(try reopened.ledger().rate == .tenXPPerMinute)
    #expect(try reopened.ledger().balance.available == .seconds(10 * 60))
    // And the ledger goes on at its own rate.
    try reopened.apply(
      LedgerTransaction(id: "task-2", at: noon.addingTimeInterval(120), kind: .earn(xp: 100)))
    let later = try reopened.redeemAll(id: "swap-2", at: noon.addingTimeInterval(180))
    #expect(later.timeBought == .seconds(10 * 60))
    #expect(try reopened.ledger().balance.available == .seconds(20 * 60))
  }

  @Test("a dearer configured rate neither fails the fold nor rebuilds the ledger")
  func dearerRateKeepsTheLedger() throws {
    let household = try Household()
    let noon = try household.start(0).addingTimeInterval(12 * 3_600)
    try household.pipeline.apply(LedgerTransaction(id: "task-1", at: noon, kind: .earn(xp: 100)))
    try household.pipeline.redeemAll(id: "swap-1", at: noon.addingTimeInterval(60))
    // The ten minutes bought, all reserved: at 20 XP a minute they would be five, too few.
    try household.pipeline.apply(
      LedgerTransaction(
        id: "play-1", at: noon.addingTimeInterval(120),
        kind: .startSpending(session: "play", reserve: .seconds(10 * 60))))
    let balance = try household.pipeline.ledger().balance

    var reopened = try Self.reopen(household, at: Self.dearer())
    #expect(try reopened.ledger().balance == balance)
    _ = household.recorder.intervalDidStart(for: "daily", now: noon)
    let drain = try reopened.wake(.notification, now: noon.addingTimeInterval(180))
    #expect(!drain.recoveries.contains { $0.file == .ledger })
    #expect(try reopened.ledger().balance == balance)
    #expect(try reopened.ledger().rate == .tenXPPerMinute)
  }

  @Test(
    "the rate survives a compaction, whether or not the records it covers are removed",
    arguments: [false, true])
  func rateSurvivesCompaction(removalFails: Bool) throws {
    var household = try Household(
      store: removalFails ? LedgerCompactionPipelineTests.NoRemovalStore() : InMemoryStore())
    let early = try household.start(0).addingTimeInterval(3_600)
    try household.pipeline.apply(LedgerTransaction(id: "task-1", at: early, kind: .earn(xp: 100)))
    try household.pipeline.redeemAll(id: "swap-1", at: early.addingTimeInterval(60))
    // Three months later a wake that drains lets go of both, and of the rate record before them.
    let later = try household.start(90)
    try household.pipeline.apply(LedgerTransaction(id: "task-2", at: later, kind: .earn(xp: 100)))
    _ = household.recorder.intervalDidStart(for: "daily", now: later)
    try household.pipeline.wake(.notification, now: later.addingTimeInterval(60))
    #expect(try household.pipeline.ledger().opening != nil)
    let records = try Self.records(household)
    let checkpoints = records.filter { $0.hasPrefix(#"{"checkpoint":"#) }
    #expect(checkpoints.count == 1)
    #expect(checkpoints.allSatisfy { $0.hasSuffix(#","rate":{"timeMs":60000,"xp":10}}}"#) })
    #expect(records.first?.hasPrefix(#"{"rate":"#) == removalFails)

    let reopened = try Self.reopen(household, at: Self.cheaper())
    #expect(try reopened.ledger().rate == .tenXPPerMinute)
    #expect(try reopened.ledger().balance.available == .seconds(10 * 60))
    let swap = try reopened.redeemAll(id: "swap-2", at: later.addingTimeInterval(120))
    #expect(swap.timeBought == .seconds(10 * 60))
  }

  @Test("a new ledger starts with its rate record, in its documented JSON form")
  func newLedgerStartsWithItsRate() throws {
    let household = try Household()
    let noon = try household.start(0).addingTimeInterval(12 * 3_600)
    try household.pipeline.apply(LedgerTransaction(id: "task-1", at: noon, kind: .earn(xp: 50)))
    try household.pipeline.apply(
      LedgerTransaction(id: "task-2", at: noon.addingTimeInterval(60), kind: .earn(xp: 5)))
    let log = try #require(
      try household.store.readLog(household.folder.layout.appLedgerKey, newest: nil))
    #expect(log.records.map(\.position) == [1, 2, 3])
    #expect(try Self.records(household).first == #"{"rate":{"timeMs":60000,"xp":10}}"#)
    // The rate record is not one of the ledger's transactions.
    #expect(try household.pipeline.ledger().transactions.map(\.id) == ["task-1", "task-2"])
  }

  @Test("a rebuilt ledger is a new ledger: it takes the configured rate")
  func rebuiltLedgerTakesTheConfiguredRate() throws {
    var household = try Household()
    try household.use(from: household.start(0), minutes: 20)
    #expect(try household.pipeline.ledger().balance.xp == 60)
    // A transaction that no longer applies damages the ledger; the app now ships 20 XP a minute.
    let overdraft = LedgerTransaction(
      id: "planted", at: try household.start(0).addingTimeInterval(13 * 3_600),
      kind: .redeem(xp: 1_000_000))
    try household.store.append(
      [try JSONEncoder().encode(overdraft)], toLog: household.folder.layout.appLedgerKey,
      capacity: 100_000)
    household.pipeline = try Self.reopen(household, at: Self.dearer())
    try household.use(from: household.start(1), minutes: 10)
    #expect(try household.pipeline.state().recoveries.map(\.file) == [.ledger])
    #expect(try household.pipeline.ledger().rate == Self.dearer())
    #expect(try Self.records(household).first == #"{"rate":{"timeMs":60000,"xp":20}}"#)
  }

  static let earn = #"{"at":"2026-02-01T00:00:00Z","id":"task-1","type":"earn","xp":100}"#
  /// A checkpoint that covers the rate record and `earn`, without its `rate` and closing braces.
  static let checkpoint =
    #"{"checkpoint":{"covers":2,"earned":{},"opening":{"balance":{"availableMs":0,"reservedMs":0,"xp":5},"through":"2026-03-01T00:00:00Z"}"#

  @Test(
    "a rate record that is not the log's first, or a rate that does not decode, is damage",
    arguments: [
      // The controls, at 10 XP = 2 minutes: the log's first record, and a checkpoint after it.
      (true, [#"{"rate":{"timeMs":120000,"xp":10}}"#, earn]),
      (
        true,
        [
          #"{"rate":{"timeMs":60000,"xp":10}}"#, earn,
          checkpoint + #","rate":{"timeMs":120000,"xp":10}}}"#,
        ]
      ),
      (false, [earn, #"{"rate":{"timeMs":120000,"xp":10}}"#]),
      (
        false,
        [#"{"rate":{"timeMs":120000,"xp":10}}"#, earn, #"{"rate":{"timeMs":60000,"xp":10}}"#]
      ),
      (false, [#"{"rate":{"timeMs":0,"xp":10}}"#, earn]),
      (false, [#"{"rate":{"xp":10}}"#, earn]),
      (false, [#"{"rate":{"timeMs":60000,"xp":10}}"#, earn, checkpoint + "}}"]),
      (false, [#"{"rate":{"timeMs":60000,"xp":10}}"#, earn, checkpoint + #","rate":{"xp":0}}}"#]),
    ])
  func misplacedOrUndecodableRateIsDamage(folds: Bool, records: [String]) throws {
    let household = try Household()
    try household.store.append(
      records.map { Data($0.utf8) }, toLog: household.folder.layout.appLedgerKey, capacity: 100)
    let pipeline = try UsagePipeline(
      folder: household.folder, configuration: household.configuration)
    if folds {
      #expect(try pipeline.ledger().rate == Self.cheaper())
    } else {
      #expect(throws: PipelineError.self) { try pipeline.ledger() }
    }
  }
}
