import Foundation
import TestSupport
import Testing
import UsageModel

/// Seeded random checks of smaller pieces against simple references.
@Suite("Properties")
struct PropertyTests {
  /// A glob matcher written the obvious, exponential way.
  static func referenceGlob(_ text: Substring, _ pattern: Substring) -> Bool {
    guard let first = pattern.first else { return text.isEmpty }
    switch first {
    case "*":
      return referenceGlob(text, pattern.dropFirst())
        || (!text.isEmpty && referenceGlob(text.dropFirst(), pattern))
    case "?":
      return !text.isEmpty && referenceGlob(text.dropFirst(), pattern.dropFirst())
    default:
      return text.first == first && referenceGlob(text.dropFirst(), pattern.dropFirst())
    }
  }

  @Test("pattern rules match exactly as a simple recursive glob does")
  func globMatchesReference() throws {
    var random = SplitMix64(seed: 0x0006_7106)
    let textAlphabet: [Character] = ["a", "b", "."]
    let patternAlphabet: [Character] = ["a", "b", ".", "*", "?"]
    for _ in 0..<3000 {
      let text = String(
        (0..<Int.random(in: 1...8, using: &random)).map { _ in
          textAlphabet.randomElement(using: &random) ?? "a"
        })
      let pattern = String(
        (0..<Int.random(in: 1...6, using: &random)).map { _ in
          patternAlphabet.randomElement(using: &random) ?? "*"
        })
      let rule = try CategoryRule.pattern(pattern, .gaming)
      #expect(
        rule.matches(try AppID(text)) == Self.referenceGlob(text[...], pattern[...]),
        "\(text) against \(pattern)")
    }
  }

  @Test(
    "a table and the single-day path put random instants in the same day, inside its interval",
    arguments: ["America/New_York", "Australia/Lord_Howe", "America/Havana", "Asia/Kathmandu"])
  func tableAgreesWithSingleDayPath(identifier: String) throws {
    let boundary = DayBoundary(timeZone: try zone(identifier), dayStart: try time("04:00"))
    let first = try day("2024-01-01")
    let last = try day("2027-12-31")
    let table = boundary.table(for: first...last)
    let start = boundary.start(of: first).timeIntervalSince1970
    let end = boundary.start(of: last).timeIntervalSince1970
    var random = SplitMix64(seed: 0x7AB1E)
    for _ in 0..<2000 {
      let date = Date(
        timeIntervalSince1970: (Double.random(in: start..<end, using: &random) * 1000).rounded()
          / 1000)
      let tableDay = try #require(table.day(containing: date))
      #expect(try boundary.day(containing: date) == tableDay)
      let interval = try table.interval(of: tableDay)
      #expect(interval.start <= date && date < interval.end)
      #expect(interval == boundary.interval(of: tableDay))
    }
  }

  @Test("instants encode as Foundation formats them and decode back to the millisecond")
  func instantsMatchFoundationFormatter() throws {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let app = try app("com.example.app")
    var random = SplitMix64(seed: 0x1509)
    for _ in 0..<1000 {
      let milliseconds = Int64.random(in: -11_000_000_000_000...4_000_000_000_000, using: &random)
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let record = try UsageRecord(app: app, start: date, end: date, source: .manual)
      let text = try json(record)
      let expected = formatter.string(from: date).replacingOccurrences(of: ".000Z", with: "Z")
      #expect(text.contains("\"start\":\"\(expected)\""), "\(text) vs \(expected)")
      #expect(try decode(UsageRecord.self, text) == record)
    }
  }

  @Test("a daily window contains exactly the instants of its overlapping occurrences")
  func windowContainmentAgreesWithOccurrences() throws {
    let timeZone = try zone("America/New_York")
    let windows = [
      try DailyWindow(start: try time("21:00"), end: try time("07:00")),
      try DailyWindow(start: try time("01:30"), end: try time("02:30")),
      try DailyWindow(start: try time("00:00"), end: try time("23:59")),
    ]
    let start = try instant("2026-03-01T00:00:00Z").timeIntervalSince1970
    var random = SplitMix64(seed: 0xD0_0D)
    for _ in 0..<1500 {
      let date = Date(timeIntervalSince1970: start + Double(random.next() % (300 * 86_400)))
      for window in windows {
        let around = window.occurrences(
          overlapping: DateInterval(start: date, duration: 0), in: timeZone)
        let inside = around.contains { $0.start <= date && date < $0.end }
        #expect(window.contains(date, in: timeZone) == inside, "\(window) at \(date)")
      }
    }
  }
}
