import Foundation
import UsageModel

/// A notification sequence number the app received, and when.
///
/// JSON form: `{"value": 42, "at": "2026-03-08T10:30:00Z"}`.
public struct SequenceSighting: Sendable, Hashable, Codable {
  /// The sequence number received.
  public let value: UInt64
  let instant: Int64

  /// Creates a sighting.
  ///
  /// - Parameters:
  ///   - value: The sequence number received.
  ///   - at: When it was received; rounded to the millisecond.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range.
  public init(value: UInt64, at: Date) throws(GapDetectionError) {
    self.value = value
    instant = try TimeValues.instant(at, field: "at")
  }

  /// When it was received.
  public var at: Date { Milliseconds.date(instant) }

  private enum CodingKeys: String, CodingKey {
    case value
    case at
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    value = try container.decode(UInt64.self, forKey: .value)
    instant = try container.decodeInstant(forKey: .at)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(value, forKey: .value)
    try container.encodeInstant(instant, forKey: .at)
  }
}
