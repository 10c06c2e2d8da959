import Foundation
import TestSupport
import Testing
import UsageModel

/// Where an interval's usage goes on the timeline: every app's thresholds, as late as their
/// reports allow, one app at a time, never before the interval.
@Suite("Placing threshold usage on the timeline")
struct ThresholdPlacementTests {
  let zone: TimeZone
  let start: Date

  init() throws {
    zone = try TestSupport.zone("Europe/Berlin")
    start = try instant("2026-04-15T00:00:00+02:00")
  }

  /// An event of `app` reaching `minutes`, received `at` minutes after the interval's start.
  func event(_ app: String, _ minutes: Int, at received: Double) throws -> ThresholdEvent {
    try ThresholdEvent(
      name: try ThresholdEventName(app: try AppID(app), threshold: .seconds(minutes * 60)),
      intervalStart: start, receivedAt: start.addingTimeInterval(received * 60))
  }

  /// The records, as `[start, end)` in minutes after the interval's start.
  func minutes(_ records: [UsageRecord]) -> [ClosedRange<Double>] {
    records.map {
      ($0.start.timeIntervalSince(start) / 60)...($0.end.timeIntervalSince(start) / 60)
    }
  }

  @Test("each step ends at the earliest report of it or of any higher threshold")
  func stepsEndAtTheirDeadlines() throws {
    var accountant = ThresholdAccountant(timeZone: zone)
    for (threshold, at) in [(5, 600.0), (10, 610.0), (15, 700.0)] {
      _ = accountant.record(try event("com.a", threshold, at: at))
    }
    #expect(minutes(accountant.usageRecords()) == [695...700, 605...610, 595...600])
  }

  @Test("a report of a higher threshold pulls the lower steps earlier, never later")
  func higherReportsBoundLowerSteps() throws {
    var accountant = ThresholdAccountant(timeZone: zone)
    // The 10-minute report came first, the 5-minute one late.
    _ = accountant.record(try event("com.a", 10, at: 610))
    _ = accountant.record(try event("com.a", 5, at: 630))
    #expect(minutes(accountant.usageRecords()) == [605...610, 600...605])
  }

  @Test("two apps' steps do not overlap: a day's total is the sum of its apps")
  func appsDoNotOverlap() throws {
    // The interval began at 10:00; com.a reached 5 minutes by 10:08, com.b by 10:10.
    var accountant = ThresholdAccountant(timeZone: zone)
    _ = accountant.record(try event("com.a", 5, at: 608))
    _ = accountant.record(try event("com.b", 5, at: 610))
    let records = accountant.usageRecords()
    #expect(minutes(records) == [605...610, 600...605])
    #expect(records.map(\.app.rawValue) == ["com.b", "com.a"])
    let boundary = DayBoundary(timeZone: zone)
    let day = try #require(UsageAggregator(boundary: boundary).aggregate(records).days.first)
    #expect(day.total == .seconds(600))
    #expect(day.total == day.apps.reduce(.zero) { $0 + $1.total })
  }

  @Test("steps that claim more than the time before their deadlines are not placed in full")
  func crowdedStepsAreCutAtTheIntervalStart() throws {
    var accountant = ThresholdAccountant(timeZone: zone)
    _ = accountant.record(try event("com.a", 5, at: 6))
    _ = accountant.record(try event("com.b", 5, at: 6))
    #expect(minutes(accountant.usageRecords()) == [1...6, 0...1])
  }

  @Test("no step starts before the interval, even with past activity counted")
  func stepsAreClampedToTheInterval() throws {
    var accountant = ThresholdAccountant(timeZone: zone)
    // An interval that began at 00:20 may count use since 00:00 with past activity included.
    let late = start.addingTimeInterval(20 * 60)
    _ = accountant.record(
      try ThresholdEvent(
        name: try ThresholdEventName(app: try AppID("com.a"), threshold: .seconds(300)),
        intervalStart: late, receivedAt: late.addingTimeInterval(180),
        includesPastActivity: true))
    #expect(minutes(accountant.usageRecords()) == [20...23])
  }

