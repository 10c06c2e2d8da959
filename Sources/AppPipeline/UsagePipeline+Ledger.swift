import BudgetMath
import Foundation
import UsageModel

extension UsagePipeline {
  /// Applies one of the app's own transactions to the reward ledger — a redemption, a spending
  /// session — atomically with the state.
  ///
  /// A ledger found damaged, or behind the app's last transaction, is first quarantined and
  /// rebuilt at a balance of zero (``PipelineRecovery``): nothing is paid from transactions that
  /// may have been spent already. A drain compacts the ledger at the retention, after which it
  /// refuses a transaction dated before its ``/BudgetMath/RewardLedger/opening``: the app
  /// state's format article says when.
  ///
  /// - Parameter transaction: The transaction; its identifier makes a repeat a no-op.
  /// - Returns: What the ledger did.
  /// - Throws: ``PipelineError/budget(_:)`` for a transaction the ledger rejects (an overdraft,
  ///   an unknown session, a date before the ledger's opening), with nothing changed, and the
  ///   store's errors.
  @discardableResult
  public func apply(_ transaction: LedgerTransaction) throws(PipelineError) -> LedgerApplyResult {
    try changingLedger(at: transaction.at) { fold throws(PipelineError) in
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
  /// The rate is the ledger's, kept in its log since the ledger was created
  /// (``PipelineConfiguration/exchangeRate`` then), not the configuration's now. A ledger found
  /// damaged, or behind the app's last transaction, is first quarantined and rebuilt at a
  /// balance of zero, as ``apply(_:)`` does.
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
    try changingLedger(at: at) { fold throws(PipelineError) in
      do throws(BudgetMathError) {
        return try fold.ledger.redeemAll(id: id, at: at)
      } catch {
        throw .budget(error)
      }
    }
  }

  /// Makes one of the app's own changes to the ledger, and records in the state the ledger's
  /// position after it, so that a ledger that later goes back is found (see `PipelineRecovery`).
  ///
  /// A ledger found damaged or gone back first is quarantined and rebuilt at a balance of zero:
  /// a redemption is never paid from transactions that may have been spent already. A kill
  /// between the change and the record of its position loses nothing: the ledger is only ahead
  /// of the state.
  private func changingLedger<Result>(
    at date: Date, _ change: (inout LedgerJournal.Fold) throws(PipelineError) -> Result
  ) throws(PipelineError) -> Result {
    var recoveries: [PipelineRecovery] = []
    let result = try healing(now: Milliseconds.clampedInstant(date), into: &recoveries) {
      () throws(PipelineError) -> Result in
      try checkLedgerWentBack(try state())
      return try ledgerJournal.update(change)
    }
    guard let position = try ledgerPosition(), try state().ledgerMark != position else {
      return result
    }
    try updateState { state throws(PipelineError) in
      // Forward only, and only on the log this change was made to: another app process may
      // have rebuilt the ledger since (a new log, whose mark its rebuild recorded), and the mark
      // of the log it replaced would make every later check find the new one gone back.
      if let mark = state.ledgerMark,
        mark.identity != position.identity || mark.next >= position.next
      {
        return
      }
      state.ledgerMark = position
    }
    return result
  }

  /// The reward ledger: the usage credited, and the app's own redemptions and sessions.
  ///
  /// Its `rate` is the one it was created with, kept in its log: the configuration's
  /// ``PipelineConfiguration/exchangeRate`` when the ledger was created, or rebuilt after damage.
  ///
  /// - Returns: The ledger, folded from its log (`<appStateKey>.ledger`).
  /// - Throws: ``PipelineError/store(_:)`` when the log cannot be read, also with
  ///   `SharedStoreError.decoding` when a transaction in it does not apply: this accessor only
  ///   reads; the next wake, dashboard or transaction rebuilds a damaged ledger.
  /// - Complexity: O(*t*) in the transactions the first time a process reads it, and when another
  ///   process appended since; O(1) otherwise.
  public func ledger() throws(PipelineError) -> RewardLedger {
    try ledgerJournal.fold().ledger
  }
}
