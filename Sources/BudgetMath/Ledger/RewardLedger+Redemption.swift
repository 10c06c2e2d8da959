import Foundation
import UsageModel

extension RewardLedger {
  /// Redeems all the XP credit that buys whole units of the ``rate``, and says what it bought.
  ///
  /// The "redeem everything" button: it converts as many whole units as the XP credit allows
  /// (95 XP at 10 XP a minute: 90 XP for 9 minutes) and leaves the rest as credit. The
  /// redemption is recorded as an ordinary ``LedgerTransaction/Kind/redeem(xp:)`` transaction of
  /// exactly the XP converted, so the stored JSON form, its replay and the audit trail are those
  /// of any redemption.
  ///
  /// - **Idempotent by identifier**, like ``apply(_:)``: when a redemption with `id` was already
  ///   recorded — by this method or by ``apply(_:)`` — the call changes nothing and reports it
  ///   as ``LedgerRedemption/Outcome/alreadyRedeemed``, whatever `at` says and however the
  ///   credit changed since. Give each tap its own identifier and reuse it on retry.
  /// - **Less than one unit is not an error**: the call records nothing and says
  ///   ``LedgerRedemption/Outcome/belowOneUnit``, with the credit in
  ///   ``LedgerRedemption/remainingXP``. Since nothing was recorded, the identifier stays
  ///   unused: a later call with it redeems what is redeemable then.
  ///
  /// ```swift
  /// try ledger.apply(LedgerTransaction(id: "task-1", at: now, kind: .earn(xp: 95)))
  /// let redemption = try ledger.redeemAll(id: "swap-1", at: now)
  /// redemption.redeemedXP    // 90
  /// redemption.timeBought    // 9 minutes
  /// redemption.remainingXP   // 5
  /// try ledger.redeemAll(id: "swap-1", at: later).outcome   // .alreadyRedeemed
  /// try ledger.redeemAll(id: "swap-2", at: later).outcome   // .belowOneUnit: 5 XP
  /// ```
  ///
  /// - Parameters:
  ///   - id: The redemption's identifier, not empty.
  ///   - at: When the redemption happens; rounded to the millisecond.
  /// - Returns: What was redeemed, the time it bought, the XP left, and the entry.
  /// - Throws: ``BudgetMathError/conflictingTransaction(id:)`` when `id` was used by a
  ///   transaction that is not a redemption, and
  ///   ``BudgetMathError/transactionBeforeOpening(id:at:opening:)`` for a redemption dated
  ///   before a compacted ledger's ``opening``, and
  ///   ``BudgetMathError/invalidValue(field:value:requirement:)`` for an empty identifier, an
  ///   instant out of range, or available time that would no longer fit in 64 bits of
  ///   milliseconds. Nothing changes when it throws.
  /// - Complexity: O(1) amortised.
  @discardableResult
  public mutating func redeemAll(id: String, at: Date) throws(BudgetMathError)
    -> LedgerRedemption
  {
    let checked = try normalized(LedgerTransaction(id: id, at: at, kind: .redeem(xp: 0)))
    if let position = positions[checked.id] {
      let earlier = entries[position]
      guard case .redeem = earlier.transaction.kind else {
        throw .conflictingTransaction(id: checked.id)
      }
      return LedgerRedemption(outcome: .alreadyRedeemed, entry: earlier, remainingXP: balance.xp)
    }
    let units = max(0, balance.xp) / rate.experiencePoints
    guard units > 0 else {
      return LedgerRedemption(outcome: .belowOneUnit, entry: nil, remainingXP: balance.xp)
    }
    let transaction = LedgerTransaction(
      id: checked.id, at: checked.at, kind: .redeem(xp: units * rate.experiencePoints))
    try checkAfterOpening(transaction)
    let (entry, earningDay) = try effect(of: transaction, storedEarningDay: nil)
    record(entry, earningDay: earningDay)
    return LedgerRedemption(outcome: .redeemed, entry: entry, remainingXP: balance.xp)
  }
}
