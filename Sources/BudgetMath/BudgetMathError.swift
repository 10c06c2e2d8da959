import Foundation

/// Everything BudgetMath rejects, with the context needed to act on it.
///
/// An operation that throws changes nothing: a ledger keeps its entries, a session keeps its
/// history, an alert state keeps what it had already reported.
public enum BudgetMathError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A field has a value outside its allowed range.
  ///
  /// `field` names it (`"amount"`, `"exchangeRate.time"`, ...), `value` shows what was given
  /// and `requirement` what is allowed.
  case invalidValue(field: String, value: String, requirement: String)

  /// An amount cannot be split exactly in whole units of the chosen granularity.
  case amountNotWholeUnits(amount: Duration, granularity: AllowanceGranularity)

  /// A ledger transaction would take a balance below zero; nothing was applied.
  case overdraft(transaction: String, balance: String, requested: String)

  /// A transaction identifier was already used by a different transaction.
  case conflictingTransaction(id: String)

  /// A ledger transaction names a spending session that is not open.
  case unknownSession(id: String, transaction: String)

  /// A ledger transaction opens a spending session whose identifier was already used.
  case sessionAlreadyUsed(id: String, transaction: String)

  /// A spending session reported more use than it reserved.
  case sessionOverrun(id: String, reserved: Duration, used: Duration)

  /// A new transaction is dated before a compacted ledger's opening, where the transactions
  /// the ledger let go are: it could be one of them applied again, so it is refused.
  case transactionBeforeOpening(id: String, at: Date, opening: Date)

  /// A focus-session event is not allowed in the session's state at the event's instant.
  case illegalTransition(session: String, from: FocusPhase, event: FocusEventKind)

  /// An event is dated before the session's previous event.
  case eventOutOfOrder(session: String, event: FocusEventKind, at: Date, previous: Date)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let requirement):
      return "Invalid \(field) \(value): \(requirement)."
    case .amountNotWholeUnits(let amount, let granularity):
      return
        "\(amount) cannot be split into whole \(granularity.rawValue); "
        + "use an amount that is a whole number of \(granularity.rawValue) or a finer granularity."
    case .overdraft(let transaction, let balance, let requested):
      return
        "Transaction '\(transaction)' needs \(requested) but the balance is \(balance); "
        + "nothing was applied."
    case .conflictingTransaction(let id):
      return
        "Transaction id '\(id)' was already used by a different transaction; "
        + "a retried transaction must be identical to the original."
    case .unknownSession(let id, let transaction):
      return "Transaction '\(transaction)' refers to spending session '\(id)', which is not open."
    case .sessionAlreadyUsed(let id, let transaction):
      return
        "Transaction '\(transaction)' opens spending session '\(id)', an identifier already used; "
        + "each spending session needs its own."
    case .sessionOverrun(let id, let reserved, let used):
      return
        "Spending session '\(id)' reserved \(reserved) but reports \(used) used; "
        + "report at most the reserved time."
    case .transactionBeforeOpening(let id, let at, let opening):
      return
        "Transaction '\(id)' is dated \(describe(at)), before the ledger's opening at "
        + "\(describe(opening)): the ledger no longer keeps the transactions of that time, so "
        + "it cannot tell this one from a repeat; nothing was applied."
    case .illegalTransition(let session, let from, let event):
      return "Focus session '\(session)' cannot \(event.rawValue) while \(from.rawValue)."
    case .eventOutOfOrder(let session, let event, let at, let previous):
      return
        "Focus session '\(session)': \(event.rawValue) at \(describe(at)) is before the previous "
        + "event at \(describe(previous))."
    }
  }
}
