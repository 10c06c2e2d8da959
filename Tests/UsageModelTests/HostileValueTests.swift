import Foundation
import Testing
import UsageModel

/// Values no sane caller passes, through UsageModel's public API: each gives a defined result or
/// a typed error, never a trap, a hang or unbounded memory.
@Suite("Hostile values give a defined result or a typed error")
struct HostileValueTests {
  /// Instants outside 0001-01-03...9999-12-29, or not numbers at all.
  static let unusableDates = [
    Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity),
    Date(timeIntervalSince1970: -.infinity), .distantPast, Date(timeIntervalSince1970: 1e300),
  ]

  static let megabyte = String(repeating: "a", count: 1 << 20)

  @Test("an instant that is not a number, infinite or out of range is a typed error")
  func unusableInstants() throws {
    let app = try app("com.a")
    let name = try ThresholdEventName(app: app, threshold: .seconds(60))
    let boundary = DayBoundary(timeZone: try zone("Europe/Paris"))
    let noon = try instant("2026-03-08T12:00:00Z")
    var log = TimelineLog()
    for date in Self.unusableDates {
      #expect(throws: UsageModelError.self) {
        try UsageRecord(app: app, start: date, end: noon, source: .manual)
      }
      #expect(throws: UsageModelError.self) {
        try UsageRecord(app: app, start: date, duration: .seconds(1), source: .manual)
      }
      #expect(throws: UsageModelError.self) { try TimerWindow(start: date, duration: .seconds(1)) }
      #expect(throws: UsageModelError.self) {
        try ThresholdEvent(name: name, intervalStart: date, receivedAt: noon)
      }
      #expect(throws: UsageModelError.self) { try TimelineEvent(.userAction, at: date) }
      #expect(throws: UsageModelError.self) { try boundary.day(containing: date) }
      #expect(throws: UsageModelError.self) {
        try log.applyRetention(.today, now: date, boundary: boundary)
      }
      #expect(throws: UsageModelError.self) {
        try log.events(onDayContaining: date, boundary: boundary)
      }
      // Every error describes itself without describing the date (which, for NaN, would stop
      // the process).
      do {
        _ = try UsageRecord(app: app, start: date, end: noon, source: .manual)
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
    #expect(
      UsageModelError.reversedInterval(start: Self.unusableDates[0], end: noon).description
        .contains("nan s since 1970"))
  }

  @Test("Date.distantFuture is a supported instant; a record up to it aggregates within bounds")
  func distantFuture() throws {
    let record = try UsageRecord(
      app: try app("com.a"), start: try instant("2026-03-08T12:00:00Z"), end: .distantFuture,
      source: .manual)
    let aggregator = UsageAggregator(boundary: DayBoundary(timeZone: try zone("UTC")))
    let report = try aggregator.aggregate(
      [record],
      clippedTo: DateInterval(start: .distantPast, end: try instant("2026-03-10T00:00:00Z")))
    #expect(report.days.count == 2)
    #expect(report.total == .hours(36))
    #expect(throws: UsageModelError.self) {
      try aggregator.aggregate(
        [record],
        clippedTo: DateInterval(start: Date(timeIntervalSince1970: .nan), duration: 60))
    }
  }

  @Test("a daily window answers about any instant: nothing for instants without a day")
  func dailyWindowAtHostileInstants() throws {
    let window = try DailyWindow(start: try time("22:00"), end: try time("06:00"))
    let zone = try zone("America/New_York")
    for date in Self.unusableDates {
      #expect(!window.contains(date, in: zone))
      #expect(window.occurrence(containing: date, in: zone) == nil)
      #expect(window.nextOccurrence(after: date, in: zone) == nil || date == .distantPast)
    }
    // A period from the distant past reaches back to 0001-01-03, the earliest supported
    // instant, rather than being empty.
    let fromTheStart = window.occurrences(
      overlapping: DateInterval(
        start: .distantPast, end: Date(timeIntervalSince1970: -62_135_000_000)),
      in: zone)
    #expect((5...6).contains(fromTheStart.count), "one a night for five nights")
    let notANumber = DateInterval(start: Date(timeIntervalSince1970: .nan), duration: 60)
    #expect(window.occurrences(overlapping: notANumber, in: zone).isEmpty)
  }

  @Test(
    "a time interval that is not a finite amount, or negative, is a typed error",
    arguments: [TimeInterval.nan, .infinity, -.infinity, -1, -.leastNonzeroMagnitude, 1e300])
  func unusableTimeIntervals(duration: TimeInterval) throws {
    #expect(throws: UsageModelError.self) {
      try UsageRecord(
        app: try app("com.a"), start: try instant("2026-03-08T12:00:00Z"), duration: duration,
        source: .manual)
    }
  }

  @Test(
    "a duration beyond the supported instants, negative or empty is a typed error",
    arguments: [
      Duration.seconds(Int64.max), .seconds(Int64.min), .milliseconds(Int64.max),
      .milliseconds(-1), .zero, .nanoseconds(1),
      Duration(secondsComponent: Int64.max, attosecondsComponent: 999_999_999_999_999_999),
    ])
  func unusableDurations(duration: Duration) throws {
    let start = try instant("2026-03-08T12:00:00Z")
    #expect(throws: UsageModelError.self) { try TimerWindow(start: start, duration: duration) }
    #expect(throws: UsageModelError.self) {
      try ThresholdEventName(app: try app("com.a"), threshold: duration)
    }
    if duration != .zero, duration != .nanoseconds(1) {
      #expect(throws: UsageModelError.self) {
        try UsageRecord(app: try app("com.a"), start: start, duration: duration, source: .manual)
      }
    }
    var log = TimelineLog([
      try TimelineEvent(.notificationFired, at: start),
      try TimelineEvent(.userAction, at: start.addingTimeInterval(1)),
    ])
    let answered = log.responses(within: duration).first?.response != nil
    #expect(answered == (duration >= .seconds(1)), "window \(duration)")
    log.record(try TimelineEvent(.userAction, at: start))
  }

  @Test("empty and 1 MB strings are refused with a typed error, quickly")
  func hostileStrings() throws {
    for text in ["", Self.megabyte, "\u{0}", "a b"] {
      #expect(throws: UsageModelError.self) { try AppID(text) }
      #expect(throws: UsageModelError.self) { try AppCategory(text) }
      #expect(throws: UsageModelError.self) { try ThresholdEventName(parsing: text) }
      #expect(throws: UsageModelError.self) { try LocalDay(parsing: text) }
      #expect(throws: UsageModelError.self) { try TimeOfDay(parsing: text) }
      #expect(throws: UsageModelError.self) { try ISOWeek(parsing: text) }
      #expect(throws: UsageModelError.self) { try DayBoundary(timeZoneIdentifier: text) }
      #expect(throws: DecodingError.self) { try decode(AppID.self, "\"\(text)\"") }
    }
    // Free text is kept as it is: a 1 MB label or rule value is a value like any other.
    let event = try TimelineEvent(
      .notificationFired, at: try instant("2026-03-08T12:00:00Z"), label: Self.megabyte)
    #expect(event.label?.utf8.count == 1 << 20)
    let rules = CategoryRules([
      try .prefix(Self.megabyte, .gaming), try .pattern(Self.megabyte, .gaming),
    ])
    #expect(rules.category(for: try app("com.a")) == .other)
    #expect(throws: UsageModelError.self) { try CategoryRule.prefix("", .gaming) }
  }

  @Test("an unknown time zone is a typed error, when given and when decoded")
  func unknownTimeZones() throws {
    for identifier in ["Mars/Olympus", "GMT+99", "../../etc/passwd", "", "UTC+25"] {
      #expect(throws: UsageModelError.unknownTimeZone(identifier: identifier)) {
        try DayBoundary(timeZoneIdentifier: identifier)
      }
      #expect(throws: DecodingError.self) {
        try decode(DayBoundary.self, #"{"timeZone":"\#(identifier)"}"#)
      }
      #expect(throws: DecodingError.self) {
        try decode(
          ThresholdAccountant.self,
          #"{"timeZone":"\#(identifier)","toleranceMs":0,"intervals":[]}"#)
      }
    }
  }

  @Test("a million exact and prefix rules answer in a lookup, not a scan of the rules")
  func aMillionRules() throws {
    let rules = CategoryRules(
      try (0..<1_000_000).map { index in
        index % 2 == 0
          ? CategoryRule.exact(try AppID("com.app\(index)"), .gaming)
          : try CategoryRule.prefix("com.app\(index).", .productivity)
      })
    let clock = ContinuousClock.now
    for index in 0..<10_000 {
      let category = rules.category(for: try AppID("com.app\(index).x"))
      #expect(category == (index % 2 == 0 ? .other : .productivity))
    }
    #expect(rules.category(for: try AppID("com.app2")) == .gaming)
    // 10,000 lookups in a million rules: a scan would take minutes; the index takes well under
    // a second even in a debug build.
    #expect(ContinuousClock.now - clock < .seconds(10))
  }

  @Test("a million apps in one day: the sync payload lists each once and adds up to the day")
  func aMillionApps() throws {
    let apps = try (0..<1_000_000).map {
      AppUsage(app: try AppID("com.app\($0)"), total: .milliseconds(50))
    }
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let day = try day("2026-03-08")
    let usage = try DailyUsage(
      day: day, interval: boundary.interval(of: day), total: .seconds(50_000), categories: [],
      apps: apps)
    let payload = UsageSyncPayload(userId: "u", usage: usage) { $0.rawValue }
    #expect(payload.apps.count == 1_000_000)
    // 50,000 s is 833.3 minutes: the remainders go to the first apps, one minute each.
    #expect(payload.apps.reduce(0) { $0 + $1.totalMinutes } == 833)
    let timer = try TimerWindow(start: boundary.start(of: day), duration: .seconds(3_600))
    let activities = (0..<100_000).map {
      MonitoredActivity(name: "\($0)", schedule: .timer(timer))
    }
    #expect(
      MonitoringPlan.violations(in: activities)
        == [.tooManyActivities(count: 100_000, limit: MonitoringLimits.maximumActivities)])
  }

  @Test("a clock that goes back: late events add nothing, retention drops nothing it should keep")
  func clockGoesBack() throws {
    let start = try instant("2026-03-08T12:00:00Z")
    let name = try ThresholdEventName(app: try app("com.a"), threshold: .seconds(600))
    var accountant = ThresholdAccountant(timeZone: try zone("UTC"))
    // Received before its interval began: implausible, reported, not counted.
    let early = try ThresholdEvent(
      name: name, intervalStart: start, receivedAt: start.addingTimeInterval(-3_600))
    guard case .implausible(let report) = accountant.record(early) else {
      Issue.record("an event received before its interval began must be implausible")
      return
    }
    #expect(report.elapsed == .seconds(-3_600))
    #expect(accountant.usage(of: try app("com.a"), inIntervalStartingAt: start) == .zero)
    var log = TimelineLog()
    log.record(try TimelineEvent(.userAction, at: start))
    log.record(try TimelineEvent(.notificationFired, at: start.addingTimeInterval(-60)))
    #expect(log.events.map(\.kind) == [.notificationFired, .userAction])
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    #expect(
      try log.applyRetention(
        .today, now: start.addingTimeInterval(-86_400 * 365), boundary: boundary)
        == 0)
    #expect(log.events.count == 2)
  }
}
