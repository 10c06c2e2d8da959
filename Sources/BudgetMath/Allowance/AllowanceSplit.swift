import UsageModel

/// Splits an amount of time into parts that add up to it exactly.
///
/// Part *i* of *n* gets `⌊(i+1)·U/n⌋ − ⌊i·U/n⌋` units, where *U* is the amount in units. The
/// parts therefore differ by at most one unit, add up to *U* exactly (the sum telescopes), and
/// the larger parts are spread evenly through the period rather than bunched at its start or
/// end. The rule is deterministic: the same amount and count always give the same parts.
///
/// For example 30 hours over a 31-day month, in minutes: 1,800 minutes = 31 × 58 + 2, so two
/// days get 59 minutes — days 16 and 31 — and the other 29 get 58; together, exactly 1,800.
/// (Truncating `Int(30 × 60 / 31)` = 58 for every day would lose 2 minutes a month.)
///
/// ```swift
/// let days = try AllowanceSplit.split(.seconds(30 * 3600), into: 31, granularity: .minutes)
/// days.reduce(.zero, +) == .seconds(30 * 3600)   // true
/// ```
public enum AllowanceSplit {
  /// The most parts a split makes: one per supported local day, 0001-01-01...9999-12-31.
  ///
  /// A larger count asks for an array no period needs and memory no device has.
  public static let maximumCount = LocalDay.supportedDayNumbers.count

  /// Splits `amount` into `count` parts of whole `granularity` units.
  ///
  /// - Parameters:
  ///   - amount: The time to split; zero or more, a whole number of `granularity` units.
  ///   - count: The number of parts, from 1 to ``maximumCount`` (the number of supported local
  ///     days: no period has more days to split an amount over).
  ///   - granularity: The unit of every part.
  /// - Returns: `count` parts, in order, adding up to `amount` exactly.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a negative amount
  ///   or a count outside 1...``maximumCount``,
  ///   ``BudgetMathError/amountNotWholeUnits(amount:granularity:)`` when `amount` is not a
  ///   whole number of units.
  /// - Complexity: O(*count*).
  public static func split(
    _ amount: Duration,
    into count: Int,
    granularity: AllowanceGranularity = .seconds
  ) throws(BudgetMathError) -> [Duration] {
    guard (1...maximumCount).contains(count) else {
      throw .invalidValue(
        field: "count", value: "\(count)", requirement: "1...\(maximumCount), one part per day")
    }
    let units = try wholeUnits(of: amount, granularity: granularity, field: "amount")
    return (0..<count).map { index in
      .milliseconds(part(index, of: count, units: units) * granularity.milliseconds)
    }
  }

  /// The number of units of part `index` (zero-based) of `count` parts of `units` units.
  static func part(_ index: Int, of count: Int, units: Int64) -> Int64 {
    cumulative(index + 1, of: count, units: units) - cumulative(index, of: count, units: units)
  }

  /// `⌊index · units / count⌋`, computed without overflow.
  static func cumulative(_ index: Int, of count: Int, units: Int64) -> Int64 {
    let product = units.multipliedFullWidth(by: Int64(index))
    return Int64(count).dividingFullWidth(product).quotient
  }

  /// `amount` in whole units of `granularity`.
  static func wholeUnits(
    of amount: Duration,
    granularity: AllowanceGranularity,
    field: String
  ) throws(BudgetMathError) -> Int64 {
    guard amount >= .zero else {
      throw .invalidValue(field: field, value: "\(amount)", requirement: "zero or more")
    }
    guard Milliseconds.isWhole(amount), let milliseconds = Milliseconds.amount(amount),
      milliseconds % granularity.milliseconds == 0
    else {
      throw .amountNotWholeUnits(amount: amount, granularity: granularity)
    }
    return milliseconds / granularity.milliseconds
  }
}
