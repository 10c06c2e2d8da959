import BudgetMath
import Foundation
import TestSupport
import Testing
import UsageModel

@Suite("Reward ledger")
struct RewardLedgerTests {
  static let noon = Date(timeIntervalSince1970: 1_767_355_200)  // 2026-01-02T12:00:00Z
  /// 2026-10-31T12:00:00Z, the day before New York falls back.
  static let beforeFallBack = Date(timeIntervalSince1970: 1_793_534_400)

  static func transaction(_ id: String, _ kind: LedgerTransaction.Kind, at offset: TimeInterval = 0)
    -> LedgerTransaction
  {
    LedgerTransaction(id: id, at: noon.addingTimeInterval(offset), kind: kind)
  }

  @Test("the rate converts whole units exactly and keeps the remainder as XP credit")
  func redemptionKeepsRemainder() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(Self.transaction("earn", .earn(xp: 95)))
    let entry = try ledger.apply(Self.transaction("redeem", .redeem(xp: 95))).entry
    #expect(entry.xpChange == -90)
    #expect(entry.availableChange == minutes(9))
    #expect(ledger.balance == RewardBalance(xp: 5, available: minutes(9), reserved: .zero))
    // Int(Double(95) / 10) would give 9 minutes, and the 5 XP would be gone.
    try ledger.apply(Self.transaction("earn-2", .earn(xp: 5)))
    try ledger.apply(Self.transaction("redeem-2", .redeem(xp: 10)))
    #expect(ledger.balance.available == minutes(10))
    #expect(ledger.balance.xp == 0)
  }

  @Test("applying the same transaction twice changes nothing")
  func duplicateIsNoOp() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    let earn = Self.transaction("task-42", .earn(xp: 50))
    guard case .applied = try ledger.apply(earn) else {
      Issue.record("not applied")
      return
    }
    guard case .alreadyApplied(let entry) = try ledger.apply(earn) else {
      Issue.record("a duplicate was applied again")
      return
    }
    #expect(entry.balanceAfter.xp == 50)
    #expect(ledger.balance.xp == 50)
    #expect(ledger.entries.count == 1)
  }

  @Test("an identifier reused by a different transaction is an error that changes nothing")
  func conflictingIdentifierIsRejected() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(Self.transaction("task-42", .earn(xp: 50)))
    #expect(throws: BudgetMathError.conflictingTransaction(id: "task-42")) {
      try ledger.apply(Self.transaction("task-42", .earn(xp: 500)))
    }
    #expect(ledger.balance.xp == 50)
  }

  @Test("an overdraft is a typed error that changes nothing")
  func overdraftChangesNothing() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(Self.transaction("earn", .earn(xp: 90)))
    try ledger.apply(Self.transaction("redeem", .redeem(xp: 90)))
    let before = ledger
    let attempts: [LedgerTransaction] = [
      Self.transaction("a", .redeem(xp: 10)),
      Self.transaction("b", .startSpending(session: "s", reserve: minutes(10))),
      Self.transaction("c", .expire(xp: 1, time: .zero)),
      Self.transaction("d", .adjust(xp: 0, time: .zero - minutes(10), reason: "refund")),
    ]
    for attempt in attempts {
      #expect(throws: BudgetMathError.self) { try ledger.apply(attempt) }
    }
    #expect(ledger == before)
    #expect(ledger.balance.available == minutes(9))
  }

  @Test("a spending session reserves time, charges what was used and refunds the rest")
  func spendingSessionRefundsUnusedTime() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(Self.transaction("earn", .earn(xp: 300)))
    try ledger.apply(Self.transaction("redeem", .redeem(xp: 300)))
    try ledger.apply(Self.transaction("start", .startSpending(session: "s1", reserve: minutes(20))))
    #expect(ledger.balance == RewardBalance(xp: 0, available: minutes(10), reserved: minutes(20)))
    #expect(ledger.openSpendingSessions == ["s1": minutes(20)])
    try ledger.apply(
      Self.transaction("end", .endSpending(session: "s1", used: minutes(7)), at: 420))
    #expect(ledger.balance == RewardBalance(xp: 0, available: minutes(23), reserved: .zero))
    #expect(ledger.openSpendingSessions.isEmpty)
  }

  @Test("session errors: unknown, reused identifier, overrun")
  func sessionErrors() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(Self.transaction("adjust", .adjust(xp: 0, time: hours(1), reason: "gift")))
    #expect(throws: BudgetMathError.unknownSession(id: "nope", transaction: "x")) {
      try ledger.apply(Self.transaction("x", .endSpending(session: "nope", used: .zero)))
    }
    try ledger.apply(Self.transaction("s", .startSpending(session: "s1", reserve: minutes(10))))
    #expect(
      throws: BudgetMathError.sessionOverrun(id: "s1", reserved: minutes(10), used: minutes(11))
    ) {
      try ledger.apply(Self.transaction("e", .endSpending(session: "s1", used: minutes(11))))
    }
    try ledger.apply(Self.transaction("e", .endSpending(session: "s1", used: minutes(10))))
    #expect(throws: BudgetMathError.sessionAlreadyUsed(id: "s1", transaction: "again")) {
      try ledger.apply(
        Self.transaction("again", .startSpending(session: "s1", reserve: minutes(1))))
    }
  }

  @Test("the daily earning cap credits up to the cap per local day and reports the rest")
  func dailyCapCreditsUpToCap() throws {
    let boundary = DayBoundary(timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
    var ledger = RewardLedger(
      rate: .tenXPPerMinute, dailyEarningCap: try DailyEarningCap(xp: 100, dayBoundary: boundary))
    let first = try ledger.apply(Self.transaction("a", .earn(xp: 70))).entry
    let second = try ledger.apply(Self.transaction("b", .earn(xp: 70), at: 3600)).entry
    #expect(first.xpChange == 70 && first.cappedXP == 0)
    #expect(second.xpChange == 30 && second.cappedXP == 40)
    // 2026-01-02T23:30:00Z is 00:30 on January 3 in Berlin: a new local day.
    let nextDay = try ledger.apply(Self.transaction("c", .earn(xp: 70), at: 11.5 * 3600)).entry
    #expect(nextDay.xpChange == 70)
    #expect(ledger.balance.xp == 170)
  }

  @Test("a ledger encodes its transactions and decodes by replaying them")
  func ledgerRoundTrips() throws {
    var ledger = RewardLedger(
      rate: try ExchangeRate(experiencePoints: 15, time: .seconds(45)),
      dailyEarningCap: try DailyEarningCap(xp: 1000, dayBoundary: DayBoundary(timeZone: .gmt)))
    try ledger.apply(Self.transaction("earn", .earn(xp: 100)))
    try ledger.apply(Self.transaction("redeem", .redeem(xp: 100)))
    try ledger.apply(
      Self.transaction("start", .startSpending(session: "s", reserve: .seconds(100)), at: 1.5))
    let restored = try roundTrip(ledger)
    #expect(restored == ledger)
    // 100 XP buy six units of 45 s (270 s) and leave 10 XP; 100 s are reserved.
    #expect(
      restored.balance == RewardBalance(xp: 10, available: .seconds(170), reserved: .seconds(100)))
    #expect(
      try json(ledger.transactions[2])
        == #"{"at":"2026-01-02T12:00:01.500Z","id":"start","reserveMs":100000,"session":"s","type":"startSpending"}"#
    )
  }

  @Test("a stored history that overdraws fails to decode instead of producing a negative balance")
  func invalidHistoryFailsToDecode() throws {
    let stored = """
      {"rate":{"xp":10,"timeMs":60000},"transactions":[
        {"id":"r","at":"2026-01-02T12:00:00Z","type":"redeem","xp":10}]}
      """
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode(RewardLedger.self, from: Data(stored.utf8))
    }
  }

  @Test("invalid rates and amounts are rejected")
  func invalidValuesAreRejected() throws {
    #expect(throws: BudgetMathError.self) {
      _ = try ExchangeRate(experiencePoints: 0, time: .seconds(60))
    }
    #expect(throws: BudgetMathError.self) {
      _ = try ExchangeRate(experiencePoints: 10, time: .zero)
    }
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(Self.transaction("earn", .earn(xp: 9)))
    for invalid: LedgerTransaction in [
      Self.transaction("", .earn(xp: 1)), Self.transaction("a", .earn(xp: 0)),
      Self.transaction("b", .redeem(xp: 9)), Self.transaction("c", .expire(xp: -1, time: .zero)),
      Self.transaction("d", .adjust(xp: 1, time: .zero, reason: "")),
    ] {
      #expect(throws: BudgetMathError.self) { try ledger.apply(invalid) }
    }
    #expect(ledger.entries.count == 1)
  }

  @Test("amounts that would overflow the balance are rejected instead of trapping")
  func overflowIsRejected() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(Self.transaction("a", .earn(xp: .max)))
    #expect(throws: BudgetMathError.self) { try ledger.apply(Self.transaction("b", .earn(xp: 1))) }
    #expect(throws: BudgetMathError.self) {
      try ledger.apply(Self.transaction("c", .adjust(xp: .min, time: .zero, reason: "oops")))
    }
    #expect(throws: BudgetMathError.self) {
      try ledger.apply(
        Self.transaction("d", .adjust(xp: 0, time: .seconds(Int64.max), reason: "x")))
    }
    #expect(ledger.balance.xp == .max)
  }

  @Test(
    "a stored ledger keeps the day each capped earning counted for, whatever the zone's rules say later"
  )
  func storedEarningDaysSurviveRuleChanges() throws {
    let newYork = DayBoundary(timeZone: try #require(TimeZone(identifier: "America/New_York")))
    var ledger = RewardLedger(
      rate: .tenXPPerMinute, dailyEarningCap: try DailyEarningCap(xp: 500, dayBoundary: newYork))
    // 23:30 and 00:30 New York time: two local days, 500 XP each.
    try ledger.apply(
      LedgerTransaction(id: "e1", at: try instant("2026-01-03T04:30:00Z"), kind: .earn(xp: 500)))
    try ledger.apply(
      LedgerTransaction(id: "e2", at: try instant("2026-01-03T05:30:00Z"), kind: .earn(xp: 500)))
    try ledger.apply(
      LedgerTransaction(id: "r", at: try instant("2026-01-03T06:00:00Z"), kind: .redeem(xp: 1000)))
    let stored = try json(ledger)
    #expect(stored.contains(#""earningDays":{"e1":"2026-01-02","e2":"2026-01-03"}"#))
    // Simulate a change of the zone's rules: in Chicago both earnings fall on January 2.
    let changed = stored.replacingOccurrences(of: "America/New_York", with: "America/Chicago")
    let restored = try JSONDecoder().decode(RewardLedger.self, from: Data(changed.utf8))
    #expect(restored.balance == ledger.balance)
    // Control: without the stored days the same history no longer replays.
    let withoutDays = changed.replacingOccurrences(
      of: #","earningDays":{"e1":"2026-01-02","e2":"2026-01-03"}"#, with: "")
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode(RewardLedger.self, from: Data(withoutDays.utf8))
    }
  }

  @Test("expiring everything empties the balance")
  func expiringEverything() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(Self.transaction("earn", .earn(xp: 95)))
    try ledger.apply(Self.transaction("redeem", .redeem(xp: 50)))
    try ledger.apply(ledger.expiryOfEverything(id: "month-end", at: Self.noon))
    #expect(ledger.balance == .zero)
  }

  // MARK: - Property test against a reference model

  @Test(
    "random histories with duplicates and reordering agree with a reference model",
    arguments: 0..<40)
  func agreesWithReferenceModel(seed: UInt64) throws {
    var generator = SplitMix64(seed: seed)
    // The cap counts local days in New York, across the November DST change; the reference
    // finds the day with Foundation's calendar, independently of DayBoundary.
    let zone = try #require(TimeZone(identifier: "America/New_York"))
    var ledger = RewardLedger(
      rate: .tenXPPerMinute,
      dailyEarningCap: try DailyEarningCap(xp: 200, dayBoundary: DayBoundary(timeZone: zone)))
    var reference = ReferenceLedger(xpPerUnit: 10, unitMs: 60_000, cap: 200, timeZone: zone)
    var pool: [LedgerTransaction] = []
    for step in 0..<150 {
      let transaction: LedgerTransaction
      if !pool.isEmpty && Int.random(in: 0..<4, using: &generator) == 0 {
        transaction = pool.randomElement(using: &generator) ?? pool[0]  // a duplicate, maybe late
      } else {
        transaction = Self.randomTransaction(step, using: &generator)
        pool.append(transaction)
      }
      let expected = reference.apply(transaction)
      let actual: ReferenceLedger.Outcome
      do {
        switch try ledger.apply(transaction) {
        case .applied: actual = .applied
        case .alreadyApplied: actual = .duplicate
        }
      } catch {
        actual = .rejected
      }
      #expect(actual == expected, "seed \(seed) step \(step) \(transaction)")
      #expect(ledger.balance.xp == reference.xp)
      #expect(ledger.balance.available == .milliseconds(reference.availableMs))
      #expect(ledger.balance.reserved == .milliseconds(reference.reserved.values.reduce(0, +)))
      #expect(ledger.balance.xp >= 0 && ledger.balance.available >= .zero)
    }
    // Replaying the whole history is idempotent, and the stored form replays to the same ledger.
    var replayed = ledger
    for transaction in ledger.transactions {
      guard case .alreadyApplied = try replayed.apply(transaction) else {
        Issue.record("a replayed transaction was applied twice")
        return
      }
    }
    #expect(replayed == ledger)
    #expect(try roundTrip(ledger) == ledger)
  }

  static func randomTransaction(_ step: Int, using generator: inout SplitMix64)
    -> LedgerTransaction
  {
    let id = "t\(step)"
    let at = beforeFallBack.addingTimeInterval(
      Double(Int.random(in: 0..<(3 * 86_400), using: &generator)))
    let session = "s\(Int.random(in: 0..<6, using: &generator))"
    let kind: LedgerTransaction.Kind
    switch Int.random(in: 0..<6, using: &generator) {
    case 0: kind = .earn(xp: Int.random(in: 1...120, using: &generator))
    case 1: kind = .redeem(xp: Int.random(in: 5...150, using: &generator))
    case 2:
      kind = .startSpending(
        session: session, reserve: .seconds(Int.random(in: 1...900, using: &generator)))
    case 3:
      kind = .endSpending(
        session: session, used: .seconds(Int.random(in: 0...900, using: &generator)))
    case 4:
      kind = .adjust(
        xp: Int.random(in: -30...30, using: &generator),
        time: .seconds(Int.random(in: -300...300, using: &generator)), reason: "correction")
    default:
      kind = .expire(
        xp: Int.random(in: 0...40, using: &generator),
        time: .seconds(Int.random(in: 0...300, using: &generator)))
    }
    return LedgerTransaction(id: id, at: at, kind: kind)
  }
}

