import BudgetMath
import Foundation
import Testing
import UsageModel

@Suite("Redeeming everything")
struct RedeemAllTests {
  static let noon = Date(timeIntervalSince1970: 1_767_355_200)  // 2026-01-02T12:00:00Z

  static func earned(_ xp: Int, rate: ExchangeRate = .tenXPPerMinute) throws -> RewardLedger {
    var ledger = RewardLedger(rate: rate)
    if xp > 0 {
      try ledger.apply(LedgerTransaction(id: "earn", at: noon, kind: .earn(xp: xp)))
    }
    return ledger
  }

  @Test("redeeming everything converts every whole unit and keeps the rest as XP credit")
  func redeemsWholeUnits() throws {
    var ledger = try Self.earned(95)
    let redemption = try ledger.redeemAll(id: "swap-1", at: Self.noon)
    #expect(redemption.outcome == .redeemed)
    #expect(redemption.redeemedXP == 90)
    #expect(redemption.timeBought == minutes(9))
    #expect(redemption.remainingXP == 5)
    #expect(redemption.entry == ledger.entry(for: "swap-1"))
    #expect(redemption.entry?.transaction.kind == .redeem(xp: 90))
    #expect(ledger.balance == RewardBalance(xp: 5, available: minutes(9), reserved: .zero))
  }

  @Test(
    "what is redeemed is what the rate converts, and XP redeemed plus XP left is the credit",
    arguments: [
      (10, 60, 0), (10, 60, 10), (10, 60, 95), (10, 60, 1_000_001), (7, 50, 100), (1, 1, 3),
      (1000, 3_600, 999), (1000, 3_600, 2_500),
    ])
  func redeemsWhatTheRateConverts(rateXP: Int, rateSeconds: Int64, xp: Int) throws {
    let rate = try ExchangeRate(experiencePoints: rateXP, time: .seconds(rateSeconds))
    var ledger = try Self.earned(xp, rate: rate)
    let redemption = try ledger.redeemAll(id: "all", at: Self.noon)
    let converted = rate.convert(xp)
    #expect(redemption.timeBought == converted.time)
    #expect(redemption.remainingXP == converted.leftover)
    #expect(redemption.redeemedXP + redemption.remainingXP == xp)
    #expect(ledger.balance.xp == converted.leftover)
    #expect(ledger.balance.available == converted.time)
    #expect(redemption.outcome == (xp >= rateXP ? .redeemed : .belowOneUnit))
  }

  @Test("a repeated call with the same identifier changes nothing and reports the earlier one")
  func repeatedCallReportsEarlierRedemption() throws {
    var ledger = try Self.earned(95)
    let first = try ledger.redeemAll(id: "swap-1", at: Self.noon)
    try ledger.apply(
      LedgerTransaction(id: "earn-2", at: Self.noon.addingTimeInterval(60), kind: .earn(xp: 100)))
    let before = ledger
    let again = try ledger.redeemAll(id: "swap-1", at: Self.noon.addingTimeInterval(120))
    #expect(again.outcome == .alreadyRedeemed)
    #expect(again.entry == first.entry)
    #expect(again.redeemedXP == 90)
    #expect(again.timeBought == minutes(9))
    #expect(again.remainingXP == 105, "the credit now, not right after the earlier redemption")
    #expect(ledger == before)
    // Control: a new identifier does redeem the new credit.
    #expect(try ledger.redeemAll(id: "swap-2", at: Self.noon).redeemedXP == 100)
  }

  @Test(
    "less than one unit of credit records nothing and says so, without an error",
    arguments: [0, 1, 9])
  func belowOneUnitRecordsNothing(xp: Int) throws {
    var ledger = try Self.earned(xp)
    let before = ledger
    let redemption = try ledger.redeemAll(id: "swap-1", at: Self.noon)
    #expect(redemption.outcome == .belowOneUnit)
    #expect(redemption.redeemedXP == 0)
    #expect(redemption.timeBought == .zero)
    #expect(redemption.remainingXP == xp)
    #expect(redemption.entry == nil)
    #expect(ledger == before)
    #expect(ledger.entry(for: "swap-1") == nil)
    // Nothing was recorded, so the identifier is free: once there is a unit, it redeems.
    try ledger.apply(LedgerTransaction(id: "earn-2", at: Self.noon, kind: .earn(xp: 10)))
    #expect(try ledger.redeemAll(id: "swap-1", at: Self.noon).outcome == .redeemed)
    // Control: the explicit transaction of too little XP is still an error.
    #expect(throws: BudgetMathError.self) {
      try ledger.apply(LedgerTransaction(id: "r", at: Self.noon, kind: .redeem(xp: 9)))
    }
  }

  @Test("a redemption applied as a transaction is reported under its identifier")
  func redemptionAppliedAsTransactionIsReported() throws {
    var ledger = try Self.earned(95)
    try ledger.apply(LedgerTransaction(id: "swap-1", at: Self.noon, kind: .redeem(xp: 95)))
    let redemption = try ledger.redeemAll(id: "swap-1", at: Self.noon)
    #expect(redemption.outcome == .alreadyRedeemed)
    #expect(redemption.redeemedXP == 90, "the XP converted, not the XP asked for")
    #expect(redemption.timeBought == minutes(9))
  }

  @Test("an identifier used by another kind of transaction is a conflict that changes nothing")
  func identifierOfAnotherKindConflicts() throws {
    var ledger = try Self.earned(95)
    let before = ledger
    #expect(throws: BudgetMathError.conflictingTransaction(id: "earn")) {
      try ledger.redeemAll(id: "earn", at: Self.noon)
    }
    #expect(ledger == before)
  }

  @Test("an empty identifier or an unusable instant is a typed error that changes nothing")
  func invalidInputChangesNothing() throws {
    var ledger = try Self.earned(95)
    let before = ledger
    #expect(throws: BudgetMathError.self) { try ledger.redeemAll(id: "", at: Self.noon) }
    #expect(throws: BudgetMathError.self) {
      try ledger.redeemAll(id: "swap-1", at: Date(timeIntervalSince1970: .nan))
    }
    #expect(ledger == before)
  }

  @Test("a stored ledger holds a redeem-all as an ordinary redemption and replays it")
  func storedFormReplays() throws {
    var ledger = try Self.earned(95)
    try ledger.redeemAll(id: "swap-1", at: Self.noon)
    let text = try json(ledger)
    #expect(text.contains(#"{"at":"2026-01-02T12:00:00Z","id":"swap-1","type":"redeem","xp":90}"#))
    let decoded = try JSONDecoder().decode(RewardLedger.self, from: Data(text.utf8))
    #expect(decoded == ledger)
    #expect(decoded.balance == ledger.balance)
    var replayed = decoded
    #expect(try replayed.redeemAll(id: "swap-1", at: Self.noon).outcome == .alreadyRedeemed)
  }
}
