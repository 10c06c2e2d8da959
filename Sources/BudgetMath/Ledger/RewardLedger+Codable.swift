import Foundation
import UsageModel

extension RewardLedger {
  private enum CodingKeys: String, CodingKey {
    case rate, dailyEarningCap, opening, transactions, earningDays
  }

  /// Decodes the documented JSON form and replays its transactions.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a missing or invalid field, or for a transaction that
  ///   ``apply(_:)`` would reject.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let rate = try container.decode(ExchangeRate.self, forKey: .rate)
    let cap = try container.decodeIfPresent(DailyEarningCap.self, forKey: .dailyEarningCap)
    if let opening = try container.decodeIfPresent(LedgerOpening.self, forKey: .opening) {
      self.init(rate: rate, dailyEarningCap: cap, opening: opening)
    } else {
      self.init(rate: rate, dailyEarningCap: cap)
    }
    let storedDays =
      try container.decodeIfPresent([String: LocalDay].self, forKey: .earningDays) ?? [:]
    for transaction in try container.decode([LedgerTransaction].self, forKey: .transactions) {
      do {
        let transaction = try normalized(transaction)
        guard positions[transaction.id] == nil else {
          throw BudgetMathError.conflictingTransaction(id: transaction.id)
        }
        try checkAfterOpening(transaction)
        let (entry, earningDay) = try effect(
          of: transaction, storedEarningDay: storedDays[transaction.id])
        record(entry, earningDay: earningDay)
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .transactions, in: container,
          debugDescription: "transaction '\(transaction.id)' cannot be replayed: \(error)")
      }
    }
  }

  /// Encodes the documented JSON form: the rate, the cap, the opening and the transactions.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(rate, forKey: .rate)
    try container.encodeIfPresent(dailyEarningCap, forKey: .dailyEarningCap)
    try container.encodeIfPresent(opening, forKey: .opening)
    try container.encode(transactions, forKey: .transactions)
    if !earningDays.isEmpty { try container.encode(earningDays, forKey: .earningDays) }
  }

  /// Two ledgers are equal when they have the same rate, cap, opening and transactions.
  ///
  /// - Parameters:
  ///   - lhs: A ledger.
  ///   - rhs: Another ledger.
  /// - Returns: Whether they are equal.
  public static func == (lhs: RewardLedger, rhs: RewardLedger) -> Bool {
    lhs.rate == rhs.rate && lhs.dailyEarningCap == rhs.dailyEarningCap
      && lhs.opening == rhs.opening && lhs.entries == rhs.entries
  }

  /// Hashes the rate, the cap, the opening and the transactions.
  ///
  /// - Parameter hasher: The hasher to use.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rate)
    hasher.combine(dailyEarningCap)
    hasher.combine(opening)
    hasher.combine(entries)
  }
}
