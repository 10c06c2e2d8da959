import Foundation
import UsageModel

// MARK: - What a transaction does to the balance

extension RewardLedger {
  /// What one transaction changes: XP, available and reserved time, XP refused by the cap, and
  /// for a capped earning the local day it counts for.
  struct Change {
    var xp = 0
    var available = Duration.zero
    var reserved = Duration.zero
    var capped = 0
    var earningDay: LocalDay?
  }

  /// The entry `transaction` would make, and for a capped earning the local day it counts for.
  ///
  /// `storedEarningDay` is the day a replayed earning was counted for when it was first applied;
  /// it is used as is, so that a later change of the time zone's rules cannot move an earning to
  /// another day and make a stored ledger fail to replay.
  func effect(of transaction: LedgerTransaction, storedEarningDay: LocalDay?)
    throws(BudgetMathError) -> (LedgerEntry, earningDay: LocalDay?)
  {
    let id = transaction.id
    let change: Change
    switch transaction.kind {
    case .earn(let earned):
      change = try earning(earned, at: transaction.at, storedEarningDay: storedEarningDay)
    case .redeem(let spent):
      change = try redemption(of: spent, transaction: id)
    case .startSpending(let session, let reserve):
      change = try start(session, reserving: reserve, transaction: id)
    case .endSpending(let session, let used):
      change = try end(session, used: used, transaction: id)
    case .adjust(let xpChange, let timeChange, let reason):
      change = try adjustment(xp: xpChange, time: timeChange, reason: reason, transaction: id)
    case .expire(let expiredXP, let expiredTime):
      change = try expiry(xp: expiredXP, time: expiredTime, transaction: id)
    }
    return (try entry(for: transaction, applying: change), change.earningDay)
  }

  // MARK: - One function per kind of transaction

  /// Earned XP, less what the daily cap refuses.
  private func earning(_ earned: Int, at: Date, storedEarningDay: LocalDay?)
    throws(BudgetMathError) -> Change
  {
    try Self.require(earned >= 1, "earn.xp", "\(earned)", "at least 1")
    guard let cap = dailyEarningCap else { return Change(xp: earned) }
    let day: LocalDay
    if let storedEarningDay {
      day = storedEarningDay
    } else {
      day = try Self.day(of: at, boundary: cap.dayBoundary)
    }
    let xp = min(earned, max(0, cap.xp - earnedPerDay[day, default: 0]))
    return Change(xp: xp, capped: earned - xp, earningDay: day)
  }

  /// Whole units of time bought with `spent` XP, at the ledger's rate.
  private func redemption(of spent: Int, transaction id: String) throws(BudgetMathError) -> Change {
    let before = balance
    try Self.require(
      spent >= rate.experiencePoints, "redeem.xp", "\(spent)",
      "at least \(rate.experiencePoints), the price of one unit of \(rate)")
    guard spent <= before.xp else {
      throw .overdraft(transaction: id, balance: "\(before.xp) XP", requested: "\(spent) XP")
    }
    let units = spent / rate.experiencePoints
    guard let bought = rate.exactTime(ofUnits: units) else {
      throw .invalidValue(
        field: "balance", value: "\(before.available) + \(units) × \(rate.time)",
        requirement: "a balance that fits in 64 bits (XP, and time in milliseconds)")
    }
    return Change(xp: -(units * rate.experiencePoints), available: bought)
  }

  /// Available time moved into a reservation for a new session.
  private func start(_ session: String, reserving reserve: Duration, transaction id: String)
    throws(BudgetMathError) -> Change
  {
    let before = balance
    try Self.require(!session.isEmpty, "startSpending.session", "\"\"", "not empty")
    try Self.requireWhole(reserve, positive: true, "startSpending.reserve")
    guard !usedSessions.contains(session) else {
      throw .sessionAlreadyUsed(id: session, transaction: id)
    }
    guard reserve <= before.available else {
      throw .overdraft(transaction: id, balance: "\(before.available)", requested: "\(reserve)")
    }
    return Change(available: .zero - reserve, reserved: reserve)
  }

