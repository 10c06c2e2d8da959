import Foundation
import TestSupport
import Testing
import UsageModel

/// The reports of several zones merged day by day, as a dashboard merges a traveller's.
@Suite("Merging the reports of several zones")
struct ReportMergingTests {
  /// One day of `minutes` of com.a (gaming) in the 24 hours from `start`.
  static func report(_ start: String, minutes: Int64, zone: String) throws -> UsageReport {
    let boundary = DayBoundary(timeZone: try TestSupport.zone(zone))
    let day = try LocalDay(parsing: "2026-04-14")
    let app = try AppID("com.a")
    let used = Duration.seconds(minutes * 60)
    return try UsageReport(
      boundary: boundary,
      days: [
        DailyUsage(
          day: day, interval: DateInterval(start: try instant(start), duration: 86_400),
          total: used,
          categories: [
            CategoryUsage(category: .gaming, total: used, apps: [AppUsage(app: app, total: used)])
          ],
          apps: [AppUsage(app: app, total: used)])
      ], uncategorizedApps: [])
  }

  @Test(
    "the parts of a day add up: a day of travel holds both zones' use"
  )
  func partsAddUp() throws {
    let merged = try UsageReport.merging(
      [
        try Self.report("2026-04-14T00:00:00-04:00", minutes: 60, zone: "America/New_York"),
        try Self.report("2026-04-14T00:00:00+02:00", minutes: 90, zone: "Europe/Paris"),
      ], boundary: DayBoundary(timeZone: try zone("America/New_York")))
    let day = try #require(merged.days.first)
    #expect(day.total == .seconds(150 * 60))
    #expect(day.apps.map(\.total) == [.seconds(150 * 60)])
  }

  @Test(
    "overlapping parts are capped at the day's length, and each app and category at the day's total"
  )
  func overlappingPartsAreCapped() throws {
    // Two activities read in two zones each claim 20 of the 30 hours the merged day spans: the
    // sum, 40 hours, cannot be one device's use. It threw before (a total longer than the day).
    let merged = try UsageReport.merging(
      [
        try Self.report("2026-04-14T00:00:00-04:00", minutes: 20 * 60, zone: "America/New_York"),
        try Self.report("2026-04-14T00:00:00+02:00", minutes: 20 * 60, zone: "Europe/Paris"),
      ], boundary: DayBoundary(timeZone: try zone("America/New_York")))
    let day = try #require(merged.days.first)
    let length = Duration.seconds(30 * 3_600)
    #expect(day.total == length)
    #expect(day.apps.map(\.total) == [length])
    #expect(day.categories.map(\.total) == [length])
    #expect(day.categories.flatMap(\.apps).map(\.total) == [length])
  }
}
