import Foundation
import Testing
import UsageModel

@Suite("Aggregation result values")
struct AggregationResultTests {
  /// A `DailyUsage` JSON of a 24-hour UTC day with the given total.
  static func dailyUsageJSON(_ day: String, next: String, totalMs: Int) -> String {
    #"{"day":"\#(day)","start":"\#(day)T00:00:00Z","end":"\#(next)T00:00:00Z","totalMs":"#
      + "\(totalMs)" + #","categories":[],"apps":[]}"#
  }

  @Test("a report finds every day whatever the order its days were given or decoded in")
  func reportFindsEveryDayWhateverTheOrder() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let first = try day("2026-01-01")
    let second = try day("2026-01-02")
    let third = try day("2026-01-03")
    let usages = try [third, first, second].map { day in
      try DailyUsage(
        day: day, interval: boundary.interval(of: day), total: .minutes(day.day), categories: [],
        apps: [])
    }
    let report = try UsageReport(boundary: boundary, days: usages, uncategorizedApps: [])
    #expect(report.days.map(\.day) == [first, second, third])
    for day in [first, second, third] { #expect(report[day]?.total == .minutes(day.day)) }

    let text =
      #"{"boundary":{"timeZone":"UTC"},"uncategorizedApps":[],"days":["#
      + Self.dailyUsageJSON("2026-01-03", next: "2026-01-04", totalMs: 180_000) + ","
      + Self.dailyUsageJSON("2026-01-01", next: "2026-01-02", totalMs: 60_000) + ","
      + Self.dailyUsageJSON("2026-01-02", next: "2026-01-03", totalMs: 120_000) + "]}"
    let decoded = try decode(UsageReport.self, text)
    #expect(decoded.days.map(\.day) == [first, second, third])
    for day in [first, second, third] { #expect(decoded[day]?.total == .minutes(day.day)) }
  }

  @Test("a report holds one entry per day: a second entry for a day is an error")
  func reportRejectsTwoEntriesForOneDay() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let first = try day("2026-01-01")
    let usage = try DailyUsage(
      day: first, interval: boundary.interval(of: first), total: .hours(1), categories: [], apps: []
    )
    let other = try DailyUsage(
      day: first, interval: boundary.interval(of: first), total: .hours(2), categories: [], apps: []
    )
    #expect(throws: UsageModelError.duplicateEntry(field: "days", value: "2026-01-01")) {
      try UsageReport(boundary: boundary, days: [usage, other], uncategorizedApps: [])
    }
    let text =
      #"{"boundary":{"timeZone":"UTC"},"uncategorizedApps":[],"days":["#
      + Self.dailyUsageJSON("2026-01-01", next: "2026-01-02", totalMs: 60_000) + ","
      + Self.dailyUsageJSON("2026-01-01", next: "2026-01-02", totalMs: 120_000) + "]}"
    #expect(throws: DecodingError.self) { try decode(UsageReport.self, text) }
  }

  @Test("a decoded day's total lies within the day's length")
  func decodedDayTotalLiesWithinTheDay() throws {
    let full = Self.dailyUsageJSON("2026-01-01", next: "2026-01-02", totalMs: 86_400_000)
    #expect(try decode(DailyUsage.self, full).total == .hours(24))
    let longer = Self.dailyUsageJSON("2026-01-01", next: "2026-01-02", totalMs: 86_400_001)
    do {
      _ = try decode(DailyUsage.self, longer)
      Issue.record("a total longer than its day decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.last?.stringValue == "totalMs")
    }
  }

  @Test("a day's usage can be built by hand, but not with a total longer than the day")
  func dailyUsageInitialiser() throws {
    let boundary = DayBoundary(timeZone: try zone("America/New_York"))
    let sunday = try day("2026-03-08")
    let interval = boundary.interval(of: sunday)
    let usage = try DailyUsage(
      day: sunday, interval: interval, total: .hours(23), categories: [], apps: [])
    #expect(usage.length == .hours(23))
    #expect(throws: UsageModelError.self) {
      try DailyUsage(day: sunday, interval: interval, total: .hours(24), categories: [], apps: [])
    }
    #expect(throws: UsageModelError.self) {
      try DailyUsage(
        day: sunday, interval: interval, total: .seconds(-1), categories: [], apps: [])
    }
  }

  @Test("a day's apps and categories are listed once each, within the day's total, most used first")
  func dailyUsageAppsAndCategoriesAreConsistent() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let monday = try day("2026-01-05")
    let interval = boundary.interval(of: monday)
    let (first, second) = (try app("com.a"), try app("com.b"))
    func usage(_ apps: [AppUsage], _ categories: [CategoryUsage] = []) throws(UsageModelError)
      -> DailyUsage
    {
      try DailyUsage(
        day: monday, interval: interval, total: .hours(2), categories: categories, apps: apps)
    }
    let valid = try usage([
      AppUsage(app: first, total: .hours(1)), AppUsage(app: second, total: .hours(2)),
    ])
    #expect(valid.apps.map(\.app) == [second, first])
    #expect(valid.total(of: first) == .hours(1))
    #expect(valid.total(of: try app("com.c")) == .zero)
    #expect(throws: UsageModelError.duplicateEntry(field: "apps", value: "com.a")) {
      try usage([AppUsage(app: first, total: .hours(1)), AppUsage(app: first, total: .hours(1))])
    }
    #expect(throws: UsageModelError.self) {
      try usage([AppUsage(app: first, total: .hours(3))])
    }
    let social = CategoryUsage(category: .socialMedia, total: .hours(1), apps: [])
    #expect(throws: UsageModelError.duplicateEntry(field: "categories", value: "social_media")) {
      try usage([], [social, social])
    }
    #expect(throws: UsageModelError.self) {
      try usage([], [CategoryUsage(category: .gaming, total: .hours(3), apps: [])])
    }
    // The decoder checks the same and names the field.
    let text =
      #"{"day":"2026-01-05","start":"2026-01-05T00:00:00Z","end":"2026-01-06T00:00:00Z","#
      + #""totalMs":3600000,"categories":[],"apps":[{"app":"com.a","totalMs":60000},"#
      + #"{"app":"com.a","totalMs":60000}]}"#
    do {
      _ = try decode(DailyUsage.self, text)
      Issue.record("an app listed twice decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.last?.stringValue == "apps")
    }
  }
}
