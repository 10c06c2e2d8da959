import Foundation

extension KeyedDecodingContainer {
  /// Decodes a time zone stored as ``StoredTimeZone`` writes it.
  package func decodeTimeZone(forKey key: Key) throws -> TimeZone {
    try timeZone(try decode(String.self, forKey: key), forKey: key)
  }

  /// Decodes a time zone stored as ``StoredTimeZone`` writes it, or `nil` when absent.
  package func decodeTimeZoneIfPresent(forKey key: Key) throws -> TimeZone? {
    guard let identifier = try decodeIfPresent(String.self, forKey: key) else { return nil }
    return try timeZone(identifier, forKey: key)
  }

  private func timeZone(_ identifier: String, forKey key: Key) throws -> TimeZone {
    do throws(UsageModelError) {
      return try StoredTimeZone.timeZone(identifier: identifier)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath + [key], debugDescription: error.description,
          underlyingError: error))
    }
  }
}

extension KeyedEncodingContainer {
  /// Encodes a time zone as ``StoredTimeZone`` writes it.
  package mutating func encodeTimeZone(_ zone: TimeZone, forKey key: Key) throws {
    let identifier: String
    do throws(UsageModelError) {
      identifier = try StoredTimeZone.identifier(of: zone)
    } catch {
      throw EncodingError.invalidValue(
        zone.identifier,
        EncodingError.Context(
          codingPath: codingPath + [key], debugDescription: error.description,
          underlyingError: error))
    }
    try encode(identifier, forKey: key)
  }

  /// Encodes a time zone as ``StoredTimeZone`` writes it, or nothing when `nil`.
  package mutating func encodeTimeZoneIfPresent(_ zone: TimeZone?, forKey key: Key) throws {
    guard let zone else { return }
    try encodeTimeZone(zone, forKey: key)
  }
}
