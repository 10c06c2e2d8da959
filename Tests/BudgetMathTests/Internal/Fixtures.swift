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

/// A small, fast, seedable random number generator (SplitMix64), so that property tests
/// reproduce.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}

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
