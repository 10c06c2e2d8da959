import Foundation
import TestSupport
import Testing
import UsageModel

/// Hostile JSON for every `Codable` type of UsageModel: decoding throws or gives a value that
/// round-trips and survives its main operations; it never traps or hangs.
@Suite("Decoding hostile JSON never traps")
struct FuzzTests {
  static let plan = Fuzz.Plan(seed: 0x5EED_0001, makeTargets)

  @Test("every input decodes to a usable value or throws a DecodingError", arguments: plan.targets)
  func fuzz(_ target: Fuzz.Target) throws {
    try Self.plan.run(target)
  }

  @Test("control: a plan whose targets do not build, or are none, fails instead of passing empty")
  func planThatDoesNotBuildFails() throws {
    struct Unbuildable: Error {}
    for plan in [Fuzz.Plan(seed: 1) { throw Unbuildable() }, Fuzz.Plan(seed: 1) { [] }] {
      let target = try #require(plan.targets.first)
      #expect(plan.targets.count == 1)
      #expect(throws: Fuzz.PlanError.self) { try plan.run(target) }
    }
  }

  // MARK: - Inputs that once failed

  @Test("replay: an accountant with a tolerance of Int64.max ms records events (it trapped)")
  func replayToleranceOfInt64Max() throws {
    // Found by this loop before the fix: `record` added the tolerance to the elapsed time.
    let input =
      #"{"intervals":[{"apps":[{"app":"2026-01-02T24:00:00Z","highestMs":900000,"reachedAt":"2026-03-08T16:00:00Z"}],"implausibleEvents":[{"allowanceMs":0,"elapsedMs":7200000,"event":{"includesPastActivity":true,"intervalStart":"2026-03-08T14:00:00Z","name":"stk:1440m:com.example.other","receivedAt":"2026-03-08T16:00:00Z"}}],"start":"2026-03-08T14:00:00Z"}],"timeZone":"America/New_York","toleranceMs":9223372036854775807}"#
    var accountant = try #require(try Fuzz.replay(ThresholdAccountant.self, input))
    let start = try instant("2026-03-08T14:00:00Z")
    let week = try ThresholdEvent(
      name: try ThresholdEventName(app: try app("com.example.other"), threshold: .seconds(604_800)),
      intervalStart: start, receivedAt: start.addingTimeInterval(60))
    #expect(accountant.record(week).added == .seconds(604_800))
  }

