import Foundation
import TestSupport
import Testing
import UsageModel

@Suite("Aggregation")
struct AggregationTests {
  let newYork: DayBoundary
  let instagram: AppID
  let tiktok: AppID
  let netflix: AppID
  let rules: CategoryRules

  init() throws {
    newYork = DayBoundary(timeZone: try zone("America/New_York"))
    instagram = try app("com.instagram.instagram")
    tiktok = try app("com.zhiliaoapp.musically")
    netflix = try app("com.netflix.Netflix")
    rules = CategoryRules([
      .exact(instagram, .socialMedia), .exact(tiktok, .socialMedia),
      try .prefix("com.netflix.", .entertainment),
    ])
  }

  func record(
    _ app: AppID, _ start: String, _ end: String, category: AppCategory? = nil,
    source: UsageSource = .heartbeat
  ) throws -> UsageRecord {
    try UsageRecord(
      app: app, category: category, start: try instant(start), end: try instant(end),
      source: source)
  }

  func aggregate(_ records: [UsageRecord]) -> UsageReport {
    UsageAggregator(boundary: newYork, rules: rules).aggregate(records)
  }

  @Test("a record crossing midnight is split at the day boundary")
  func recordCrossingMidnightIsSplit() throws {
    let report = aggregate([
      try record(instagram, "2026-01-02T23:00:00-05:00", "2026-01-03T01:30:00-05:00")
    ])
    #expect(try report.days.map(\.day) == [day("2026-01-02"), day("2026-01-03")])
    #expect(report.days.map(\.total) == [.hours(1), .minutes(90)])
  }

  @Test("a 3-day record counts each day's part, a 23-hour day included")
  func threeDayRecord() throws {
    let report = aggregate([
      try record(netflix, "2026-03-07T22:00:00-05:00", "2026-03-09T02:00:00-04:00")
    ])
    #expect(report.days.map(\.day.description) == ["2026-03-07", "2026-03-08", "2026-03-09"])
    #expect(report.days.map(\.total) == [.hours(2), .hours(23), .hours(2)])
    #expect(report.days[1].total == report.days[1].length)
    #expect(report.total == .hours(27))
  }

  @Test("instants exactly at a boundary belong to the day they start")
  func instantsExactlyAtBoundary() throws {
    let report = aggregate([
      try record(instagram, "2026-01-02T23:00:00-05:00", "2026-01-03T00:00:00-05:00"),
      try record(tiktok, "2026-01-04T00:00:00-05:00", "2026-01-04T00:00:00.001-05:00"),
    ])
    #expect(report.days.map(\.day.description) == ["2026-01-02", "2026-01-04"])
    #expect(report.days.map(\.total) == [.hours(1), .milliseconds(1)])
  }

  @Test("overlapping records of the same app are unioned, not summed")
  func overlappingRecordsAreUnioned() throws {
    let report = aggregate([
      try record(instagram, "2026-01-02T10:00:00-05:00", "2026-01-02T11:00:00-05:00"),
      try record(instagram, "2026-01-02T10:30:00-05:00", "2026-01-02T11:30:00-05:00"),
      try record(instagram, "2026-01-02T10:40:00-05:00", "2026-01-02T10:50:00-05:00"),
    ])
    #expect(report.days.first?.usage(of: .socialMedia)?.total(of: instagram) == .minutes(90))
  }

  @Test("a stretch recorded by two sources is counted once")
  func duplicateFromTwoSourcesCountsOnce() throws {
    let records = [
      try record(netflix, "2026-01-02T20:00:00-05:00", "2026-01-02T21:00:00-05:00"),
      try record(
        netflix, "2026-01-02T20:00:00-05:00", "2026-01-02T21:00:00-05:00", source: .reportImport),
    ]
    let report = aggregate(records)
    #expect(report.days.first?.total == .hours(1))
    #expect(report.days.first?.usage(of: .entertainment)?.total(of: netflix) == .hours(1))
    // Control: summing instead of unioning counts the hour twice, which the check above catches.
    let summed = records.reduce(Duration.zero) { $0 + $1.duration }
    #expect(summed == .hours(2))
    #expect(summed != report.days.first?.total)
  }

