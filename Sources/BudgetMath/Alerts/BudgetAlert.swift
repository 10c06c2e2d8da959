import Foundation
import UsageModel

/// A budget threshold crossed for the first time in a window of days.
///
/// JSON form: `{"category": "social_media", "first": "2026-01-15", "last": "2026-01-15",
/// "thresholdPercent": 80, "usedMs": 2880000, "allowanceMs": 3600000}`.
public struct BudgetAlert: Sendable, Hashable, Codable {
  /// The budget's category.
  public let category: AppCategory
  /// The first day of the window (the day itself for a daily alert).
  public let first: LocalDay
  /// The last day of the window.
  public let last: LocalDay
  /// The threshold crossed, in percent of the allowance.
  public let thresholdPercent: Int
  /// The use when the crossing was noticed.
  public let used: Duration
  /// The allowance it was measured against.
  public let allowance: Duration

  /// The window's days.
  public var window: ClosedRange<LocalDay> { first...last }

  init(
    category: AppCategory, window: ClosedRange<LocalDay>, thresholdPercent: Int, used: Duration,
    allowance: Duration
  ) {
    self.category = category
    self.first = window.lowerBound
    self.last = window.upperBound
    self.thresholdPercent = thresholdPercent
    self.used = used
    self.allowance = allowance
  }

  private enum CodingKeys: String, CodingKey {
    case category, first, last, thresholdPercent, usedMs, allowanceMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    category = try container.decode(AppCategory.self, forKey: .category)
    first = try container.decode(LocalDay.self, forKey: .first)
    last = try container.decode(LocalDay.self, forKey: .last)
    guard first <= last else {
      throw DecodingError.dataCorruptedError(
        forKey: .last, in: container, debugDescription: "the window ends before it starts")
    }
    thresholdPercent = try container.decode(Int.self, forKey: .thresholdPercent)
    guard (1...1000).contains(thresholdPercent) else {
      throw DecodingError.dataCorruptedError(
        forKey: .thresholdPercent, in: container,
        debugDescription: "\(thresholdPercent) % is not a threshold; thresholds are 1 to 1000 %")
    }
    used = try container.decodeMilliseconds(forKey: .usedMs)
    allowance = try container.decodeMilliseconds(forKey: .allowanceMs)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError` when a duration is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(category, forKey: .category)
    try container.encode(first, forKey: .first)
    try container.encode(last, forKey: .last)
    try container.encode(thresholdPercent, forKey: .thresholdPercent)
    try container.encodeMilliseconds(used, forKey: .usedMs)
    try container.encodeMilliseconds(allowance, forKey: .allowanceMs)
  }
}
