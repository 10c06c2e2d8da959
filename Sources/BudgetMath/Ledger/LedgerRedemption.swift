import Foundation
import UsageModel

/// What ``RewardLedger/redeemAll(id:at:)`` did: the XP it redeemed, the time that bought, the XP
/// left as credit, and the ledger entry.
///
/// ```swift
/// let redemption = try ledger.redeemAll(id: tapID, at: now)
/// switch redemption.outcome {
/// case .redeemed, .alreadyRedeemed: show("\(redemption.timeBought) added")
/// case .belowOneUnit: show("\(redemption.remainingXP) XP — not enough for a minute yet")
/// }
/// ```
public struct LedgerRedemption: Sendable, Hashable {
  /// Whether a redemption was recorded, found, or not possible.
  public enum Outcome: String, Sendable, Hashable, CaseIterable {
    /// This call recorded a redemption.
    case redeemed
    /// A redemption with this identifier was recorded earlier; this call changed nothing and
    /// reports that redemption.
    case alreadyRedeemed
    /// The XP credit was less than one unit of the rate; nothing was recorded.
    case belowOneUnit
  }

  /// Whether a redemption was recorded, found, or not possible.
  public let outcome: Outcome
  /// The XP converted: a whole number of units of the rate; zero for
  /// ``Outcome/belowOneUnit``.
  public let redeemedXP: Int
  /// The time the redeemed XP bought; zero for ``Outcome/belowOneUnit``.
  public let timeBought: Duration
  /// The XP credit left on the ledger after the call, less than one unit of the rate right after
  /// a redemption.
  public let remainingXP: Int
  /// The redemption's entry: the new one, or the earlier one for ``Outcome/alreadyRedeemed``;
  /// `nil` for ``Outcome/belowOneUnit``.
  public let entry: LedgerEntry?

  /// Creates the result of a call to ``RewardLedger/redeemAll(id:at:)``.
  ///
  /// - Parameters:
  ///   - outcome: Whether a redemption was recorded, found, or not possible.
  ///   - entry: The redemption's entry, if any.
  ///   - remainingXP: The XP credit left on the ledger.
  init(outcome: Outcome, entry: LedgerEntry?, remainingXP: Int) {
    self.outcome = outcome
    self.entry = entry
    self.redeemedXP = entry.map { -$0.xpChange } ?? 0
    self.timeBought = entry?.availableChange ?? .zero
    self.remainingXP = remainingXP
  }
}
