import Foundation
import UsageModel

/// A transaction as the ledger applied it: the changes it made and the balance after it.
///
/// Entries are derived: a ledger stores only its transactions and recomputes the entries by
/// replaying them, so the audit trail can never disagree with the balance.
public struct LedgerEntry: Sendable, Hashable {
  /// The transaction, its instant rounded to the millisecond.
  public let transaction: LedgerTransaction
  /// The change to the XP credit.
  public let xpChange: Int
  /// The change to the available time.
  public let availableChange: Duration
  /// The change to the reserved time.
  public let reservedChange: Duration
  /// Earned XP that was not credited because the daily earning cap was reached.
  public let cappedXP: Int
  /// The balance after this transaction.
  public let balanceAfter: RewardBalance
}

/// What applying a transaction did.
public enum LedgerApplyResult: Sendable, Hashable {
  /// The transaction was new and was applied.
  case applied(LedgerEntry)
  /// A transaction with this identifier was already applied, identically; nothing changed.
  case alreadyApplied(LedgerEntry)

  /// The entry of the transaction, new or earlier.
  public var entry: LedgerEntry {
    switch self {
    case .applied(let entry), .alreadyApplied(let entry): return entry
    }
  }
}

/// A cap on the XP a ledger credits per local day.
///
/// JSON form: `{"xp": 500, "dayBoundary": DayBoundary}`.
public struct DailyEarningCap: Sendable, Hashable, Codable {
  /// The most XP credited per local day.
  public let xp: Int
  /// Where local days begin, in which time zone.
  public let dayBoundary: DayBoundary

  /// Creates a cap.
  ///
  /// - Parameters:
  ///   - xp: The most XP credited per local day, zero or more.
  ///   - dayBoundary: Where local days begin.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a negative cap.
  public init(xp: Int, dayBoundary: DayBoundary) throws(BudgetMathError) {
    guard xp >= 0 else {
      throw .invalidValue(field: "dailyEarningCap.xp", value: "\(xp)", requirement: "zero or more")
    }
    self.xp = xp
    self.dayBoundary = dayBoundary
  }

  /// Decodes the documented JSON form, validating it.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a missing field or a negative cap.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        xp: container.decode(Int.self, forKey: .xp),
        dayBoundary: container.decode(DayBoundary.self, forKey: .dayBoundary))
    } catch let error as BudgetMathError {
      throw DecodingError.dataCorruptedError(
        forKey: .xp, in: container, debugDescription: error.description)
    }
  }

  private enum CodingKeys: String, CodingKey {
    case xp, dayBoundary
  }
}
