import BudgetMath
import Foundation
import Testing
import UsageModel

/// Foundation stops the program when it describes a NaN `Date`, so an error message must never
/// interpolate one.
@Suite("Unusable instants")
struct UnusableInstantTests {
  static let noon = Date(timeIntervalSince1970: 1_767_355_200)  // 2026-01-02T12:00:00Z

  @Test(
    "an instant that is not a number, infinite or out of range is a typed error, never a trap",
    arguments: [Double.nan, .infinity, -.infinity, 1e300])
  func unusableInstantsAreTypedErrors(secondsSince1970: Double) throws {
    let date = Date(timeIntervalSince1970: secondsSince1970)
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    #expect(throws: BudgetMathError.self) {
      try ledger.apply(LedgerTransaction(id: "earn", at: date, kind: .earn(xp: 10)))
    }
    #expect(throws: BudgetMathError.self) { try ledger.redeemAll(id: "all", at: date) }
    #expect(ledger.entries.isEmpty)
    #expect(throws: BudgetMathError.self) {
      try FocusSession(id: "deep-work", scheduledStart: date, focusDuration: .seconds(60))
    }
    var session = try FocusSession(
      id: "deep-work", scheduledStart: Self.noon, focusDuration: .seconds(60))
    #expect(throws: BudgetMathError.self) { try session.apply(.start(at: date)) }
    #expect(session.events.isEmpty)
    let day = DateInterval(start: Self.noon, duration: 86_400)
    #expect(throws: BudgetMathError.self) {
      try PaceProjection(used: .seconds(1), allowance: .seconds(60), period: day, now: date)
    }
  }

  @Test("the error names the unusable instant in seconds since 1970")
  func errorNamesTheInstant() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    let date = Date(timeIntervalSince1970: .nan)
    #expect(
      throws: BudgetMathError.invalidValue(
        field: "at", value: "nan s since 1970", requirement: "a representable instant")
    ) {
      try ledger.apply(LedgerTransaction(id: "earn", at: date, kind: .earn(xp: 10)))
    }
  }
}
