import Foundation
import Testing
import UsageModel

/// A span of time is a `DateInterval` with ends rounded to the millisecond, and its exact length
/// is always offered beside it as a `Duration`.
@Suite("Exact lengths beside intervals")
struct ExactLengthTests {
  let newYork: TimeZone

  init() throws {
    newYork = try zone("America/New_York")
  }

  /// The exact length of an interval whose ends are whole milliseconds.
  func milliseconds(_ interval: DateInterval) -> Duration {
    let start = Int64((interval.start.timeIntervalSince1970 * 1000).rounded())
    let end = Int64((interval.end.timeIntervalSince1970 * 1000).rounded())
    return .milliseconds(end - start)
  }

  struct Occurrence: Sendable, CustomTestStringConvertible {
    let start: String
    let end: String
    let day: String
    let length: Duration
    var testDescription: String { "\(start)–\(end) from \(day): \(length)" }
  }

  @Test(
    "a daily window's occurrence has its exact length beside it, through clock changes",
    arguments: [
      Occurrence(start: "21:00", end: "07:00", day: "2026-01-02", length: .hours(10)),
      Occurrence(start: "21:00", end: "07:00", day: "2026-03-07", length: .hours(9)),
      Occurrence(start: "21:00", end: "07:00", day: "2026-10-31", length: .hours(11)),
      Occurrence(start: "02:30", end: "03:30", day: "2026-03-08", length: .minutes(30)),
      Occurrence(start: "01:00", end: "01:30", day: "2026-11-01", length: .minutes(30)),
      Occurrence(
        start: "09:00", end: "17:00:30", day: "2026-06-01", length: .seconds(8 * 3600 + 30)),
    ])
  func occurrenceLength(expected: Occurrence) throws {
    let window = try DailyWindow(start: time(expected.start), end: time(expected.end))
    let day = try day(expected.day)
    let occurrence = window.occurrence(startingOn: day, in: newYork)
    #expect(window.length(ofOccurrenceStartingOn: day, in: newYork) == expected.length)
    #expect(milliseconds(occurrence) == expected.length)
    #expect(window.length(ofOccurrenceContaining: occurrence.start, in: newYork) == expected.length)
    let justBefore = occurrence.start.addingTimeInterval(-0.001)
    #expect(window.nextOccurrence(after: justBefore, in: newYork) == occurrence)
    #expect(window.length(ofNextOccurrenceAfter: justBefore, in: newYork) == expected.length)
  }

  @Test("an occurrence inside a daylight-saving gap is empty, and the next one is the next night's")
  func occurrenceInGapIsEmpty() throws {
    let window = try DailyWindow(start: time("02:00"), end: time("02:45"))
    #expect(window.length(ofOccurrenceStartingOn: try day("2026-03-08"), in: newYork) == .zero)
    let saturday = try instant("2026-03-07T12:00:00-05:00")
    let next = try #require(window.nextOccurrence(after: saturday, in: newYork))
    #expect(try next.start == instant("2026-03-09T02:00:00-04:00"))
    #expect(window.length(ofNextOccurrenceAfter: saturday, in: newYork) == .minutes(45))
  }

  @Test(
    "an instant outside every occurrence, or not a number, has no occurrence and no length",
    arguments: [
      "2026-01-02T12:00:00-05:00", "2026-01-02T07:00:00-05:00", "2026-01-02T20:59:59.999-05:00",
    ])
  func noOccurrenceNoLength(instantText: String) throws {
    let window = try DailyWindow(start: time("21:00"), end: time("07:00"))
    let date = try instant(instantText)
    #expect(window.occurrence(containing: date, in: newYork) == nil)
    #expect(window.length(ofOccurrenceContaining: date, in: newYork) == nil)
    let notANumber = Date(timeIntervalSince1970: .nan)
    #expect(window.length(ofOccurrenceContaining: notANumber, in: newYork) == nil)
    #expect(window.length(ofNextOccurrenceAfter: notANumber, in: newYork) == nil)
  }

  @Test("each occurrence overlapping a period has its exact length from its start")
  func occurrencesOverlappingHaveLengths() throws {
    let window = try DailyWindow(start: time("21:00"), end: time("07:00"))
    let week = DateInterval(
      start: try instant("2026-03-05T00:00:00-05:00"), end: try instant("2026-03-12T00:00:00-04:00")
    )
    let occurrences = window.occurrences(overlapping: week, in: newYork)
    let lengths = occurrences.map { window.length(ofOccurrenceContaining: $0.start, in: newYork) }
    #expect(lengths == occurrences.map { milliseconds($0) })
    #expect(lengths.filter { $0 == .hours(9) }.count == 1, "the spring-forward night")
  }

  // MARK: - Usage records from Foundation lengths

  @Test(
    "a TimeInterval length makes the same record as the Duration rounded to the millisecond",
    arguments: [0, 0.000_4, 0.000_5, 0.001_5, 1.5, 59.999_6, 3_600.123_456, 86_400 * 365.25],
    [0, 0.000_4, 0.000_6])
  func timeIntervalBridgeMatchesDuration(seconds: Double, startOffset: Double) throws {
    let app = try app("com.instagram.instagram")
    let start = try instant("2026-01-02T10:00:00Z").addingTimeInterval(startOffset)
    let bridged = try UsageRecord(app: app, start: start, duration: seconds, source: .reportImport)
    let exact = try UsageRecord(
      app: app, start: start, duration: .milliseconds(Int64((seconds * 1000).rounded())),
      source: .reportImport)
    #expect(bridged == exact)
    #expect(milliseconds(bridged.interval) == bridged.duration)
  }

  @Test(
    "a TimeInterval that is negative, not finite or too long is a typed error, never a trap",
    arguments: [1e300, Double.greatestFiniteMagnitude, 1e12, -0.001, .nan, .infinity])
  func timeIntervalBridgeNeverTraps(seconds: Double) throws {
    let app = try app("com.instagram.instagram")
    let start = try instant("2026-01-02T10:00:00Z")
    #expect(throws: UsageModelError.self) {
      try UsageRecord(app: app, start: start, duration: seconds, source: .reportImport)
    }
  }

  // MARK: - Days

  @Test("a day's usage has its interval beside its exact length, 23 hours on a spring-forward day")
  func dailyUsageInterval() throws {
    let boundary = DayBoundary(timeZone: newYork)
    let sunday = try day("2026-03-08")
    let record = try UsageRecord(
      app: app("com.instagram.instagram"), start: instant("2026-03-08T10:00:00-04:00"),
      duration: .minutes(30), source: .heartbeat)
    let usage = try #require(UsageAggregator(boundary: boundary).aggregate([record])[sunday])
    #expect(usage.interval == boundary.interval(of: sunday))
    #expect(usage.length == boundary.length(of: sunday))
    #expect(usage.length == .hours(23))
    #expect(milliseconds(usage.interval) == usage.length)
  }
}