  @Test(
    "an app recorded under two categories for the same hour counts one hour, in the payload too")
  func appUnderTwoCategoriesCountsOnce() throws {
    // The same hour from a heartbeat (no category: the rules say entertainment) and from a
    // report import that carries a category of its own.
    let report = aggregate([
      try record(netflix, "2026-01-02T20:00:00-05:00", "2026-01-02T21:00:00-05:00"),
      try record(
        netflix, "2026-01-02T20:00:00-05:00", "2026-01-02T21:00:00-05:00", category: .education,
        source: .reportImport),
    ])
    let usage = try #require(report.days.first)
    #expect(usage.total == .hours(1))
    // Each category shows the hour recorded under it …
    #expect(usage.usage(of: .entertainment)?.total(of: netflix) == .hours(1))
    #expect(usage.usage(of: .education)?.total(of: netflix) == .hours(1))
    // … but the app's day total and the backend count it once.
    #expect(usage.apps == [AppUsage(app: netflix, total: .hours(1))])
    #expect(usage.total(of: netflix) == .hours(1))
    let payload = UsageSyncPayload(userId: "user-123", usage: usage) { $0.rawValue }
    #expect(payload.apps.map(\.bundleId) == [netflix])
    #expect(payload.apps.map(\.totalMinutes) == [60])
  }

  @Test("an app counted under one category only has its category's time as its day total")
  func appUnderOneCategoryHasItsCategoryTime() throws {
    // Each app here has one category, so the aggregator takes the apps' day totals from the
    // (category, app) level instead of running a level of its own: the two must agree.
    var random = SplitMix64(seed: 0x0A99)
    let base = try instant("2026-03-07T00:00:00-05:00")
    let records = try (0..<300).map { _ in
      try UsageRecord(
        app: [instagram, tiktok, netflix][Int(random.next() % 3)],
        start: base.addingTimeInterval(Double(random.next() % (3 * 86_400))),
        duration: .seconds(Int(random.next() % 7200)), source: .heartbeat)
    }
    let report = aggregate(records)
    #expect(report.days.count == 4)
    for usage in report.days {
      let byCategory = usage.categories.flatMap(\.apps)
      #expect(usage.apps.sorted { $0.app < $1.app } == byCategory.sorted { $0.app < $1.app })
      #expect(usage.apps.map(\.total) == usage.apps.map(\.total).sorted(by: >))
    }
  }

  @Test("a day's device total never exceeds the day's length, even on a 23-hour day")
  func deviceTotalNeverExceedsDayLength() throws {
    let start = "2026-03-08T00:00:00-05:00"
    let end = "2026-03-09T00:00:00-04:00"
    let report = aggregate([
      try record(instagram, start, end), try record(tiktok, start, end),
      try record(netflix, start, end),
    ])
    let sunday = try #require(report.days.first)
    #expect(report.days.count == 1)
    #expect(sunday.length == .hours(23))
    #expect(sunday.total == .hours(23))
    #expect(sunday.usage(of: .socialMedia)?.total == .hours(23))
    #expect(sunday.usage(of: .socialMedia)?.apps.map(\.total) == [.hours(23), .hours(23)])
  }

  @Test("a category's total is the time any of its apps was in use")
  func categoryTotalIsUnionOfItsApps() throws {
    let report = aggregate([
      try record(instagram, "2026-01-02T10:00:00-05:00", "2026-01-02T11:00:00-05:00"),
      try record(tiktok, "2026-01-02T10:30:00-05:00", "2026-01-02T12:00:00-05:00"),
      try record(netflix, "2026-01-02T13:00:00-05:00", "2026-01-02T13:15:00-05:00"),
    ])
    let usage = try #require(report.days.first)
    let social = try #require(usage.usage(of: .socialMedia))
    #expect(social.total == .hours(2))
    #expect(social.apps.map(\.app) == [tiktok, instagram])
    #expect(social.apps.map(\.total) == [.minutes(90), .hours(1)])
    #expect(usage.categories.map(\.category) == [.socialMedia, .entertainment])
    #expect(usage.total == .minutes(135))
  }

