import BudgetMath
import Foundation

extension UsagePipeline {
  /// Applies one of the app's own transactions to the reward ledger — a redemption, a spending
  /// session — atomically with the state.
  ///
  /// - Parameter transaction: The transaction; its identifier makes a repeat a no-op.
  /// - Returns: What the ledger did.
  /// - Throws: ``PipelineError/budget(_:)`` for a transaction the ledger rejects (an overdraft,
  ///   an unknown session), with nothing changed, and the store's errors.
  @discardableResult
  public func apply(_ transaction: LedgerTransaction) throws(PipelineError) -> LedgerApplyResult {
    try ledgerJournal.update { fold throws(PipelineError) in
      do throws(BudgetMathError) {
        return try fold.ledger.apply(transaction)
      } catch {
        throw .budget(error)
      }
    }
  }

  /// Redeems every whole unit of XP in the reward ledger for screen time, atomically with the
  /// state: at 10 XP a minute, 105 XP buy 10 minutes and keep 5 XP as credit.
  ///
  /// - Parameters:
  ///   - id: The redemption's identifier; a repeat with the same identifier changes nothing and
  ///     reports the earlier redemption.
  ///   - at: When it happens.
  /// - Returns: What was redeemed, the time bought and the XP that remain; nothing is recorded
  ///   when less than one unit is available.
  /// - Throws: ``PipelineError/budget(_:)`` for an identifier already used by another kind of
  ///   transaction, and the store's errors.
  @discardableResult
  public func redeemAll(id: String, at: Date) throws(PipelineError) -> LedgerRedemption {
    try ledgerJournal.update { fold throws(PipelineError) in
      do throws(BudgetMathError) {
        return try fold.ledger.redeemAll(id: id, at: at)
      } catch {
        throw .budget(error)
      }
    }
  }

  /// The reward ledger: the usage credited, and the app's own redemptions and sessions.
  ///
  /// - Returns: The ledger, folded from its log (`<appStateKey>.ledger`).
  /// - Throws: ``PipelineError/store(_:)`` when the log cannot be read,
  ///   ``PipelineError/budget(_:)`` when a transaction in it does not apply.
  /// - Complexity: O(*t*) in the transactions the first time a process reads it, and when another
  ///   process appended since; O(1) otherwise.
  public func ledger() throws(PipelineError) -> RewardLedger {
    try ledgerJournal.fold().ledger
  }
}
