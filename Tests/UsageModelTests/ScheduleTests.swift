import Foundation
import Testing
import UsageModel

@Suite("Daily windows, timer windows and monitoring plans")
struct ScheduleTests {
  let newYork: TimeZone

  init() throws {
    newYork = try zone("America/New_York")
  }

  func window(_ start: String, _ end: String) throws -> DailyWindow {
    try DailyWindow(start: try time(start), end: try time(end))
  }

  @Test("a window crossing midnight ends on the next date")
  func windowCrossingMidnight() throws {
    let bedtime = try window("21:00", "07:00")
    #expect(bedtime.crossesMidnight)
    #expect(bedtime.nominalLength == .hours(10))
    let occurrence = bedtime.occurrence(startingOn: try day("2026-01-02"), in: newYork)
    #expect(try occurrence.start == instant("2026-01-02T21:00:00-05:00"))
    #expect(try occurrence.end == instant("2026-01-03T07:00:00-05:00"))
    #expect(bedtime.contains(try instant("2026-01-03T06:59:59-05:00"), in: newYork))
    #expect(!bedtime.contains(try instant("2026-01-03T07:00:00-05:00"), in: newYork))
    #expect(bedtime.contains(try instant("2026-01-02T21:00:00-05:00"), in: newYork))
    #expect(!bedtime.contains(try instant("2026-01-02T20:59:59-05:00"), in: newYork))
  }

