import BudgetMath
import Foundation
import Testing
import UsageModel

/// A local day from `yyyy-MM-dd`, failing the test on bad input.
func day(_ text: String) throws -> LocalDay {
  try LocalDay(parsing: text)
}

/// An instant from ISO 8601 text such as `2026-03-08T09:00:00Z`.
func instant(_ text: String) throws -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  if let date = formatter.date(from: text) { return date }
  formatter.formatOptions = [.withInternetDateTime]
  return try #require(formatter.date(from: text), "not an ISO 8601 instant: \(text)")
}

/// Minutes as a duration.
func minutes(_ count: Int64) -> Duration { .seconds(count * 60) }

/// Hours as a duration.
func hours(_ count: Int64) -> Duration { .seconds(count * 3600) }

/// JSON with sorted keys, for literal comparisons.
func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Encodes and decodes `value`, returning the decoded copy.
func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
  try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
}