  @Test("the same events recorded in any order, with duplicates, give the same records")
  func orderDoesNotMatter() throws {
    let events =
      try [(5, 600.0), (10, 610.0), (10, 611.0), (15, 700.0), (5, 640.0)].map {
        try event("com.a", $0.0, at: $0.1)
      } + [try event("com.b", 5, at: 800)]
    var reference = ThresholdAccountant(timeZone: zone)
    for event in events { _ = reference.record(event) }
    var generator = SplitMix64(seed: 7)
    for _ in 0..<50 {
      var shuffled = events
      shuffled.shuffle(using: &generator)
      var accountant = ThresholdAccountant(timeZone: zone)
      for event in shuffled + shuffled.prefix(2) { _ = accountant.record(event) }
      #expect(accountant.usageRecords() == reference.usageRecords())
      #expect(accountant == reference)
    }
  }

  @Test("each app's steps are kept with their earliest report, and round-trip through JSON")
  func stepsRoundTrip() throws {
    var accountant = ThresholdAccountant(timeZone: zone)
    _ = accountant.record(try event("com.a", 10, at: 610))
    _ = accountant.record(try event("com.a", 5, at: 630))
    _ = accountant.record(try event("com.a", 5, at: 620))
    let app = try #require(accountant.intervals.first?.apps.first)
    #expect(app.steps.map(\.threshold) == [.seconds(300), .seconds(600)])
    #expect(app.steps.map(\.reportedAt) == [start + 620 * 60, start + 610 * 60])
    #expect(app.highest == .seconds(600))
    #expect(try decode(ThresholdAccountant.self, json(accountant)) == accountant)
  }

  @Test(
    "stored steps out of order, or not ending at the highest threshold, do not decode",
    arguments: [
      #"[{"thresholdMs":600000,"at":"2026-04-15T10:10:00Z"},{"thresholdMs":300000,"at":"2026-04-15T10:05:00Z"}]"#,
      #"[{"thresholdMs":300000,"at":"2026-04-15T10:05:00Z"}]"#,
      #"[{"thresholdMs":1,"at":"2026-04-15T10:05:00Z"},{"thresholdMs":600000,"at":"2026-04-15T10:10:00Z"}]"#,
    ])
  func invalidStepsDoNotDecode(steps: String) throws {
    let text =
      #"{"app":"com.a","highestMs":600000,"reachedAt":"2026-04-15T10:10:00Z","steps":"#
      + steps + "}"
    #expect(throws: DecodingError.self) {
      try decode(MonitoringIntervalUsage.AppThreshold.self, text)
    }
  }
}

/// Which monitoring interval a threshold event was counted in.
@Suite("Attributing events to intervals")
struct IntervalAttributionTests {
  let zone: TimeZone
  let plan: MonitoringPlan

  init() throws {
    zone = try TestSupport.zone("America/New_York")
    plan = try MonitoringPlan([
      MonitoredActivity(
        name: "daily",
        schedule: .daily(try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
    ])
  }

  @Test("a planned activity's event belongs to the occurrence that contains it")
  func plannedEventsBelongToTheirOccurrence() throws {
    let attribution = IntervalAttribution(plan: plan, timeZone: zone)
    let start = attribution.intervalStart(
      of: "daily", containing: try instant("2026-04-15T10:00:00-04:00"))
    #expect(try start == instant("2026-04-15T00:00:00-04:00"))
  }

  @Test("a restart inside the occurrence begins a new interval there")
  func restartBeginsANewInterval() throws {
    var attribution = IntervalAttribution(plan: plan, timeZone: zone)
    let restart = try instant("2026-04-15T12:00:00-04:00")
    attribution.recordStart(of: "daily", at: restart)
    #expect(
      attribution.intervalStart(of: "daily", containing: try instant("2026-04-15T13:00:00-04:00"))
        == restart)
    #expect(
      try attribution.intervalStart(of: "daily", containing: instant("2026-04-15T11:00:00-04:00"))
        == instant("2026-04-15T00:00:00-04:00"))
  }

