import Foundation
import TestSupport
import Testing
import UsageModel

/// Hostile JSON for every `Codable` type of UsageModel: decoding throws or gives a value that
/// round-trips and survives its main operations; it never traps or hangs.
@Suite("Decoding hostile JSON never traps")
struct FuzzTests {
  /// Inputs per type; 36 types.
  static let inputsPerType = 850

  typealias Target = Fuzz.Target

  @Test("every input decodes to a usable value or throws a DecodingError", arguments: targets)
  func fuzz(_ target: Target) throws {
    let clock = ContinuousClock.now
    let tally = try target.run(Self.inputsPerType, 0x5EED_0001)
    print("FUZZTIME \(ContinuousClock.now - clock) \(target) \(tally)")
    #expect(tally.inputs == Self.inputsPerType)
  }

  static let targets: [Target] = (try? makeTargets()) ?? []

  /// `targets` swallows a failure to build them, which would leave the test above with no
  /// argument and nothing to check: this fails instead.
  @Test("every fuzz target is built")
  func targetsAreBuilt() throws {
    let built = try Self.makeTargets()
    #expect(!built.isEmpty)
    #expect(built.count == Self.targets.count)
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

  @Test("the fuzz fixtures build")
  func fixturesBuild() throws {
    #expect(try Self.makeTargets().count == Self.targets.count)
  }

  // swift-format-ignore: FunctionBodyLength
  static func makeTargets() throws -> [Target] {
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

    func target<Value: Codable & Equatable & Sendable>(
      _ seeds: [Value], roundTrip: Fuzz.RoundTrip = .equal,
      _ operations: @escaping @Sendable (Value) -> Void = { _ in }
    ) -> Target {
      Target(description: "\(Value.self)") { inputs, seed in
        try Fuzz.run(
          Value.self, seeds: seeds, inputs: inputs, seed: seed, roundTrip: roundTrip,
          operations: operations)
      }
    }

    let week = day...day.advanced(by: 6)
    return [
      target([app]),
      target([AppCategory.socialMedia, try AppCategory("my_custom")]),
      target(rules.rules),
      target([rules]) { _ = $0.category(for: app) },
      target([boundary]) { boundary in
        _ = boundary.interval(of: day)
        _ = boundary.length(of: day)
        _ = try? boundary.day(containing: now)
      },
      target([record, record2]) { record in
        _ = record.duration
        _ = aggregator.aggregate([record], over: week)
      },
      target([UsageSource.heartbeat]),
      target([window]) { window in
        _ = window.nominalLength
        _ = window.occurrence(startingOn: day, in: newYork)
        _ = window.nextOccurrence(after: now, in: newYork)
        _ = window.length(ofOccurrenceContaining: now, in: newYork)
      },
      target([timer]) { timer in
        _ = timer.duration
        _ = timer.contains(now)
        _ = timer.localEnd(in: newYork)
      },
      target([MonitoringSchedule.daily(window), .timer(timer)]) { _ = $0.intervalLength },
      target([activity]) { _ = MonitoringPlan.violations(in: [$0, $0]) },
      target([plan]) { _ = MonitoringPlan.violations(in: $0.activities) },
      target([name]) { _ = $0.rawValue },
      target([event, early]) { event in
        var copy = accountant
        _ = copy.record(event)
      },
      target([implausible]) { _ = $0.description },
      target(interval.apps) { _ = $0.highest },
      target([interval]) { _ = $0.total },
      target([accountant]) { accountant in
        var copy = accountant
        _ = copy.record(event)
        _ = copy.record(early)
        _ = copy.usage(inIntervalStartingAt: intervalStart)
        _ = copy.implausibleEvents
        _ = copy.pastActivityAllowance(intervalStart: now)
        copy.removeIntervals(startingBefore: now)
      },
      target([try ISOWeek(parsing: "2026-W10")]) { _ = $0.days },
      target([LocalDateTime(day: day, time: try time("23:59:59"))]) { _ = $0.dateComponents },
      target([day]) { day in
        _ = day.weekday
        _ = try? day.isoWeek
        _ = day.lastDayOfMonth
        _ = day.dayOfYear
        _ = boundary.interval(of: day)
      },
      target([day.localMonth]) { _ = $0.days },
      target([try time("04:30")]),
      target([Weekday.sunday]),
      target(log.events),
      target([log]) { log in
        var copy = log
        let responses = copy.responses(within: .seconds(60))
        _ = ResponseLatencyStatistics(responses)
        _ = copy.events(on: day, boundary: boundary)
        _ = try? copy.applyRetention(.days(3), now: now, boundary: boundary)
      },
      target([response]),
      target(response.categories),
      target(response.categories.flatMap(\.apps)),
      target([payload]),
      target(payload.apps),
      target(daily.apps),
      target(daily.categories) { _ = $0.total(of: app) },
      target([daily]) { daily in
        _ = daily.total(of: app)
        _ = daily.length
        _ = UsageSyncPayload(userId: "u", usage: daily) { $0.rawValue }
      },
      target([report]) { report in
        _ = report.total
        _ = report[day]
      },
      Target(description: "APIEnvelope<UsageSyncPayload>") { inputs, seed in
        try Fuzz.runStable(
          APIEnvelope<UsageSyncPayload>.self, seeds: [APIEnvelope(success: true, data: payload)],
          inputs: inputs, seed: seed)
      },
    ]
  }
}
