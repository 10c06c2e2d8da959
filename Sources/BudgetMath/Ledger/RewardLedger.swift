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
/// - **Compact** a ledger that has kept transactions for long enough: ``compacted(before:)``
///   lets go of the older ones and keeps what they left as its ``opening``.
///
/// JSON form: `{"rate": ExchangeRate, "dailyEarningCap": DailyEarningCap, "opening":
/// LedgerOpening, "transactions": [LedgerTransaction, …], "earningDays": {"task-17":
/// "2026-01-02", …}}`, the cap absent when there is none and the opening when the ledger was
/// never compacted. `earningDays` records the local day each capped earning counted for when it
/// was applied, so that a change in the time zone's rules (a country dropping DST) cannot move
/// an earning to another day on replay. Decoding replays the transactions and fails if any would
/// be rejected, so a stored ledger is always one that ``apply(_:)`` could have built.
public struct RewardLedger: Sendable, Hashable, Codable {
  /// How XP converts into time.
  public let rate: ExchangeRate
  /// The most XP credited per local day, if capped.
  public let dailyEarningCap: DailyEarningCap?
  /// What the ledger carries over from the transactions a compaction let go
  /// (``compacted(before:)``); `nil` for a ledger that keeps every transaction.
  public internal(set) var opening: LedgerOpening?
  /// Every applied transaction with its effects, in the order applied, after the ``opening``.
  public internal(set) var entries: [LedgerEntry] = []

  var positions: [String: Int] = [:]
  var earnedPerDay: [LocalDay: Int] = [:]
  /// The local day each capped earning counted for, by transaction identifier.
  var earningDays: [String: LocalDay] = [:]
  var openSessions: [String: Duration] = [:]
  var usedSessions: Set<String> = []

  /// Creates an empty ledger.
  ///
  /// - Parameters:
  ///   - rate: How XP converts into time.
  ///   - dailyEarningCap: The most XP credited per local day; no cap unless given.
  public init(rate: ExchangeRate, dailyEarningCap: DailyEarningCap? = nil) {
    self.rate = rate
    self.dailyEarningCap = dailyEarningCap
  }

  /// Creates a ledger that starts from `opening`, as a compacted one does.
  ///
  /// - Parameters:
  ///   - rate: How XP converts into time.
  ///   - dailyEarningCap: The most XP credited per local day; no cap unless given.
  ///   - opening: The balance, open sessions and capped days the ledger starts from; it
  ///     refuses new transactions dated before `opening.through`.
  public init(rate: ExchangeRate, dailyEarningCap: DailyEarningCap? = nil, opening: LedgerOpening) {
    self.init(rate: rate, dailyEarningCap: dailyEarningCap)
    self.opening = opening
    openSessions = opening.openSessions
    usedSessions = Set(opening.openSessions.keys)
    earnedPerDay = opening.earnedPerDay
  }

  /// The current balance, after every applied transaction.
  public var balance: RewardBalance { entries.last?.balanceAfter ?? opening?.balance ?? .zero }

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
  ///   ``BudgetMathError/sessionOverrun(id:reserved:used:)``,
  ///   ``BudgetMathError/transactionBeforeOpening(id:at:opening:)`` for a new transaction dated
  ///   before a compacted ledger's ``opening``, or
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
    try checkAfterOpening(transaction)
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

  /// Refuses a new transaction dated before the ``opening``: every transaction a compaction let
  /// go is dated before it, so such a transaction may be one of them, applied again.
  func checkAfterOpening(_ transaction: LedgerTransaction) throws(BudgetMathError) {
    if let opening, transaction.at < opening.through {
      throw .transactionBeforeOpening(
        id: transaction.id, at: transaction.at, opening: opening.through)
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
}
