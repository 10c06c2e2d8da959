import Foundation

extension KeyedDecodingContainer {
  /// Decodes an ISO 8601 instant string as milliseconds since 1970.
  package func decodeInstant(forKey key: Key) throws -> Int64 {
    let text = try decode(String.self, forKey: key)
    switch ISO8601Instant.parse(text) {
    case .success(let instant):
      return instant
    case .failure(let failure):
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self,
        debugDescription: "\(text.debugDescription) is not an ISO 8601 instant: \(failure.reason)")
    }
  }

  /// Decodes a whole, non-negative number of milliseconds as a `Duration`.
  package func decodeMilliseconds(forKey key: Key) throws -> Duration {
    let value = try decode(Int64.self, forKey: key)
    guard value >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "\(value) ms is negative")
    }
    return Milliseconds.duration(value)
  }
}

extension KeyedEncodingContainer {
  /// Encodes milliseconds since 1970 as an ISO 8601 instant string.
  package mutating func encodeInstant(_ instant: Int64, forKey key: Key) throws {
    try encode(ISO8601Instant.format(instant), forKey: key)
  }

  /// Encodes a `Duration` as whole milliseconds (it must be a whole number of them).
  package mutating func encodeMilliseconds(_ duration: Duration, forKey key: Key) throws {
    guard let value = Milliseconds.amount(duration), Milliseconds.isWhole(duration) else {
      throw EncodingError.invalidValue(
        duration,
        EncodingError.Context(
          codingPath: codingPath + [key],
          debugDescription: "\(duration) is not a whole number of milliseconds"))
    }
    try encode(value, forKey: key)
  }
}

extension KeyedDecodingContainer {
  /// Decodes whole minutes, rejecting negative values with an error naming the field.
  func decodeMinutes(forKey key: Key) throws -> Int {
    let minutes = try decode(Int.self, forKey: key)
    guard minutes >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "\(minutes) minutes is negative")
    }
    return minutes
  }
}
