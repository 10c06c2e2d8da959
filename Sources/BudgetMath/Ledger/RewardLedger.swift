import Foundation
import UsageModel

/// An earn-time-by-XP ledger: experience points in, screen time out, nothing created or lost by
/// rounding, nothing applied twice.
///
/// The ledger stores transactions; the balance and the audit trail (``entries``) are derived by
/// applying them in order. Each transaction is checked against the balance before it is
/// recorded, so the balance can never go negative: an overdraft throws and changes nothing.
///
/// - **Earn** XP, subject to an optional ``DailyEarningCap``; XP beyond the cap is reported in
///   ``LedgerEntry/cappedXP``, not silently dropped.
/// - **Redeem** XP into time at the ``rate``, in whole units; the remainder stays as XP credit.
///   ``redeemAll(id:at:)`` redeems everything redeemable and says what it bought.
/// - **Spend** time in sessions: ``LedgerTransaction/Kind/startSpending(session:reserve:)``
///   reserves time; ``LedgerTransaction/Kind/endSpending(session:used:)`` charges what was used
///   and refunds the rest — a session ended early costs only its real length.
/// - **Adjust** by signed amounts with a reason, and **expire** XP or time.
///
/// ```swift
/// var ledger = RewardLedger(rate: .tenXPPerMinute)
/// try ledger.apply(LedgerTransaction(id: "task-1", at: now, kind: .earn(xp: 95)))
/// try ledger.apply(LedgerTransaction(id: "swap-1", at: now, kind: .redeem(xp: 95)))
/// ledger.balance   // 5 XP, 9 minutes available
/// try ledger.apply(LedgerTransaction(id: "task-1", at: now, kind: .earn(xp: 95)))  // no-op
/// try ledger.apply(
///   LedgerTransaction(id: "play-1", at: now, kind: .startSpending(session: "s1", reserve: .seconds(600))))
///   // throws overdraft: only 9 minutes are available
/// ```
///
/// JSON form: `{"rate": ExchangeRate, "dailyEarningCap": DailyEarningCap, "transactions":
/// [LedgerTransaction, …], "earningDays": {"task-17": "2026-01-02", …}}`, the cap absent when
/// there is none. `earningDays` records the local day each capped earning counted for when it
/// was applied, so that a change in the time zone's rules (a country dropping DST) cannot move
/// an earning to another day on replay. Decoding replays the transactions and fails if any would
/// be rejected, so a stored ledger is always one that ``apply(_:)`` could have built.
public struct RewardLedger: Sendable, Hashable, Codable {
  /// How XP converts into time.
  public let rate: ExchangeRate
  /// The most XP credited per local day, if capped.
  public let dailyEarningCap: DailyEarningCap?
  /// Every applied transaction with its effects, in the order applied.
  public private(set) var entries: [LedgerEntry] = []

  var positions: [String: Int] = [:]
  private var earnedPerDay: [LocalDay: Int] = [:]
  /// The local day each capped earning counted for, by transaction identifier.
  var earningDays: [String: LocalDay] = [:]
  private var openSessions: [String: Duration] = [:]
  private var usedSessions: Set<String> = []

  /// Creates an empty ledger.
  ///
  /// - Parameters:
  ///   - rate: How XP converts into time.
  ///   - dailyEarningCap: The most XP credited per local day; no cap unless given.
  public init(rate: ExchangeRate, dailyEarningCap: DailyEarningCap? = nil) {
    self.rate = rate
    self.dailyEarningCap = dailyEarningCap
  }

  /// The current balance, after every applied transaction.
  public var balance: RewardBalance { entries.last?.balanceAfter ?? .zero }

  /// The transactions applied, in order.
  public var transactions: [LedgerTransaction] { entries.map(\.transaction) }

  /// The entry of the transaction with identifier `id`, if it was applied.
  ///
  /// - Parameter id: A transaction identifier.
  /// - Returns: Its entry, or `nil`.
  public func entry(for id: String) -> LedgerEntry? {
    positions[id].map { entries[$0] }
  }

  /// The time reserved by each open spending session.
  public var openSpendingSessions: [String: Duration] { openSessions }

  /// A transaction that expires the whole current balance (XP and available time).
  ///
  /// - Parameters:
  ///   - id: The new transaction's identifier.
  ///   - at: When the expiry happens.
  /// - Returns: An `expire` transaction for the current balance, ready to ``apply(_:)``.
  public func expiryOfEverything(id: String, at: Date) -> LedgerTransaction {
    LedgerTransaction(id: id, at: at, kind: .expire(xp: balance.xp, time: balance.available))
  }

  /// Applies a transaction, unless one with the same identifier was already applied.
  ///
  /// - Parameter transaction: The transaction.
  /// - Returns: The new entry, or the earlier entry when the identical transaction was already
  ///   applied.
  /// - Throws: ``BudgetMathError/conflictingTransaction(id:)`` when the identifier was used by a
  ///   different transaction, ``BudgetMathError/overdraft(transaction:balance:requested:)``,
  ///   ``BudgetMathError/unknownSession(id:transaction:)``,
  ///   ``BudgetMathError/sessionAlreadyUsed(id:transaction:)``,
  ///   ``BudgetMathError/sessionOverrun(id:reserved:used:)`` or
  ///   ``BudgetMathError/invalidValue(field:value:requirement:)``. Nothing changes when it throws.
  /// - Complexity: O(1) amortised.
  @discardableResult
  public mutating func apply(_ transaction: LedgerTransaction) throws(BudgetMathError)
    -> LedgerApplyResult
  {
    let transaction = try normalized(transaction)
    if let position = positions[transaction.id] {
      guard entries[position].transaction == transaction else {
        throw .conflictingTransaction(id: transaction.id)
      }
      return .alreadyApplied(entries[position])
    }
    let (entry, earningDay) = try effect(of: transaction, storedEarningDay: nil)
    record(entry, earningDay: earningDay)
    return .applied(entry)
  }

