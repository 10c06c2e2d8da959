import BudgetMath
import UsageModel

/// How usage earns experience points: a whole number of XP per whole minute of use, per category.
///
/// The app side of the pipeline credits a reward ledger from the usage it derives: for each app
/// in each monitoring interval, the XP of its usage so far, counted in whole minutes,
/// `xpPerMinute[category] × ⌊usage / 1 min⌋`. As the usage grows, only the difference is
/// credited, under an identifier that names the interval, the app and the new total, so that the
/// sum credited for an interval is exactly the XP of its usage, however the facts arrived and
/// however often the pipeline drains (learning earns screen time, say).
///
/// ```swift
/// let rewards = try UsageRewards(xpPerMinute: [.education: 12])  // 12 XP per minute of learning
/// ```
///
/// JSON form: `{"xpPerMinute": {"education": 12}}`.
public struct UsageRewards: Sendable, Hashable, Codable {
  /// The XP one whole minute of use earns, by category; categories not listed earn nothing.
  public let xpPerMinute: [AppCategory: Int]

  /// Creates a mapping.
  ///
  /// - Parameter xpPerMinute: XP per whole minute, by category; each at least 1.
  /// - Throws: `BudgetMathError.invalidValue(field:value:requirement:)` for a rate below 1.
  public init(xpPerMinute: [AppCategory: Int]) throws(BudgetMathError) {
    for (category, rate) in xpPerMinute where rate < 1 {
      throw .invalidValue(
        field: "xpPerMinute[\(category)]", value: "\(rate)", requirement: "at least 1")
    }
    self.xpPerMinute = xpPerMinute
  }

  /// The XP that `usage` of an app in `category` earns: whole minutes only, saturating.
  ///
  /// - Parameters:
  ///   - usage: The app's usage in one monitoring interval.
  ///   - category: The app's category.
  /// - Returns: The XP, zero for a category that earns nothing.
  public func experiencePoints(for usage: Duration, in category: AppCategory) -> Int {
    guard let rate = xpPerMinute[category], usage > .zero else { return 0 }
    let minutes = Int(clamping: usage.components.seconds / 60)
    let (product, overflow) = minutes.multipliedReportingOverflow(by: rate)
    return overflow ? .max : product
  }

  private enum CodingKeys: String, CodingKey {
    case xpPerMinute
  }

  /// Decodes the documented JSON form, validating it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field, an invalid category or a rate below 1.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let raw = try container.decode([String: Int].self, forKey: .xpPerMinute)
    var rates: [AppCategory: Int] = [:]
    for (name, rate) in raw {
      guard let category = AppCategory(rawValue: name) else {
        throw DecodingError.dataCorruptedError(
          forKey: .xpPerMinute, in: container, debugDescription: "invalid category \(name)")
      }
      rates[category] = rate
    }
    do {
      try self.init(xpPerMinute: rates)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .xpPerMinute, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(
      Dictionary(uniqueKeysWithValues: xpPerMinute.map { ($0.key.rawValue, $0.value) }),
      forKey: .xpPerMinute)
  }
}
