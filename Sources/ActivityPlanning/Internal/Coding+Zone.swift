import Foundation

extension KeyedDecodingContainer {
  /// A time zone written as its identifier.
  func decodeZone(forKey key: Key) throws -> TimeZone {
    let identifier = try decode(String.self, forKey: key)
    guard let zone = TimeZone(identifier: identifier) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "unknown time zone \(identifier)")
    }
    return zone
  }
}