  @Test("a record's own category wins over the rules; unmatched apps are other and listed")
  func categoryResolution() throws {
    let unknown = try app("org.example.unknown")
    let report = aggregate([
      try record(
        netflix, "2026-01-02T10:00:00-05:00", "2026-01-02T11:00:00-05:00", category: .education),
      try record(netflix, "2026-01-02T12:00:00-05:00", "2026-01-02T12:30:00-05:00"),
      try record(unknown, "2026-01-02T13:00:00-05:00", "2026-01-02T13:10:00-05:00"),
    ])
    let usage = try #require(report.days.first)
    #expect(usage.usage(of: .education)?.total(of: netflix) == .hours(1))
    #expect(usage.usage(of: .entertainment)?.total(of: netflix) == .minutes(30))
    #expect(usage.usage(of: .other)?.total(of: unknown) == .minutes(10))
    #expect(report.uncategorizedApps == [unknown])
  }

  @Test("empty records count nothing and no records give an empty report")
  func emptyInput() throws {
    #expect(aggregate([]).days.isEmpty)
    let report = aggregate([
      try record(instagram, "2026-01-02T10:00:00-05:00", "2026-01-02T10:00:00-05:00")
    ])
    #expect(report.days.isEmpty)
  }

  @Test("the report does not depend on the order of the records")
  func orderIndependence() throws {
    var random = SplitMix64(seed: 42)
    let base = try instant("2026-03-06T00:00:00-05:00")
    let apps = [instagram, tiktok, netflix]
    var records: [UsageRecord] = []
    for _ in 0..<500 {
      let start = base.addingTimeInterval(Double(Int.random(in: 0..<(5 * 86_400), using: &random)))
      records.append(
        try UsageRecord(
          app: apps[Int.random(in: 0..<3, using: &random)], start: start,
          duration: .seconds(Int.random(in: 0..<7200, using: &random)), source: .heartbeat))
    }
    let sorted = aggregate(records.sorted { $0.start < $1.start })
    #expect(aggregate(records) == sorted)
    #expect(aggregate(records.reversed()) == sorted)
  }

  @Test("a 04:00 day start counts a late night towards the previous day")
  func lateNightBelongsToPreviousDay() throws {
    let boundary = DayBoundary(timeZone: newYork.timeZone, dayStart: try time("04:00"))
    let report = UsageAggregator(boundary: boundary).aggregate([
      try record(instagram, "2026-01-02T23:00:00-05:00", "2026-01-03T03:00:00-05:00")
    ])
    #expect(report.days.map(\.day.description) == ["2026-01-02"])
    #expect(report.days.map(\.total) == [.hours(4)])
  }

  @Test("the report's JSON form is documented and round-trips")
  func reportJSON() throws {
    let report = aggregate([
      try record(instagram, "2026-01-02T10:00:00-05:00", "2026-01-02T10:45:00-05:00")
    ])
    let expected = """
      {"boundary":{"dayStart":"00:00","timeZone":"America/New_York"},"days":[{"apps":[\
      {"app":"com.instagram.instagram","totalMs":2700000}],"categories":[\
      {"apps":[{"app":"com.instagram.instagram","totalMs":2700000}],"category":"social_media",\
      "totalMs":2700000}],"day":"2026-01-02","end":"2026-01-03T05:00:00Z",\
      "start":"2026-01-02T05:00:00Z","totalMs":2700000}],"uncategorizedApps":[]}
      """
    #expect(try json(report) == expected)
    #expect(try decode(UsageReport.self, expected) == report)
  }
}
