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

  /// Day starts that fall in a gap or a repeated hour of their zone, and one plain case.
  static let gapAndRepeatDayStarts = [
    ("America/New_York", "02:30"),  // skipped on the second Sunday of March
    ("America/New_York", "01:30"),  // repeated on the first Sunday of November
    ("Australia/Lord_Howe", "02:15"),  // skipped in the 30-minute gap of October
    ("Australia/Lord_Howe", "01:45"),  // repeated in the 30-minute repeat of April
    ("America/Havana", "00:30"),  // skipped in March, repeated in November
    ("Asia/Kathmandu", "04:00"),  // no clock change at all
  ]

  @Test(
    "a table, the single-day path and Foundation agree on days that start in a gap or a repeat",
    arguments: gapAndRepeatDayStarts)
  func tableAgreesWithSingleDayPath(identifier: String, dayStart text: String) throws {
    let timeZone = try zone(identifier)
    let boundary = DayBoundary(timeZone: timeZone, dayStart: try time(text))
    let first = try day("2024-01-01")
    let last = try day("2027-12-31")
    let table = boundary.table(for: first...last)
    // The independent reference: every day of the table against Foundation's calendar, with the
    // full rule (nextDate, .nextTime, .first) wherever the offset changes.
    let sweep = try DaySweep(timeZone: timeZone, dayStart: boundary.dayStart, days: first...last)
      .check { try table.interval(of: $0) }
    #expect(sweep.mismatches.isEmpty, "\(sweep.mismatches)")
    #expect(
      identifier == "Asia/Kathmandu" ? sweep.fullChecks == 0 : sweep.fullChecks >= 8,
      "the full rule decided \(sweep.fullChecks) days")

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

  @Test(
    "a daily window contains exactly the instants of its occurrences, as Foundation places them")
  func windowContainmentAgreesWithOccurrences() throws {
    let timeZone = try zone("America/New_York")
    let clock = FoundationWallClock(timeZone)
    let windows = try [
      ("21:00", "07:00"), ("00:00", "23:59"),
      ("01:30", "02:30"),  // ends in March's gap, starts in November's repeated hour
      ("02:00", "03:00"),  // lies entirely in March's gap: empty that night
      ("01:00", "01:30"),  // repeated in November: only the first pass counts
    ].map { try DailyWindow(start: try time($0.0), end: try time($0.1)) }

    /// Whether Foundation places `date` inside an occurrence of `window`: the occurrence that
    /// starts on local date D runs from the first instant showing D at its start to the first
    /// showing its end date at its end (never before its start), both by Foundation's calendar.
    func foundationContains(_ window: DailyWindow, _ date: Date) throws -> Bool {
      let local = clock.calendar.dateComponents([.year, .month, .day], from: date)
      let today = try LocalDay(
        year: try #require(local.year), month: try #require(local.month),
        day: try #require(local.day))
      for startDay in [today.advanced(by: -1), today] {
        let endDay = window.crossesMidnight ? startDay.advanced(by: 1) : startDay
        let start = try #require(clock.firstInstant(startDay, window.start)).date
        let end = max(start, try #require(clock.firstInstant(endDay, window.end)).date)
        if start <= date, date < end { return true }
      }
      return false
    }

    // Random instants over 300 days, and every 5 minutes of both nights the clocks change.
    let start = try instant("2026-03-01T00:00:00Z").timeIntervalSince1970
    var random = SplitMix64(seed: 0xD0_0D)
    var dates = (0..<1000).map { _ in
      Date(timeIntervalSince1970: start + Double(random.next() % (300 * 86_400)))
    }
    for night in ["2026-03-08T00:00:00-05:00", "2026-11-01T00:00:00-04:00"] {
      let midnight = try instant(night)
      dates += (0..<96).map { midnight.addingTimeInterval(Double($0) * 300) }
    }
    for date in dates {
      for window in windows {
        let around = window.occurrences(
          overlapping: DateInterval(start: date, duration: 0), in: timeZone)
        let inside = around.contains { $0.start <= date && date < $0.end }
        #expect(window.contains(date, in: timeZone) == inside, "\(window) at \(date)")
        #expect(
          try window.contains(date, in: timeZone) == foundationContains(window, date),
          "\(window) at \(date), against Foundation")
      }
    }
  }
}