/// The simplest ledger that can be right: integers, a dictionary of seen transactions, and the
/// rules written out one by one.
struct ReferenceLedger {
  enum Outcome: Equatable { case applied, duplicate, rejected }

  let xpPerUnit: Int
  let unitMs: Int64
  let cap: Int
  let timeZone: TimeZone
  var xp = 0
  var availableMs: Int64 = 0
  var reserved: [String: Int64] = [:]
  var usedSessions: Set<String> = []
  var seen: [String: LedgerTransaction] = [:]
  var earnedPerDay: [DateComponents: Int] = [:]

  mutating func apply(_ transaction: LedgerTransaction) -> Outcome {
    if let earlier = seen[transaction.id] { return earlier == transaction ? .duplicate : .rejected }
    switch transaction.kind {
    case .earn(let amount):
      guard amount >= 1 else { return .rejected }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = timeZone
      let day = calendar.dateComponents([.year, .month, .day], from: transaction.at)
      let credited = min(amount, max(0, cap - earnedPerDay[day, default: 0]))
      earnedPerDay[day, default: 0] += credited
      xp += credited
    case .redeem(let amount):
      guard amount >= xpPerUnit, amount <= xp else { return .rejected }
      let units = amount / xpPerUnit
      xp -= units * xpPerUnit
      availableMs += Int64(units) * unitMs
    case .startSpending(let session, let reserve):
      let ms = reserve.components.seconds * 1000
      guard ms > 0, !usedSessions.contains(session), ms <= availableMs else { return .rejected }
      availableMs -= ms
      reserved[session] = ms
      usedSessions.insert(session)
    case .endSpending(let session, let used):
      let ms = used.components.seconds * 1000
      guard let held = reserved[session], ms >= 0, ms <= held else { return .rejected }
      reserved[session] = nil
      availableMs += held - ms
    case .adjust(let xpChange, let time, _):
      let ms = time.components.seconds * 1000
      guard xp + xpChange >= 0, availableMs + ms >= 0 else { return .rejected }
      xp += xpChange
      availableMs += ms
    case .expire(let expiredXP, let time):
      let ms = time.components.seconds * 1000
      guard expiredXP >= 0, ms >= 0, expiredXP <= xp, ms <= availableMs else { return .rejected }
      xp -= expiredXP
      availableMs -= ms
    }
    seen[transaction.id] = transaction
    return .applied
  }
}
