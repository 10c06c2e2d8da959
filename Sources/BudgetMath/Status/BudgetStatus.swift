import Foundation
import UsageModel

/// Use against an allowance: what a budget's progress bar and over-budget flag need.
///
/// Everything is derived from ``used`` and ``allowance``; the ``level`` uses exact integer
/// comparisons, so 48 minutes of a 60-minute allowance is a warning at 80 % however the numbers
/// are represented.
///
/// ```swift
/// let status = try BudgetStatus(used: .seconds(65 * 60), allowance: .seconds(60 * 60))
/// status.level      // .over
/// status.overage    // 5 minutes
/// status.remaining  // 0
/// ```
///
/// JSON form: `{"usedMs": 3900000, "allowanceMs": 3600000, "warningPercent": 80, "level":
/// "over"}`; the other properties are derived and not stored. Decoding derives the level again
/// and rejects a stored level that disagrees.
public struct BudgetStatus: Sendable, Hashable, Codable {
  /// The time used.
  public let used: Duration
  /// The time allowed.
  public let allowance: Duration
  /// How the use stands against the allowance.
  public let level: BudgetLevel
  /// The share of the allowance, in percent, from which the level is a warning.
  public let warningPercent: Int

  /// Creates a status, deriving its level.
  ///
  /// The level is ``BudgetLevel/over`` when `used > allowance`, ``BudgetLevel/warning`` when
  /// `used ≥ allowance × warningPercent / 100` (and `used > 0`), ``BudgetLevel/under``
  /// otherwise — or ``BudgetLevel/excluded`` for an excluded category.
  ///
  /// - Parameters:
  ///   - used: The time used; zero or more.
  ///   - allowance: The time allowed; zero or more.
  ///   - warningPercent: The share of the allowance, 1 to 100, from which the level is a
  ///     warning; 80 unless you choose otherwise.
  ///   - isExcluded: Whether the category is excluded from budgeting.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a negative time
  ///   or a warning percentage outside 1...100.
  public init(
    used: Duration,
    allowance: Duration,
    warningPercent: Int = 80,
    isExcluded: Bool = false
  ) throws(BudgetMathError) {
    guard used >= .zero else {
      throw .invalidValue(field: "used", value: "\(used)", requirement: "zero or more")
    }
    guard allowance >= .zero else {
      throw .invalidValue(field: "allowance", value: "\(allowance)", requirement: "zero or more")
    }
    guard (1...100).contains(warningPercent) else {
      throw .invalidValue(
        field: "warningPercent", value: "\(warningPercent)", requirement: "1 to 100")
    }
    self.used = used
    self.allowance = allowance
    self.warningPercent = warningPercent
    if isExcluded {
      level = .excluded
    } else if used > allowance {
      level = .over
    } else if used > .zero, Self.reaches(used, percent: warningPercent, of: allowance) {
      level = .warning
    } else {
      level = .under
    }
  }

  /// The time left before the allowance is used up; zero when it is.
  public var remaining: Duration { max(.zero, allowance - used) }
  /// The time used beyond the allowance; zero when within it.
  public var overage: Duration { max(.zero, used - allowance) }
  /// Whether more than the allowance was used.
  public var isOverBudget: Bool { level == .over }

  /// `used / allowance` for display (a progress bar), or `nil` when the allowance is zero.
  ///
  /// For display only: decisions use ``level``, which is computed exactly.
  public var fraction: Double? {
    guard allowance > .zero else { return nil }
    return used / allowance
  }

  /// Whether `used × 100 ≥ allowance × percent`, exactly.
  static func reaches(_ used: Duration, percent: Int, of allowance: Duration) -> Bool {
    let usedMilliseconds = Milliseconds.amount(used) ?? .max
    let allowanceMilliseconds = Milliseconds.amount(allowance) ?? .max
    let left = usedMilliseconds.multipliedFullWidth(by: 100)
    let right = allowanceMilliseconds.multipliedFullWidth(by: Int64(percent))
    return (left.high, left.low) >= (right.high, right.low)
  }

  private enum CodingKeys: String, CodingKey {
    case usedMs, allowanceMs, warningPercent, level
  }

  /// Decodes the documented JSON form, deriving the level again.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field, or a stored level that does
  ///   not follow from the stored use and allowance.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let stored = try container.decode(BudgetLevel.self, forKey: .level)
    do {
      try self.init(
        used: container.decodeMilliseconds(forKey: .usedMs),
        allowance: container.decodeMilliseconds(forKey: .allowanceMs),
        warningPercent: container.decode(Int.self, forKey: .warningPercent),
        isExcluded: stored == .excluded)
    } catch let error as BudgetMathError {
      throw DecodingError.dataCorruptedError(
        forKey: .warningPercent, in: container, debugDescription: error.description)
    }
    guard level == stored else {
      throw DecodingError.dataCorruptedError(
        forKey: .level, in: container,
        debugDescription: "the stored level \(stored) does not follow from the use and allowance, "
          + "which give \(level)")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError` when a duration is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeMilliseconds(used, forKey: .usedMs)
    try container.encodeMilliseconds(allowance, forKey: .allowanceMs)
    try container.encode(warningPercent, forKey: .warningPercent)
    try container.encode(level, forKey: .level)
  }
}
