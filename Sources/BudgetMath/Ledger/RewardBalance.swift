import Foundation
import UsageModel

/// What a reward ledger holds: XP credit, spendable time, and time held by open sessions.
///
/// JSON form: `{"xp": 5, "availableMs": 540000, "reservedMs": 0}`.
public struct RewardBalance: Sendable, Hashable, Codable {
  /// Experience points not yet converted into time.
  public let xp: Int
  /// Time that can be spent or reserved now.
  public let available: Duration
  /// Time reserved by spending sessions that have not ended.
  public let reserved: Duration

  /// An empty balance.
  public static let zero = RewardBalance(xp: 0, available: .zero, reserved: .zero)

  /// Creates a balance.
  ///
  /// - Parameters:
  ///   - xp: Experience points of credit.
  ///   - available: Spendable time.
  ///   - reserved: Time held by open sessions.
  public init(xp: Int, available: Duration, reserved: Duration) {
    self.xp = xp
    self.available = available
    self.reserved = reserved
  }

  private enum CodingKeys: String, CodingKey {
    case xp, availableMs, reservedMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or negative field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    xp = try container.decode(Int.self, forKey: .xp)
    // A ledger's balance never goes negative, so neither does a stored one.
    guard xp >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: .xp, in: container, debugDescription: "\(xp) XP is negative")
    }
    available = try container.decodeMilliseconds(forKey: .availableMs)
    reserved = try container.decodeMilliseconds(forKey: .reservedMs)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError` when a duration is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(xp, forKey: .xp)
    try container.encodeMilliseconds(available, forKey: .availableMs)
    try container.encodeMilliseconds(reserved, forKey: .reservedMs)
  }
}
