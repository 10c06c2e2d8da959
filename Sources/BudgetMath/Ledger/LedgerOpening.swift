import Foundation
import UsageModel

/// What a reward ledger carries over from the transactions it no longer keeps: the balance they
/// left, the spending sessions still open, and the XP each recent day earned against the cap.
///
/// A ledger keeps every transaction until it is compacted (``RewardLedger/compacted(before:)``);
/// a compacted ledger starts from its opening and keeps only the transactions after it. Every
/// transaction it let go is dated before ``through``, and every transaction it keeps is dated at
/// or after it, so the rule that keeps a compacted ledger from applying a forgotten transaction
/// again is one comparison: a new transaction dated before ``through`` is refused
/// (``BudgetMathError/transactionBeforeOpening(id:at:opening:)``).
///
/// JSON form: `{"through": "2026-01-02T00:00:00Z", "balance": RewardBalance, "openSessions":
/// {"s1": 600000}, "earnedPerDay": {"2026-01-01": 120}}`: the open sessions' reservations in
/// milliseconds, and the XP earned per local day of the ledger's cap (absent without a cap).
public struct LedgerOpening: Sendable, Hashable, Codable {
  /// The instant every transaction let go is dated before, and every transaction kept at or
  /// after; a new transaction dated before it is refused.
  public let through: Date
  /// The balance after the transactions let go.
  public let balance: RewardBalance
  /// The spending sessions open after the transactions let go, with the time each reserved.
  public let openSessions: [String: Duration]
  /// The XP credited per local day of the ledger's ``DailyEarningCap``, for the days a new
  /// transaction can still earn on: from the day before the one containing ``through``.
  public let earnedPerDay: [LocalDay: Int]

  /// Creates an opening.
  ///
  /// - Parameters:
  ///   - through: Every transaction let go is dated before this instant.
  ///   - balance: The balance after them; its time in whole milliseconds.
  ///   - openSessions: The sessions open after them, each with its reservation; their sum is
  ///     the balance's reserved time.
  ///   - earnedPerDay: The XP earned per local day of the cap, for the days still open to it.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a negative
  ///   balance, a reservation that is not positive whole milliseconds, reservations that do not
  ///   add up to the reserved time, a negative day's XP, or an instant out of range.
  public init(
    through: Date, balance: RewardBalance, openSessions: [String: Duration] = [:],
    earnedPerDay: [LocalDay: Int] = [:]
  ) throws(BudgetMathError) {
    guard let instant = Milliseconds.instant(through) else {
      throw .invalidValue(
        field: "opening.through", value: "\(through)", requirement: "a representable instant")
    }
    guard balance.xp >= 0, balance.available >= .zero, balance.reserved >= .zero,
      Milliseconds.isWhole(balance.available), Milliseconds.isWhole(balance.reserved)
    else {
      throw .invalidValue(
        field: "opening.balance", value: "\(balance)",
        requirement: "zero or more XP and time, in whole milliseconds")
    }
    // Summed in milliseconds with overflow checked: a stored opening is untrusted input.
    var reserved: Int64 = 0
    for (session, reserve) in openSessions {
      guard !session.isEmpty, reserve > .zero, Milliseconds.isWhole(reserve),
        let amount = Milliseconds.amount(reserve),
        case (let sum, false) = reserved.addingReportingOverflow(amount)
      else {
        throw .invalidValue(
          field: "opening.openSessions[\(session.debugDescription)]", value: "\(reserve)",
          requirement: "a named session reserving more than zero, in whole milliseconds, "
            + "all of them together within 64 bits of milliseconds")
      }
      reserved = sum
    }
    guard Milliseconds.amount(balance.reserved) == reserved else {
      throw .invalidValue(
        field: "opening.openSessions", value: "\(reserved) ms reserved in all",
        requirement: "the balance's reserved time, \(balance.reserved)")
    }
    guard earnedPerDay.values.allSatisfy({ $0 >= 0 }) else {
      throw .invalidValue(
        field: "opening.earnedPerDay", value: "\(earnedPerDay.values.min() ?? 0)",
        requirement: "zero or more XP a day")
    }
    self.through = Milliseconds.date(instant)
    self.balance = balance
    self.openSessions = openSessions
    self.earnedPerDay = earnedPerDay
  }

  private enum CodingKeys: String, CodingKey {
    case through, balance, openSessions, earnedPerDay
  }

  /// Decodes the documented JSON form, validating it as ``init(through:balance:openSessions:earnedPerDay:)`` does.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let through = Milliseconds.date(try container.decodeInstant(forKey: .through))
    let balance = try container.decode(RewardBalance.self, forKey: .balance)
    let sessions = try container.decodeIfPresent([String: Int64].self, forKey: .openSessions)
    var earned: [LocalDay: Int] = [:]
    for (day, xp) in try container.decodeIfPresent([String: Int].self, forKey: .earnedPerDay)
      ?? [:]
    {
      do {
        earned[try LocalDay(parsing: day)] = xp
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .earnedPerDay, in: container, debugDescription: error.description)
      }
    }
    do {
      try self.init(
        through: through, balance: balance,
        openSessions: (sessions ?? [:]).mapValues { .milliseconds($0) }, earnedPerDay: earned)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .balance, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    guard let instant = Milliseconds.instant(through) else {
      throw EncodingError.invalidValue(
        through,
        .init(
          codingPath: container.codingPath + [CodingKeys.through], debugDescription: "out of range")
      )
    }
    try container.encodeInstant(instant, forKey: .through)
    try container.encode(balance, forKey: .balance)
    if !openSessions.isEmpty {
      try container.encode(
        openSessions.mapValues { Milliseconds.amount($0) ?? 0 }, forKey: .openSessions)
    }
    if !earnedPerDay.isEmpty {
      try container.encode(
        Dictionary(uniqueKeysWithValues: earnedPerDay.map { ($0.key.description, $0.value) }),
        forKey: .earnedPerDay)
    }
  }
}
