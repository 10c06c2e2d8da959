import Foundation
import UsageModel

/// A time budget for one category of apps over a period, such as "30 hours of social media a
/// month".
///
/// The period's amount is handed out as one allowance per local day (see
/// ``baseAllowances(forPeriodContaining:planStart:)``): split in whole ``granularity`` units, the
/// days of a period add up to the amount exactly and differ by at most one unit. With a
/// ``rollover`` policy, time a day leaves unused is added to the next day's allowance, up to a
/// cap. An excluded budget (``isExcluded``) tracks a category without limiting it: its use is
/// shown, never counted against a limit.
///
/// ```swift
/// let social = try Budget(category: .socialMedia, period: .month, amount: .seconds(30 * 3600))
/// let january = try LocalDay(year: 2026, month: 1, day: 15)
/// social.baseAllowance(on: january)   // 58 min 3 s or 58 min 4 s: 108,000 s over 31 days
/// ```
///
/// JSON form: `{"category": "social_media", "period": {"kind": "month"}, "amountMs": 108000000,
/// "isExcluded": false, "granularity": "seconds", "rollover": {"capMs": 1800000}}`, `rollover`
/// absent when there is none.
public struct Budget: Sendable, Hashable, Codable {
  /// The category the budget limits.
  public let category: AppCategory
  /// The stretch of days the amount covers.
  public let period: BudgetPeriod
  /// The time allowed per period.
  public let amount: Duration
  /// Whether the category is tracked but not limited.
  public let isExcluded: Bool
  /// The unit of every daily allowance.
  public let granularity: AllowanceGranularity
  /// How unused time carries into the next day, or `nil` for no rollover.
  public let rollover: RolloverPolicy?

  /// Creates a budget.
  ///
  /// - Parameters:
  ///   - category: The category limited.
  ///   - period: The stretch of days `amount` covers.
  ///   - amount: The time per period: zero or more, a whole number of `granularity` units.
  ///   - isExcluded: Track the category without limiting it; `false` unless you say so.
  ///   - granularity: The unit of the daily allowances; seconds unless you choose minutes.
  ///   - rollover: How unused time carries over, if at all.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a negative amount,
  ///   ``BudgetMathError/amountNotWholeUnits(amount:granularity:)`` when the amount is not a
  ///   whole number of units.
  public init(
    category: AppCategory,
    period: BudgetPeriod,
    amount: Duration,
    isExcluded: Bool = false,
    granularity: AllowanceGranularity = .seconds,
    rollover: RolloverPolicy? = nil
  ) throws(BudgetMathError) {
    _ = try AllowanceSplit.wholeUnits(of: amount, granularity: granularity, field: "amount")
    self.category = category
    self.period = period
    self.amount = amount
    self.isExcluded = isExcluded
    self.granularity = granularity
    self.rollover = rollover
  }

  private enum CodingKeys: String, CodingKey {
    case category, period, amountMs, isExcluded, granularity, rollover
  }

  /// Decodes the documented JSON form, validating it as ``init(category:period:amount:isExcluded:granularity:rollover:)`` does.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming the field that is missing or invalid.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let granularity =
      try container.decodeIfPresent(AllowanceGranularity.self, forKey: .granularity) ?? .seconds
    do {
      try self.init(
        category: container.decode(AppCategory.self, forKey: .category),
        period: container.decode(BudgetPeriod.self, forKey: .period),
        amount: container.decodeMilliseconds(forKey: .amountMs),
        isExcluded: container.decodeIfPresent(Bool.self, forKey: .isExcluded) ?? false,
        granularity: granularity,
        rollover: container.decodeIfPresent(RolloverPolicy.self, forKey: .rollover))
    } catch let error as BudgetMathError {
      throw DecodingError.dataCorruptedError(
        forKey: .amountMs, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(category, forKey: .category)
    try container.encode(period, forKey: .period)
    try container.encodeMilliseconds(amount, forKey: .amountMs)
    try container.encode(isExcluded, forKey: .isExcluded)
    try container.encode(granularity, forKey: .granularity)
    try container.encodeIfPresent(rollover, forKey: .rollover)
  }
}

/// How much unused allowance carries into the next day.
///
/// A day's unused time — its allowance, including what it carried in, minus its use, when that
/// is positive — is added to the next day's allowance, but never more than ``cap``. Rollover
/// chains run inside one window of days (by default the budget's period) and start afresh with
/// nothing carried into the window's first day.
///
/// JSON form: `{"capMs": 1800000}`.
public struct RolloverPolicy: Sendable, Hashable, Codable {
  /// The most time carried into any one day.
  public let cap: Duration

  /// Creates a policy.
  ///
  /// - Parameter cap: The most carried into a day; zero or more, a whole number of milliseconds.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)``.
  public init(cap: Duration) throws(BudgetMathError) {
    guard cap >= .zero, Milliseconds.isWhole(cap) else {
      throw .invalidValue(
        field: "rollover.cap", value: "\(cap)", requirement: "zero or more whole milliseconds")
    }
    self.cap = cap
  }

  private enum CodingKeys: String, CodingKey {
    case capMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a missing or negative cap.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    cap = try container.decodeMilliseconds(forKey: .capMs)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeMilliseconds(cap, forKey: .capMs)
  }
}
