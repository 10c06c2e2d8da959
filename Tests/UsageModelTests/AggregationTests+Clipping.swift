import Foundation
import Testing
import UsageModel

/// Clipping: bounding the aggregator's work by an interval instead of by the records' span.
extension AggregationTests {
  @Test("clipping bounds the work: a record to Date.distantFuture clipped to a week gives its days")
  func clippingBoundsAnEndlessRecordToTheClip() throws {
    // Unclipped, this record spans about 721,000 local days, up to the year 4001.
    let endless = try UsageRecord(
      app: instagram, start: try instant("2026-01-02T10:00:00-05:00"), end: .distantFuture,
      source: .manual)
    let week = DateInterval(
      start: newYork.start(of: try day("2026-01-01")), end: newYork.start(of: try day("2026-01-08"))
    )
    let report = try UsageAggregator(boundary: newYork, rules: rules)
      .aggregate([endless], clippedTo: week)
    #expect(report.days.map(\.day.description) == (2...7).map { "2026-01-0\($0)" })
    #expect(report.days.map(\.total) == [.hours(14)] + Array(repeating: .hours(24), count: 5))
    #expect(report.days.last?.end == week.end)
  }

  @Test("clipping cuts records at the interval's ends and drops those outside it")
  func clippingCutsRecordsAtTheInterval() throws {
    let records = [
      try record(instagram, "2026-01-02T08:00:00-05:00", "2026-01-02T09:00:00-05:00"),
      try record(tiktok, "2026-01-02T11:00:00-05:00", "2026-01-02T13:00:00-05:00"),
      try record(netflix, "2026-01-02T20:00:00-05:00", "2026-01-03T02:00:00-05:00"),
      try record(instagram, "2026-01-03T11:30:00-05:00", "2026-01-03T12:30:00-05:00"),
      try record(
        try app("org.example.late"), "2026-01-03T13:00:00-05:00", "2026-01-03T14:00:00-05:00"),
    ]
    let clip = DateInterval(
      start: try instant("2026-01-02T12:00:00-05:00"), end: try instant("2026-01-03T12:00:00-05:00")
    )
    let aggregator = UsageAggregator(boundary: newYork, rules: rules)
    let report = try aggregator.aggregate(records, clippedTo: clip)
    // Reference: the records cut by hand, then aggregated without a clip.
    let cut = try records.compactMap { record -> UsageRecord? in
      guard let part = record.interval.intersection(with: clip), part.duration > 0 else {
        return nil
      }
      return try UsageRecord(
        app: record.app, category: record.category, start: part.start, end: part.end,
        source: record.source)
    }
    #expect(report == aggregator.aggregate(cut))
    #expect(report.days.map(\.total) == [.hours(5), .hours(2) + .minutes(30)])
    // The app whose only record lies outside the clip is not reported as uncategorised.
    #expect(report.uncategorizedApps.isEmpty)
    // An unbounded clip, and one past the supported instants, change nothing.
    #expect(
      try aggregator.aggregate(
        records, clippedTo: DateInterval(start: .distantPast, end: .distantFuture))
        == aggregator.aggregate(records))
    // (A DateInterval cannot start at -infinity: its end would be -infinity + infinity.)
    let unbounded = DateInterval(start: .distantPast, end: Date(timeIntervalSince1970: .infinity))
    #expect(
      try aggregator.aggregate(records, clippedTo: unbounded) == aggregator.aggregate(records))
  }

  @Test("aggregating over local days counts what clipping to their interval does, and cannot fail")
  func aggregatingOverDaysEqualsClippingToTheirInterval() throws {
    let records = [
      try record(instagram, "2026-01-01T22:00:00-05:00", "2026-01-02T01:00:00-05:00"),
      try record(tiktok, "2026-01-03T23:30:00-05:00", "2026-01-04T00:30:00-05:00"),
      try UsageRecord(
        app: netflix, start: try instant("2026-01-03T20:00:00-05:00"), end: .distantFuture,
        source: .manual),
    ]
    let aggregator = UsageAggregator(boundary: newYork, rules: rules)
    let days = try day("2026-01-02")...day("2026-01-03")
    let interval = DateInterval(
      start: newYork.start(of: days.lowerBound), end: newYork.interval(of: days.upperBound).end)
    let report = aggregator.aggregate(records, over: days)
    #expect(try report == aggregator.aggregate(records, clippedTo: interval))
    #expect(report.days.map(\.total) == [.hours(1), .hours(4)])
    // Every supported day, the ends included, is a valid range: nothing traps. (Without the
    // endless record, whose unclipped report would hold 721,000 days.)
    let everyDay = try day("0001-01-01")...day("9999-12-31")
    let bounded = Array(records.prefix(2))
    #expect(aggregator.aggregate(bounded, over: everyDay) == aggregator.aggregate(bounded))
  }

  @Test("a clip whose bound is not a number is a typed error")
  func clipThatIsNotANumberIsAnError() throws {
    let notANumber = DateInterval(start: Date(timeIntervalSince1970: .nan), duration: 0)
    #expect(throws: UsageModelError.self) {
      try UsageAggregator(boundary: newYork).aggregate([], clippedTo: notANumber)
    }
  }
}
