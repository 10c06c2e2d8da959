import Foundation
import UsageModel

/// One local day's allowance: its share of the period's amount plus anything carried in.
///
/// JSON form: `{"day": "2026-01-15", "baseMs": 3484000, "carriedInMs": 0}`.
public struct DayAllowance: Sendable, Hashable, Codable {
  /// The local day.
  public let day: LocalDay
  /// The day's share of its period's amount (zero before a plan's start).
  public let base: Duration
  /// Unused time carried in from the previous day under a rollover policy.
  public let carriedIn: Duration

  /// Creates a day's allowance.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - base: Its share of the period's amount.
  ///   - carriedIn: Time carried in from the previous day.
  public init(day: LocalDay, base: Duration, carriedIn: Duration = .zero) {
    self.day = day
    self.base = base
    self.carriedIn = carriedIn
  }

  /// The time allowed on the day: ``base`` plus ``carriedIn``.
  public var total: Duration { base + carriedIn }

  private enum CodingKeys: String, CodingKey {
    case day, baseMs, carriedInMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or negative field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    day = try container.decode(LocalDay.self, forKey: .day)
    base = try container.decodeMilliseconds(forKey: .baseMs)
    carriedIn = try container.decodeMilliseconds(forKey: .carriedInMs)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError` when a duration is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(day, forKey: .day)
    try container.encodeMilliseconds(base, forKey: .baseMs)
    try container.encodeMilliseconds(carriedIn, forKey: .carriedInMs)
  }
}
