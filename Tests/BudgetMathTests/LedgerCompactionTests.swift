import BudgetMath
import Foundation
import TestSupport
import Testing
import UsageModel

@Suite("Reward ledger compaction")
struct LedgerCompactionTests {
  static let noon = RewardLedgerTests.noon

  static func ledger(_ transactions: [LedgerTransaction]) throws -> RewardLedger {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    for transaction in transactions { try ledger.apply(transaction) }
    return ledger
  }

  static func at(_ hours: Double) -> Date { noon.addingTimeInterval(hours * 3_600) }

  /// A millisecond after `date`: the opening of a ledger whose newest transaction let go is
  /// dated `date`.
  static func justAfter(_ date: Date) -> Date {
    Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1_000 + 1) / 1_000)
  }

  @Test("a compacted ledger keeps its balance and refuses a repeat of a transaction it let go")
  func compactedLedgerRefusesForgottenRepeat() throws {
    let earn = LedgerTransaction(id: "task-1", at: Self.at(0), kind: .earn(xp: 95))
    let original = try Self.ledger([
      earn,
      LedgerTransaction(id: "swap-1", at: Self.at(1), kind: .redeem(xp: 50)),
      LedgerTransaction(id: "task-2", at: Self.at(48), kind: .earn(xp: 20)),
    ])
    var compacted = original.compacted(before: Self.at(24))
    #expect(compacted.balance == original.balance)
    #expect(compacted.transactions.map(\.id) == ["task-2"])
    #expect(compacted.opening?.through == Self.justAfter(Self.at(1)))
    #expect(
      compacted.opening?.balance == RewardBalance(xp: 45, available: minutes(5), reserved: .zero))
    // The original recognises the repeat; the compacted ledger cannot, so it refuses it rather
    // than pay it a second time.
    var control = original
    guard case .alreadyApplied = try control.apply(earn) else {
      Issue.record("the control applied a repeat")
      return
    }
    #expect(
      throws: BudgetMathError.transactionBeforeOpening(
        id: "task-1", at: Self.at(0), opening: Self.justAfter(Self.at(1)))
    ) { try compacted.apply(earn) }
    #expect(compacted.balance == original.balance)
  }

  @Test("a compacted ledger refuses a redemption of everything dated before its opening")
  func redeemAllBeforeOpeningIsRefused() throws {
    let original = try Self.ledger([
      LedgerTransaction(id: "task-1", at: Self.at(0), kind: .earn(xp: 95)),
      LedgerTransaction(id: "task-2", at: Self.at(48), kind: .earn(xp: 20)),
    ])
    var compacted = original.compacted(before: Self.at(24))
    #expect(throws: BudgetMathError.self) { try compacted.redeemAll(id: "swap", at: Self.at(0)) }
    #expect(compacted.balance.xp == 115)
    // The control: the same redemption dated after the opening buys 11 minutes.
    #expect(try compacted.redeemAll(id: "swap", at: Self.at(49)).outcome == .redeemed)
    #expect(compacted.balance == RewardBalance(xp: 5, available: minutes(11), reserved: .zero))
  }

  @Test("a capped ledger compacts at the earliest supported instant without a trap")
  func compactionAtTheFirstSupportedDay() throws {
    // 0001-01-03T00:00:00Z, the earliest instant a ledger accepts; in UTC−12 with days starting
    // at 23:00, its day is the first supported one, which has no day before it.
    let earliest = Date(timeIntervalSince1970: -62_135_424_000)
    let zone = try #require(TimeZone(secondsFromGMT: -43_200))
    var ledger = RewardLedger(
      rate: .tenXPPerMinute,
      dailyEarningCap: try DailyEarningCap(
        xp: 100, dayBoundary: DayBoundary(timeZone: zone, dayStart: TimeOfDay(hour: 23, minute: 0))
      ))
    try ledger.apply(LedgerTransaction(id: "task-1", at: earliest, kind: .earn(xp: 5)))
    let compacted = ledger.compacted(before: earliest.addingTimeInterval(86_400))
    #expect(compacted.balance == ledger.balance)
    #expect(compacted.transactions.isEmpty, "the earning was let go")
  }

  @Test("a cut inside a millisecond lets nothing go that the opening does not refuse")
  func cutInsideAMillisecond() throws {
    let earn = LedgerTransaction(id: "task-1", at: Self.at(0), kind: .earn(xp: 10))
    let original = try Self.ledger([
      earn, LedgerTransaction(id: "task-2", at: Self.at(1), kind: .earn(xp: 20)),
    ])
    // 0.4 ms after the first transaction: it goes, and so must its repeat.
    var compacted = original.compacted(before: Self.at(0).addingTimeInterval(0.000_4))
    #expect(compacted.transactions.map(\.id) == ["task-2"])
    #expect(throws: BudgetMathError.self) { try compacted.apply(earn) }
    #expect(compacted.balance.xp == 30)
  }

  @Test("only a run of first transactions dated before every later one is let go")
  func laterOlderTransactionHoldsBackTheCut() throws {
    // t4 was applied after t2 and t3 but is dated before t2: letting t2 go would leave a kept
    // transaction dated before the opening, so only t1 goes.
    let original = try Self.ledger([
      LedgerTransaction(id: "t1", at: Self.at(0), kind: .earn(xp: 10)),
      LedgerTransaction(id: "t2", at: Self.at(5), kind: .earn(xp: 20)),
      LedgerTransaction(id: "t3", at: Self.at(30), kind: .earn(xp: 30)),
      LedgerTransaction(id: "t4", at: Self.at(2), kind: .earn(xp: 40)),
    ])
    let compacted = original.compacted(before: Self.at(24))
    #expect(compacted.transactions.map(\.id) == ["t2", "t3", "t4"])
    #expect(compacted.opening?.through == Self.justAfter(Self.at(0)))
    #expect(compacted.balance.xp == 100)
    // Without t4, everything dated before the cut goes: t1 and t2.
    let ordered = try Self.ledger(Array(original.transactions.prefix(3)))
    #expect(ordered.compacted(before: Self.at(24)).transactions.map(\.id) == ["t3"])
    #expect(
      ordered.compacted(before: Self.at(24)).opening?.through == Self.justAfter(Self.at(5)))
  }

  @Test("a cut before every transaction leaves the ledger as it was")
  func nothingToLetGoChangesNothing() throws {
    let original = try Self.ledger([
      LedgerTransaction(id: "t1", at: Self.at(0), kind: .earn(xp: 10))
    ])
    #expect(original.compacted(before: Self.at(0)) == original)
    #expect(original.compacted(before: Self.at(0)).opening == nil)
  }

  @Test("an open session survives compaction and ends against its reservation")
  func openSessionCarriesOver() throws {
    let original = try Self.ledger([
      LedgerTransaction(id: "earn", at: Self.at(0), kind: .earn(xp: 300)),
      LedgerTransaction(id: "swap", at: Self.at(0), kind: .redeem(xp: 300)),
      LedgerTransaction(
        id: "start", at: Self.at(1), kind: .startSpending(session: "s1", reserve: minutes(20))),
    ])
    var compacted = original.compacted(before: Self.at(24))
    #expect(compacted.transactions.isEmpty)
    #expect(compacted.openSpendingSessions == ["s1": minutes(20)])
    let end = LedgerTransaction(
      id: "end", at: Self.at(25), kind: .endSpending(session: "s1", used: minutes(5)))
    try compacted.apply(end)
    #expect(compacted.balance == RewardBalance(xp: 0, available: minutes(25), reserved: .zero))
  }

  @Test("an opening whose reservations do not add up to the reserved time is refused")
  func inconsistentOpeningIsRefused() {
    #expect(throws: BudgetMathError.self) {
      try LedgerOpening(
        through: Self.noon,
        balance: RewardBalance(xp: 0, available: .zero, reserved: minutes(5)),
        openSessions: ["s1": minutes(4)])
    }
  }

  @Test("a stored opening whose reservations overflow fails to decode instead of trapping")
  func overflowingOpeningFailsToDecode() throws {
    let huge = Int64.max
    let json =
      #"{"rate":{"xp":10,"timeMs":60000},"opening":{"through":"2026-01-02T00:00:00Z","#
      + #""balance":{"xp":0,"availableMs":0,"reservedMs":\#(huge)},"#
      + #""openSessions":{"a":\#(huge),"b":\#(huge)}},"transactions":[]}"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(RewardLedger.self, from: Data(json.utf8))
    }
    // The control: one such session is a valid opening.
    let one = json.replacingOccurrences(of: #","b":\#(huge)"#, with: "")
    let ledger = try JSONDecoder().decode(RewardLedger.self, from: Data(one.utf8))
    #expect(ledger.balance.reserved == .milliseconds(huge))
  }

  // MARK: - Property

  @Test(
    "a compacted ledger agrees with the whole one: balance, stored form, and every later transaction",
    arguments: 0..<40)
  func compactedAgreesWithWhole(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let zone = try #require(TimeZone(identifier: "America/New_York"))
    let capped = seed % 2 == 0
    var whole = RewardLedger(
      rate: .tenXPPerMinute,
      dailyEarningCap: capped
        ? try DailyEarningCap(xp: 200, dayBoundary: DayBoundary(timeZone: zone)) : nil)
    // Mostly in order, half an hour apart, one in ten dated up to two hours back; the first
    // three in order, so that the first always goes when the cut is after it.
    let start = RewardLedgerTests.beforeFallBack
    for step in 0..<120 {
      let drawn = RewardLedgerTests.randomTransaction(step, using: &random)
      let back = step >= 3 && Int.random(in: 0..<10, using: &random) == 0
      let offset = Double(step * 1_800 - (back ? Int.random(in: 0..<7_200, using: &random) : 0))
      _ = try? whole.apply(
        LedgerTransaction(id: drawn.id, at: start.addingTimeInterval(offset), kind: drawn.kind))
    }
    let cut = start.addingTimeInterval(
      Double(Int.random(in: (10 * 1_800)..<(120 * 1_800), using: &random)))
    var compacted = whole.compacted(before: cut)
    // The control that the property is not empty: something is let go.
    #expect(compacted.entries.count < whole.entries.count)

    // The same balance and sessions; what was let go is dated before the opening, what was
    // kept at or after it, and kept in order.
    #expect(compacted.balance == whole.balance)
    #expect(compacted.openSpendingSessions == whole.openSpendingSessions)
    let letGo = whole.entries.count - compacted.entries.count
    #expect(Array(whole.entries[letGo...]) == compacted.entries)
    if let through = compacted.opening?.through {
      #expect(whole.entries[..<letGo].allSatisfy { $0.transaction.at < through })
      #expect(compacted.entries.allSatisfy { $0.transaction.at >= through })
      #expect(through <= cut)
    } else {
      #expect(letGo == 0)
    }
    #expect(try roundTrip(compacted) == compacted)

    // Later transactions, dated at or after the opening, with fresh identifiers and sessions
    // (or the sessions still open): both ledgers accept and refuse the same, with the same
    // effects.
    let floor = compacted.opening?.through ?? start
    for step in 0..<80 {
      var transaction = RewardLedgerTests.randomTransaction(1_000 + step, using: &random)
      let at = max(transaction.at, floor)
      switch transaction.kind {
      case .startSpending(_, let reserve):
        transaction = LedgerTransaction(
          id: transaction.id, at: at,
          kind: .startSpending(session: "later-\(step)", reserve: reserve))
      case .endSpending(_, let used):
        let open = whole.openSpendingSessions.keys.sorted()
        let session = open.isEmpty ? "none" : open[Int.random(in: 0..<open.count, using: &random)]
        transaction = LedgerTransaction(
          id: transaction.id, at: at, kind: .endSpending(session: session, used: used))
      default:
        transaction = LedgerTransaction(id: transaction.id, at: at, kind: transaction.kind)
      }
      let expected = Result { () throws(BudgetMathError) in try whole.apply(transaction) }
      let actual = Result { () throws(BudgetMathError) in try compacted.apply(transaction) }
      #expect(actual == expected, "seed \(seed) step \(step) \(transaction)")
      #expect(compacted.balance == whole.balance)
    }
    // A repeat of anything let go is refused, never applied again.
    for entry in whole.entries[..<letGo] {
      let before = compacted.balance
      #expect(throws: BudgetMathError.self) { try compacted.apply(entry.transaction) }
      #expect(compacted.balance == before)
    }
  }
}