  /// A session's reservation released, its unused time made available again.
  private func end(_ session: String, used: Duration, transaction id: String)
    throws(BudgetMathError) -> Change
  {
    guard let reservation = openSessions[session] else {
      throw .unknownSession(id: session, transaction: id)
    }
    try Self.requireWhole(used, positive: false, "endSpending.used")
    guard used <= reservation else {
      throw .sessionOverrun(id: session, reserved: reservation, used: used)
    }
    return Change(available: reservation - used, reserved: .zero - reservation)
  }

  /// A correction of XP and available time, never below zero.
  private func adjustment(
    xp xpChange: Int, time timeChange: Duration, reason: String,
    transaction id: String
  ) throws(BudgetMathError) -> Change {
    let before = balance
    try Self.require(!reason.isEmpty, "adjust.reason", "\"\"", "not empty")
    guard Milliseconds.isWhole(timeChange), Milliseconds.amount(timeChange) != nil else {
      throw .invalidValue(
        field: "adjust.time", value: "\(timeChange)", requirement: "whole milliseconds")
    }
    let (newXP, overflow) = before.xp.addingReportingOverflow(xpChange)
    guard !overflow, newXP >= 0, before.available + timeChange >= .zero else {
      throw .overdraft(
        transaction: id, balance: "\(before.xp) XP and \(before.available)",
        requested: "a change of \(xpChange) XP and \(timeChange)")
    }
    return Change(xp: xpChange, available: timeChange)
  }

  /// XP and available time that expire, no more than the balance holds.
  private func expiry(xp expiredXP: Int, time expiredTime: Duration, transaction id: String)
    throws(BudgetMathError) -> Change
  {
    let before = balance
    try Self.require(expiredXP >= 0, "expire.xp", "\(expiredXP)", "zero or more")
    try Self.requireWhole(expiredTime, positive: false, "expire.time")
    guard expiredXP <= before.xp, expiredTime <= before.available else {
      throw .overdraft(
        transaction: id, balance: "\(before.xp) XP and \(before.available)",
        requested: "\(expiredXP) XP and \(expiredTime)")
    }
    return Change(xp: -expiredXP, available: .zero - expiredTime)
  }

  // MARK: - The entry, and the checks every kind shares

  /// The entry of `transaction` applying `change` to the balance, which must stay in range.
  private func entry(for transaction: LedgerTransaction, applying change: Change)
    throws(BudgetMathError) -> LedgerEntry
  {
    let before = balance
    let (newXP, xpOverflow) = before.xp.addingReportingOverflow(change.xp)
    let newAvailable = before.available + change.available
    let newReserved = before.reserved + change.reserved
    guard !xpOverflow, Milliseconds.amount(newAvailable) != nil,
      Milliseconds.amount(newReserved) != nil
    else {
      throw .invalidValue(
        field: "balance",
        value: "\(before.xp) XP + \(change.xp), \(before.available) + \(change.available)",
        requirement: "a balance that fits in 64 bits (XP, and time in milliseconds)")
    }
    return LedgerEntry(
      transaction: transaction, xpChange: change.xp, availableChange: change.available,
      reservedChange: change.reserved, cappedXP: change.capped,
      balanceAfter: RewardBalance(xp: newXP, available: newAvailable, reserved: newReserved))
  }

  /// The local day of `at` under `boundary`.
  private static func day(of at: Date, boundary: DayBoundary) throws(BudgetMathError) -> LocalDay {
    do {
      return try boundary.day(containing: at)
    } catch {
      throw .invalidValue(field: "at", value: describe(at), requirement: error.description)
    }
  }

  private static func require(
    _ condition: Bool, _ field: String, _ value: String, _ requirement: String
  ) throws(BudgetMathError) {
    if !condition { throw .invalidValue(field: field, value: value, requirement: requirement) }
  }

  private static func requireWhole(_ time: Duration, positive: Bool, _ field: String)
    throws(BudgetMathError)
  {
    let valid =
      (positive ? time > .zero : time >= .zero) && Milliseconds.isWhole(time)
      && Milliseconds.amount(time) != nil
    try require(
      valid, field, "\(time)",
      (positive ? "more than zero" : "zero or more") + ", in whole milliseconds")
  }
}
