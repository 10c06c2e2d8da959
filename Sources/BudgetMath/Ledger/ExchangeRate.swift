import Foundation
import UsageModel

/// How many experience points buy how much screen time, such as 10 XP = 1 minute.
///
/// Conversions are exact: ``convert(_:)`` buys as many whole units of the rate as the XP allows
/// and returns the rest as XP, which stays on the ledger as credit. (`Int(Double(xp) / 10)`
/// minutes would drop the remainder: 95 XP would buy 9 minutes and 5 XP would vanish.)
///
/// ```swift
/// let rate = ExchangeRate.tenXPPerMinute
/// rate.convert(95)   // (time: 9 minutes, leftover: 5)
/// ```
///
/// JSON form: `{"xp": 10, "timeMs": 60000}`.
public struct ExchangeRate: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The experience points one unit of the rate costs.
  public let experiencePoints: Int
  /// The screen time one unit of the rate buys.
  public let time: Duration

  /// Ten experience points buy one minute.
  public static let tenXPPerMinute = ExchangeRate(uncheckedXP: 10, time: .seconds(60))

  /// Creates a rate.
  ///
  /// - Parameters:
  ///   - experiencePoints: The XP one unit costs, at least 1.
  ///   - time: The time one unit buys, more than zero and a whole number of milliseconds.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)``.
  public init(experiencePoints: Int, time: Duration) throws(BudgetMathError) {
    guard experiencePoints >= 1 else {
      throw .invalidValue(
        field: "exchangeRate.xp", value: "\(experiencePoints)", requirement: "at least 1")
    }
    guard time > .zero, Milliseconds.isWhole(time), Milliseconds.amount(time) != nil else {
      throw .invalidValue(
        field: "exchangeRate.time", value: "\(time)",
        requirement: "more than zero, in whole milliseconds")
    }
    self.experiencePoints = experiencePoints
    self.time = time
  }

  private init(uncheckedXP: Int, time: Duration) {
    experiencePoints = uncheckedXP
    self.time = time
  }

  /// Converts XP into time in whole units of the rate.
  ///
  /// Any XP converts without trapping: negative XP buys nothing, and time beyond
  /// `Int64.max` milliseconds (about 292 million years) saturates there — a ``RewardLedger``
  /// refuses such a redemption with a typed error instead of rounding it.
  ///
  /// - Parameter xp: The experience points to convert, zero or more.
  /// - Returns: The time bought and the XP left over (less than ``experiencePoints``).
  public func convert(_ xp: Int) -> (time: Duration, leftover: Int) {
    let units = max(0, xp) / experiencePoints
    return (
      exactTime(ofUnits: units) ?? .milliseconds(Int64.max), max(0, xp) - units * experiencePoints
    )
  }

  /// The time `units` whole units buy, or `nil` when it exceeds `Int64.max` milliseconds.
  func exactTime(ofUnits units: Int) -> Duration? {
    // `time` is a whole, representable number of milliseconds by construction.
    guard let each = Milliseconds.amount(time), units >= 0 else { return nil }
    let (product, overflow) = each.multipliedReportingOverflow(by: Int64(units))
    return overflow ? nil : .milliseconds(product)
  }

  /// `10 XP = 60.0 seconds`.
  public var description: String { "\(experiencePoints) XP = \(time)" }

  private enum CodingKeys: String, CodingKey {
    case xp, timeMs
  }

  /// Decodes the documented JSON form, validating it.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let xp = try container.decode(Int.self, forKey: .xp)
    let time = try container.decodeMilliseconds(forKey: .timeMs)
    do {
      try self.init(experiencePoints: xp, time: time)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .xp, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(experiencePoints, forKey: .xp)
    try container.encodeMilliseconds(time, forKey: .timeMs)
  }
}