  @Test("a window across the spring-forward night is an hour shorter, and 02:30 never occurs")
  func windowAcrossGap() throws {
    let bedtime = try window("21:00", "07:00")
    #expect(bedtime.occurrence(startingOn: try day("2026-03-07"), in: newYork).duration == 9 * 3600)
    // A window inside the gap is empty that night and skipped by nextOccurrence.
    let gap = try window("02:00", "02:45")
    #expect(gap.occurrence(startingOn: try day("2026-03-08"), in: newYork).duration == 0)
    let next = try #require(
      gap.nextOccurrence(after: try instant("2026-03-07T12:00:00-05:00"), in: newYork))
    #expect(try next.start == instant("2026-03-09T02:00:00-04:00"))
    // A window that starts in the gap begins when the gap ends.
    let straddling = try window("02:30", "03:30")
    let sunday = straddling.occurrence(startingOn: try day("2026-03-08"), in: newYork)
    #expect(try sunday.start == instant("2026-03-08T03:00:00-04:00"))
    #expect(sunday.duration == 1800)
  }

  @Test("a window in the repeated hour happens once, during the first pass")
  func windowInRepeat() throws {
    let repeated = try window("01:00", "01:30")
    let occurrence = repeated.occurrence(startingOn: try day("2026-11-01"), in: newYork)
    #expect(try occurrence.start == instant("2026-11-01T01:00:00-04:00"))
    #expect(occurrence.duration == 1800)
    #expect(!repeated.contains(try instant("2026-11-01T01:10:00-05:00"), in: newYork))
    // The night's window across the fall-back change is an hour longer.
    #expect(
      try window("21:00", "07:00").occurrence(startingOn: try day("2026-10-31"), in: newYork)
        .duration == 11 * 3600)
  }

  @Test("the next occurrence starts strictly after the given instant")
  func nextOccurrence() throws {
    let work = try window("09:00", "17:00")
    let during = try instant("2026-01-02T10:00:00-05:00")
    #expect(
      try work.nextOccurrence(after: during, in: newYork)?.start
        == instant("2026-01-03T09:00:00-05:00"))
    #expect(
      try work.occurrence(containing: during, in: newYork)?.start
        == instant("2026-01-02T09:00:00-05:00"))
  }

  @Test("occurrences overlapping an interval are listed whole and in order")
  func occurrencesOverlapping() throws {
    let bedtime = try window("22:00", "06:00")
    let interval = DateInterval(
      start: try instant("2026-01-02T05:00:00-05:00"), end: try instant("2026-01-03T23:00:00-05:00")
    )
    let occurrences = bedtime.occurrences(overlapping: interval, in: newYork)
    #expect(
      try occurrences.map(\.start) == [
        instant("2026-01-01T22:00:00-05:00"), instant("2026-01-02T22:00:00-05:00"),
        instant("2026-01-03T22:00:00-05:00"),
      ])
    #expect(occurrences.allSatisfy { $0.duration == 8 * 3600 })
    let touching = DateInterval(
      start: try instant("2026-01-02T06:00:00-05:00"), end: try instant("2026-01-02T22:00:00-05:00")
    )
    #expect(bedtime.occurrences(overlapping: touching, in: newYork).isEmpty)
  }

  @Test("a window with equal ends is rejected")
  func emptyWindow() throws {
    #expect(throws: UsageModelError.emptyDailyWindow(at: try time("08:00"))) {
      try window("08:00", "08:00")
    }
    #expect(try json(window("21:00", "07:00")) == #"{"end":"07:00","start":"21:00"}"#)
  }

  @Test("a timer window crossing midnight keeps the date of its end")
  func timerWindowCrossingMidnight() throws {
    let timer = try TimerWindow(
      start: try instant("2026-01-02T23:50:00-05:00"), duration: .minutes(30))
    #expect(timer.localStart(in: newYork).description == "2026-01-02T23:50")
    #expect(timer.localEnd(in: newYork).description == "2026-01-03T00:20")
    #expect(timer.localEnd(in: newYork).dateComponents.day == 3)
    #expect(timer.contains(try instant("2026-01-03T00:10:00-05:00")))
    #expect(!timer.contains(try instant("2026-01-03T00:20:00-05:00")))
    #expect(try json(timer) == #"{"durationMs":1800000,"start":"2026-01-03T04:50:00Z"}"#)
    #expect(throws: UsageModelError.self) {
      try TimerWindow(start: try instant("2026-01-02T23:50:00-05:00"), duration: .zero)
    }
  }

  @Test("a timer window across the spring-forward gap ends on the real wall-clock time")
  func timerWindowAcrossGap() throws {
    let timer = try TimerWindow(
      start: try instant("2026-03-08T01:45:00-05:00"), duration: .minutes(30))
    #expect(timer.localEnd(in: newYork).description == "2026-03-08T03:15")
  }

  // MARK: - Plans

  func activity(_ name: String, _ schedule: MonitoringSchedule, warning: Duration? = nil)
    -> MonitoredActivity
  {
    MonitoredActivity(name: name, schedule: schedule, warningTime: warning)
  }

  @Test("a plan within the platform's limits is accepted")
  func validPlan() throws {
    let plan = try MonitoringPlan([
      activity("day", .daily(try window("00:00", "23:59")), warning: .minutes(5)),
      activity(
        "focus",
        .timer(try TimerWindow(start: try instant("2026-01-02T10:00:00Z"), duration: .minutes(15)))),
    ])
    #expect(plan.activities.count == 2)
  }

  @Test("an interval shorter than 15 minutes is an error naming the limit")
  func intervalTooShort() throws {
    #expect(
      throws: UsageModelError.monitoringIntervalTooShort(
        activity: "short", length: .minutes(14), minimum: .minutes(15))
    ) {
      try MonitoringPlan([activity("short", .daily(try window("10:00", "10:14")))])
    }
  }

  @Test("an interval longer than a week is an error naming the limit")
  func intervalTooLong() throws {
    let timer = try TimerWindow(
      start: try instant("2026-01-02T10:00:00Z"), duration: .hours(7 * 24 + 1))
    #expect(
      throws: UsageModelError.monitoringIntervalTooLong(
        activity: "long", length: .hours(169), maximum: .hours(168))
    ) {
      try MonitoringPlan([activity("long", .timer(timer))])
    }
  }

  @Test("more than 20 activities is an error naming the limit")
  func tooManyActivities() throws {
    let activities = try (0..<21).map { activity("a\($0)", .daily(try window("08:00", "09:00"))) }
    #expect(throws: UsageModelError.tooManyActivities(count: 21, limit: 20)) {
      try MonitoringPlan(activities)
    }
    #expect(try MonitoringPlan(Array(activities.prefix(20))).activities.count == 20)
  }

  @Test("a warning time outside the interval is an error naming the interval")
  func warningTimeOutsideInterval() throws {
    let hour = MonitoringSchedule.daily(try window("08:00", "09:00"))
    #expect(
      throws: UsageModelError.warningTimeOutOfRange(
        activity: "w", warningTime: .minutes(61), limit: .hours(1))
    ) {
      try MonitoringPlan([activity("w", hour, warning: .minutes(61))])
    }
    #expect(throws: UsageModelError.self) {
      try MonitoringPlan([activity("w", hour, warning: .seconds(-1))])
    }
    #expect(try MonitoringPlan([activity("w", hour, warning: .hours(1))]).activities.count == 1)
  }

  @Test("every violation is listed, and names must be unique and non-empty")
  func allViolations() throws {
    let hour = MonitoringSchedule.daily(try window("08:00", "09:00"))
    let violations = MonitoringPlan.violations(in: [
      activity("x", hour), activity("x", .daily(try window("08:00", "08:05"))), activity("", hour),
    ])
    #expect(
      violations == [
        .duplicateActivityName("x"),
        .monitoringIntervalTooShort(activity: "x", length: .minutes(5), minimum: .minutes(15)),
        .emptyActivityName,
      ])
  }

  @Test("a plan's JSON form round-trips, and decoding validates")
  func planJSON() throws {
    let text = """
      {"activities":[{"name":"bed","schedule":{"daily":{"end":"07:00","start":"21:00"}},\
      "warningTimeMs":300000}]}
      """
    let plan = try decode(MonitoringPlan.self, text)
    #expect(try json(plan) == text)
    #expect(throws: DecodingError.self) {
      try decode(MonitoringPlan.self, text.replacingOccurrences(of: "07:00", with: "21:10"))
    }
    #expect(throws: DecodingError.self) {
      try decode(MonitoredActivity.self, #"{"name":"x","schedule":{}}"#)
    }
  }
}
