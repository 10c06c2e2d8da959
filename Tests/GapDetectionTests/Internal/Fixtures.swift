import Foundation
import GapDetection
import Testing
import UsageModel

/// An instant from ISO 8601 text such as `2026-03-08T09:00:00Z` or `...00.250+01:00`.
func instant(_ text: String) throws -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  if let date = formatter.date(from: text) { return date }
  formatter.formatOptions = [.withInternetDateTime]
  return try #require(formatter.date(from: text), "not an ISO 8601 instant: \(text)")
}

/// A time zone by identifier, failing the test when unknown.
func zone(_ identifier: String) throws -> TimeZone {
  try #require(TimeZone(identifier: identifier), "unknown time zone \(identifier)")
}

/// Minutes as a duration.
func minutes(_ count: Int64) -> Duration { .seconds(count * 60) }

/// JSON with sorted keys, for literal comparisons.
func json(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Decodes `text` as `Value`.
func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(text.utf8))
}

/// The error of decoding `text` as `Value`, failing the test when it decodes.
func decodingError<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> DecodingError {
  do {
    let value = try decode(type, text)
    Issue.record("\(text) decoded as \(value)")
  } catch let error as DecodingError {
    return error
  }
  throw CocoaError(.coderInvalidValue)
}

/// The coding key a decoding error names last, if any.
func codingKey(of error: DecodingError) -> String? {
  switch error {
  case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
    .valueNotFound(_, let context):
    return context.codingPath.last?.stringValue
  @unknown default:
    return nil
  }
}

/// The URL of a fixture file under `Fixtures/`.
func fixtureURL(_ path: String) throws -> URL {
  let url = try #require(Bundle.module.resourceURL, "no resource bundle")
    .appendingPathComponent("Fixtures").appendingPathComponent(path)
  #expect(FileManager.default.fileExists(atPath: url.path), "missing fixture \(path)")
  return url
}

/// Heartbeats of `source` every `step` seconds from `start` (inclusive) to `end` (inclusive).
func heartbeats(
  from start: Date, to end: Date, every step: TimeInterval,
  source: HeartbeatSource = .monitorExtension
) throws -> [Heartbeat] {
  var result: [Heartbeat] = []
  var time = start
  while time <= end {
    result.append(try Heartbeat(at: time, source: source))
    time = time.addingTimeInterval(step)
  }
  return result
}

/// SplitMix64, so that property tests reproduce.
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