  @Test("an unplanned activity's event belongs to its latest start, at most a week before")
  func unplannedEventsBelongToTheLatestStart() throws {
    var attribution = IntervalAttribution(plan: nil, timeZone: zone)
    let start = try instant("2026-04-15T09:00:00Z")
    attribution.recordStart(of: "focus", at: start)
    attribution.recordStart(of: "focus", at: start)  // a duplicate start is one start
    #expect(attribution.intervalStart(of: "focus", containing: start + 3_600) == start)
    #expect(attribution.intervalStart(of: "focus", containing: start + 7 * 86_400) == start)
    #expect(attribution.intervalStart(of: "focus", containing: start + 7 * 86_400 + 1) == nil)
    #expect(attribution.intervalStart(of: "focus", containing: start - 1) == nil)
    #expect(attribution.intervalStart(of: "other", containing: start + 60) == nil)
  }
}

/// The upper bound keeps each app's plausible claim whole when other apps' claims crowd it.
@Suite("Placing crowded claims in the upper bound")
struct CrowdedPlacementTests {
  let zone: TimeZone
  let start: Date

  init() throws {
    zone = try TestSupport.zone("Europe/Berlin")
    start = try instant("2026-04-15T00:00:00+02:00")
  }

  /// The records' seconds per app.
  func seconds(_ records: [UsageRecord]) -> [String: Int] {
    records.reduce(into: [:]) {
      $0[$1.app.rawValue, default: 0] += Int($1.end.timeIntervalSince($1.start))
    }
  }

  /// An accountant with `events` `(app, minutes, received minutes after the start)`.
  func accountant(_ events: [(String, Int, Double)]) throws -> ThresholdAccountant {
    var accountant = ThresholdAccountant(timeZone: zone)
    for (app, minutes, at) in events {
      _ = accountant.record(
        try ThresholdEvent(
          name: try ThresholdEventName(app: try AppID(app), threshold: .seconds(minutes * 60)),
          intervalStart: start, receivedAt: start.addingTimeInterval(at * 60)))
    }
    return accountant
  }

  @Test("rule: other apps' claims never crowd an app's plausible claim out of the upper bound")
  func crowdedClaimsArePlacedInFreeTime() throws {
    // At 07:00 phantoms claim 4 hours for com.a and com.b: together more than the 7 hours
    // since the interval began. com.c then reports 5 minutes at 07:10 and 20:00 ends the
    // evidence with com.a's 245 minutes, on its own.
    let accountant = try accountant(
      [
        ("com.a", 240, 420), ("com.b", 240, 420), ("com.c", 5, 430), ("com.a", 245, 1_200),
      ])
    let upper = seconds(accountant.usageRecords(bound: .upper))
    #expect(upper == ["com.a": 245 * 60, "com.b": 240 * 60, "com.c": 300])
    let records = accountant.usageRecords(bound: .upper)
    for (later, earlier) in zip(records, records.dropFirst()) {
      #expect(earlier.end <= later.start, "records overlap or are not latest first")
    }
    #expect(records.allSatisfy { $0.start >= start && $0.end <= start + 1_200 * 60 })
  }

  @Test("control: an app's own claim beyond the time since the interval began is still cut")
  func ownClaimBeyondTheIntervalIsCut() throws {
    // An interval that began at 00:20 counts past activity since 00:00: com.a claims 30
    // minutes at 00:30, with free time after it; 10 minutes are placed, as without other apps.
    var accountant = ThresholdAccountant(timeZone: zone)
    let late = start.addingTimeInterval(20 * 60)
    for (app, minutes, at) in [("com.a", 30, 10.0), ("com.b", 5, 120)] {
      _ = accountant.record(
        try ThresholdEvent(
          name: try ThresholdEventName(app: try AppID(app), threshold: .seconds(minutes * 60)),
          intervalStart: late, receivedAt: late.addingTimeInterval(at * 60),
          includesPastActivity: true))
    }
    #expect(seconds(accountant.usageRecords(bound: .upper)) == ["com.a": 600, "com.b": 300])
  }

  @Test("the last report of any threshold, a duplicate included, round-trips through JSON")
  func lastReportRoundTrips() throws {
    // Phantoms report 240 minutes at 07:00; the real 5-minute report at 20:00 is a duplicate.
    let accountant = try accountant([("com.a", 240, 420), ("com.a", 5, 1_200)])
    let interval = try #require(accountant.intervals.first)
    #expect(interval.lastReportAt == start + 1_200 * 60)
    #expect(try decode(ThresholdAccountant.self, json(accountant)) == accountant)
  }
}