  // MARK: - Applying

  func normalized(_ transaction: LedgerTransaction) throws(BudgetMathError)
    -> LedgerTransaction
  {
    guard !transaction.id.isEmpty else {
      throw .invalidValue(field: "id", value: "\"\"", requirement: "not empty")
    }
    guard let instant = Milliseconds.instant(transaction.at) else {
      throw .invalidValue(
        field: "at", value: describe(transaction.at), requirement: "a representable instant")
    }
    return LedgerTransaction(
      id: transaction.id, at: Milliseconds.date(instant), kind: transaction.kind)
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
    let before = balance
    var xp = 0
    var available = Duration.zero
    var reserved = Duration.zero
    var capped = 0
    var earningDay: LocalDay?

    switch transaction.kind {
    case .earn(let earned):
      try Self.require(earned >= 1, "earn.xp", "\(earned)", "at least 1")
      if let cap = dailyEarningCap {
        let day: LocalDay
        if let storedEarningDay {
          day = storedEarningDay
        } else {
          day = try Self.day(of: transaction.at, boundary: cap.dayBoundary)
        }
        xp = min(earned, max(0, cap.xp - earnedPerDay[day, default: 0]))
        earningDay = day
      } else {
        xp = earned
      }
      capped = earned - xp
    case .redeem(let spent):
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
      xp = -(units * rate.experiencePoints)
      available = bought
    case .startSpending(let session, let reserve):
      try Self.require(!session.isEmpty, "startSpending.session", "\"\"", "not empty")
      try Self.requireWhole(reserve, positive: true, "startSpending.reserve")
      guard !usedSessions.contains(session) else {
        throw .sessionAlreadyUsed(id: session, transaction: id)
      }
      guard reserve <= before.available else {
        throw .overdraft(transaction: id, balance: "\(before.available)", requested: "\(reserve)")
      }
      available = .zero - reserve
      reserved = reserve
    case .endSpending(let session, let used):
      guard let reservation = openSessions[session] else {
        throw .unknownSession(id: session, transaction: id)
      }
      try Self.requireWhole(used, positive: false, "endSpending.used")
      guard used <= reservation else {
        throw .sessionOverrun(id: session, reserved: reservation, used: used)
      }
      reserved = .zero - reservation
      available = reservation - used
    case .adjust(let xpChange, let timeChange, let reason):
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
      xp = xpChange
      available = timeChange
    case .expire(let expiredXP, let expiredTime):
      try Self.require(expiredXP >= 0, "expire.xp", "\(expiredXP)", "zero or more")
      try Self.requireWhole(expiredTime, positive: false, "expire.time")
      guard expiredXP <= before.xp, expiredTime <= before.available else {
        throw .overdraft(
          transaction: id, balance: "\(before.xp) XP and \(before.available)",
          requested: "\(expiredXP) XP and \(expiredTime)")
      }
      xp = -expiredXP
      available = .zero - expiredTime
    }

    let (newXP, xpOverflow) = before.xp.addingReportingOverflow(xp)
    let newAvailable = before.available + available
    let newReserved = before.reserved + reserved
    guard !xpOverflow, Milliseconds.amount(newAvailable) != nil,
      Milliseconds.amount(newReserved) != nil
    else {
      throw .invalidValue(
        field: "balance", value: "\(before.xp) XP + \(xp), \(before.available) + \(available)",
        requirement: "a balance that fits in 64 bits (XP, and time in milliseconds)")
    }
    let entry = LedgerEntry(
      transaction: transaction, xpChange: xp, availableChange: available,
      reservedChange: reserved, cappedXP: capped,
      balanceAfter: RewardBalance(xp: newXP, available: newAvailable, reserved: newReserved))
    return (entry, earningDay)
  }

  /// The local day of `at` under `boundary`.
  private static func day(of at: Date, boundary: DayBoundary) throws(BudgetMathError) -> LocalDay {
    do {
      return try boundary.day(containing: at)
    } catch {
      throw .invalidValue(field: "at", value: describe(at), requirement: error.description)
    }
  }

  mutating func record(_ entry: LedgerEntry, earningDay: LocalDay?) {
    let transaction = entry.transaction
    positions[transaction.id] = entries.count
    entries.append(entry)
    switch transaction.kind {
    case .earn:
      if let earningDay {
        earnedPerDay[earningDay, default: 0] += entry.xpChange
        earningDays[transaction.id] = earningDay
      }
    case .startSpending(let session, let reserve):
      openSessions[session] = reserve
      usedSessions.insert(session)
    case .endSpending(let session, _):
      openSessions[session] = nil
    case .redeem, .adjust, .expire:
      break
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
