import Foundation
import Testing
import UsageModel

/// A time zone that the test knows exists.
func zone(_ identifier: String) throws -> TimeZone {
  try #require(TimeZone(identifier: identifier), "unknown zone \(identifier)")
}

/// A Gregorian calendar in `timeZone`, as the reference for Foundation's view of days.
func gregorian(_ timeZone: TimeZone) -> Calendar {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = timeZone
  return calendar
}

/// An instant from ISO 8601 text with a UTC offset, for readable expectations.
func instant(_ text: String) throws -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  if let date = formatter.date(from: text) { return date }
  formatter.formatOptions = [.withInternetDateTime]
  return try #require(formatter.date(from: text), "not an instant: \(text)")
}

func day(_ text: String) throws -> LocalDay { try LocalDay(parsing: text) }

func time(_ text: String) throws -> TimeOfDay { try TimeOfDay(parsing: text) }

func app(_ text: String) throws -> AppID { try AppID(text) }

/// The threshold event of `minutes` of com.a, with no generation: what the attribution tests
/// send.
func threshold(_ minutes: Int) throws -> ThresholdEventName {
  try ThresholdEventName(app: try app("com.a"), threshold: .minutes(minutes))
}

/// JSON text of a value, with sorted keys, for comparisons with literal JSON.
func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Re-serialises JSON text with sorted keys and no whitespace, so two texts can be compared.
func canonicalJSON(_ text: String) throws -> String {
  let object = try JSONSerialization.jsonObject(
    with: Data(text.utf8), options: [.fragmentsAllowed])
  let data = try JSONSerialization.data(
    withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
  return String(decoding: data, as: UTF8.self)
}

func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try JSONDecoder().decode(type, from: Data(text.utf8))
}

extension Duration {
  static func hours(_ hours: Int) -> Duration { .seconds(hours * 3600) }
  static func minutes(_ minutes: Int) -> Duration { .seconds(minutes * 60) }
}