  // swift-format-ignore: FunctionBodyLength
  static func makeTargets() throws -> [Fuzz.Target] {
    let newYork = try zone("America/New_York")
    let boundary = DayBoundary(timeZone: newYork, dayStart: try time("04:00"))
    let now = try instant("2026-03-08T12:00:00-04:00")
    let day = try LocalDay(parsing: "2026-03-08")
    let app = try AppID("com.example.app")
    let other = try AppID("com.example.other")
    let rules = CategoryRules([
      .exact(app, .gaming), try .prefix("com.example.", .productivity),
      try .pattern("*.news.*", .newsReading),
    ])
    let record = try UsageRecord(
      app: app, category: .socialMedia, start: now.addingTimeInterval(-3_600), end: now,
      source: .thresholdEvent)
    let record2 = try UsageRecord(
      app: other, start: now.addingTimeInterval(-90_000), duration: .seconds(100_000),
      source: .manual)
    let aggregator = UsageAggregator(boundary: boundary, rules: rules)
    let report = aggregator.aggregate([record, record2])
    let daily = try #require(report[day])
    let window = try DailyWindow(start: try time("22:00"), end: try time("06:30"))
    let timer = try TimerWindow(start: now, duration: .seconds(5_400))
    let activity = MonitoredActivity(
      name: "evening", schedule: .daily(window), warningTime: .seconds(300))
    let plan = try MonitoringPlan([activity, MonitoredActivity(name: "t", schedule: .timer(timer))])
    let name = try ThresholdEventName(app: app, threshold: .seconds(900))
    let intervalStart = now.addingTimeInterval(-7_200)
    let event = try ThresholdEvent(name: name, intervalStart: intervalStart, receivedAt: now)
    let early = try ThresholdEvent(
      name: try ThresholdEventName(app: other, threshold: .seconds(86_400)),
      intervalStart: intervalStart, receivedAt: now, includesPastActivity: true)
    var building = try ThresholdAccountant(timeZone: newYork, tolerance: .seconds(5))
    _ = building.record(event)
    _ = building.record(early)
    let accountant = building
    let interval = try #require(accountant.intervals.first)
    let implausible = try #require(accountant.implausibleEvents.first)
    var log = TimelineLog()
    log.record(try TimelineEvent(.notificationFired, at: now, label: "n"))
    log.record(try TimelineEvent(.userAction, at: now.addingTimeInterval(30), label: "open"))
    let payload = UsageSyncPayload(userId: "u-1", usage: daily) { $0.rawValue }
    let response = DailyUsageResponse(
      usageDate: day,
      categories: [
        try .init(
          categoryType: .socialMedia, categoryName: "Social", totalMinutes: 42,
          budgetMinutes: 60, isOverBudget: false,
          apps: [try .init(appName: "Example", totalMinutes: 42)])
      ])

    let week = day...day.advanced(by: 6)
    return [
      .decoding([app]),
      .decoding([AppCategory.socialMedia, try AppCategory("my_custom")]),
      .decoding(rules.rules),
      .decoding([rules]) { _ = $0.category(for: app) },
      .decoding([boundary]) { boundary in
        _ = boundary.interval(of: day)
        _ = boundary.length(of: day)
        _ = try? boundary.day(containing: now)
      },
      .decoding([record, record2]) { record in
        _ = record.duration
        _ = aggregator.aggregate([record], over: week)
      },
      .decoding([UsageSource.heartbeat]),
      .decoding([window]) { window in
        _ = window.nominalLength
        _ = window.occurrence(startingOn: day, in: newYork)
        _ = window.nextOccurrence(after: now, in: newYork)
        _ = window.length(ofOccurrenceContaining: now, in: newYork)
      },
      .decoding([timer]) { timer in
        _ = timer.duration
        _ = timer.contains(now)
        _ = timer.localEnd(in: newYork)
      },
      .decoding([MonitoringSchedule.daily(window), .timer(timer)]) { _ = $0.intervalLength },
      .decoding([activity]) { _ = MonitoringPlan.violations(in: [$0, $0]) },
      .decoding([plan]) { _ = MonitoringPlan.violations(in: $0.activities) },
      .decoding([name]) { _ = $0.rawValue },
      .decoding([event, early]) { event in
        var copy = accountant
        _ = copy.record(event)
      },
      .decoding([implausible]) { _ = $0.description },
      .decoding(interval.apps) { _ = $0.highest },
      .decoding([interval]) { _ = $0.total },
      .decoding([accountant]) { accountant in
        var copy = accountant
        _ = copy.record(event)
        _ = copy.record(early)
        _ = copy.usage(inIntervalStartingAt: intervalStart)
        _ = copy.implausibleEvents
        _ = copy.pastActivityAllowance(intervalStart: now)
        copy.removeIntervals(startingBefore: now)
      },
      .decoding([try ISOWeek(parsing: "2026-W10")]) { _ = $0.days },
      .decoding([LocalDateTime(day: day, time: try time("23:59:59"))]) { _ = $0.dateComponents },
      .decoding([day]) { day in
        _ = day.weekday
        _ = try? day.isoWeek
        _ = day.lastDayOfMonth
        _ = day.dayOfYear
        _ = boundary.interval(of: day)
      },
      .decoding([day.localMonth]) { _ = $0.days },
      .decoding([try time("04:30")]),
      .decoding([Weekday.sunday]),
      .decoding(log.events),
      .decoding([log]) { log in
        var copy = log
        let responses = copy.responses(within: .seconds(60))
        _ = ResponseLatencyStatistics(responses)
        _ = copy.events(on: day, boundary: boundary)
        _ = try? copy.applyRetention(.days(3), now: now, boundary: boundary)
      },
      .decoding([response]),
      .decoding(response.categories),
      .decoding(response.categories.flatMap(\.apps)),
      .decoding([payload]),
      .decoding(payload.apps),
      .decoding(daily.apps),
      .decoding(daily.categories) { _ = $0.total(of: app) },
      .decoding([daily]) { daily in
        _ = daily.total(of: app)
        _ = daily.length
        _ = UsageSyncPayload(userId: "u", usage: daily) { $0.rawValue }
      },
      .decoding([report]) { report in
        _ = report.total
        _ = report[day]
      },
      .decodingStably([APIEnvelope(success: true, data: payload)]),
    ]
  }
}
