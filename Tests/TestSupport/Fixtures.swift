import Foundation

/// Why a fixture could not be built from its text.
package struct FixtureError: Error, CustomStringConvertible {
  /// What was wrong.
  package var description: String

  /// Creates an error.
  ///
  /// - Parameter description: What was wrong.
  package init(description: String) {
    self.description = description
  }
}

/// An instant from ISO 8601 text such as `2026-03-08T09:00:00Z` or `...00.250+01:00`.
///
/// - Parameter text: The instant, with or without fractional seconds.
/// - Returns: The instant.
/// - Throws: ``FixtureError`` when the text is not an ISO 8601 instant.
package func instant(_ text: String) throws -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  if let date = formatter.date(from: text) { return date }
  formatter.formatOptions = [.withInternetDateTime]
  guard let date = formatter.date(from: text) else {
    throw FixtureError(description: "not an ISO 8601 instant: \(text)")
  }
  return date
}

/// A time zone by identifier.
///
/// - Parameter identifier: An IANA identifier.
/// - Returns: The zone.
/// - Throws: ``FixtureError`` when the zone is unknown.
package func zone(_ identifier: String) throws -> TimeZone {
  guard let zone = TimeZone(identifier: identifier) else {
    throw FixtureError(description: "unknown time zone \(identifier)")
  }
  return zone
}

/// Minutes as a duration.
///
/// - Parameter count: The number of minutes.
/// - Returns: The duration.
package func minutes(_ count: Int64) -> Duration { .seconds(count * 60) }

/// JSON with sorted keys and unescaped slashes, for literal comparisons.
///
/// - Parameter value: The value to encode.
/// - Returns: The JSON text.
/// - Throws: What the encoder throws.
package func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Decodes `text` as `Value`.
///
/// - Parameters:
///   - type: The type to decode.
///   - text: JSON text.
/// - Returns: The value.
/// - Throws: What the decoder throws.
package func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(text.utf8))
}

/// The error of decoding `text` as `Value`.
///
/// - Parameters:
///   - type: The type that must not decode.
///   - text: JSON text.
/// - Returns: The decoding error.
/// - Throws: ``FixtureError`` when the text decodes, or another error than a `DecodingError`.
package func decodingError<Value: Decodable>(_ type: Value.Type, _ text: String) throws
  -> DecodingError
{
  do {
    let value = try decode(type, text)
    throw FixtureError(description: "\(text) decoded as \(value)")
  } catch let error as DecodingError {
    return error
  }
}

/// The coding key a decoding error names last, if any.
///
/// - Parameter error: A decoding error.
/// - Returns: The last key of its coding path.
package func codingKey(of error: DecodingError) -> String? {
  switch error {
  case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
    .valueNotFound(_, let context):
    return context.codingPath.last?.stringValue
  @unknown default:
    return nil
  }
}
