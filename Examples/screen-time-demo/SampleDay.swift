import Foundation
import ScreenTimeKit

/// The built-in sample: one person's week in New York up to Sunday 2026-03-08 — the day the
/// clocks jump from 02:00 to 03:00, so the local day is 23 hours long.
struct SampleDay {
  /// One stretch of use of one app, in local wall-clock time.
  struct Session {
    var app: AppID
    var day: LocalDay
    var start: TimeOfDay
    var minutes: Int
    /// Whether the platform held the session's thresholds back and delivered them together a
    /// minute after it ended (a catch-up storm; real use, but the evidence cannot tell it from
    /// thresholds fired with no use).
    var held = false
  }

  let timeZone: TimeZone
  let boundary: DayBoundary
  let day: LocalDay
  let rules: CategoryRules
  let sessions: [Session]
  /// When the extension was killed and when the system relaunched it.
  let outage: (from: TimeOfDay, to: TimeOfDay)
  /// When the person opens the app in the evening.
  let evening: TimeOfDay

  init() throws {
    guard let zone = TimeZone(identifier: "America/New_York") else {
      throw DemoError(description: "this system has no America/New_York time zone")
    }
    timeZone = zone
    boundary = DayBoundary(timeZone: zone)
    day = try LocalDay(year: 2026, month: 3, day: 8)
    let instagram = try AppID("com.burbn.instagram")
    let duolingo = try AppID("com.duolingo.DuolingoMobile")
    let clash = try AppID("com.supercell.clashroyale")
    let netflix = try AppID("com.netflix.Netflix")
    rules = CategoryRules([
      .exact(netflix, .entertainment),
      try .prefix("com.burbn.", .socialMedia),
      try .prefix("com.supercell.", .gaming),
      try .prefix("com.duolingo.", .education),
    ])
    // March 1–7: the same evening every day.
    var sessions: [Session] = []
    for offset in (1...7).reversed() {
      let earlier = day.advanced(by: -offset)
      sessions += [
        Session(app: instagram, day: earlier, start: try TimeOfDay(hour: 8), minutes: 70),
        Session(app: duolingo, day: earlier, start: try TimeOfDay(hour: 17), minutes: 15),
        Session(app: clash, day: earlier, start: try TimeOfDay(hour: 18), minutes: 25),
        Session(app: netflix, day: earlier, start: try TimeOfDay(hour: 20), minutes: 80),
      ]
    }
    // Sunday.
    sessions += [
      Session(app: instagram, day: day, start: try TimeOfDay(hour: 7, minute: 10), minutes: 25),
      Session(app: duolingo, day: day, start: try TimeOfDay(hour: 7, minute: 40), minutes: 20),
      Session(app: clash, day: day, start: try TimeOfDay(hour: 12, minute: 5), minutes: 35),
      Session(app: instagram, day: day, start: try TimeOfDay(hour: 14), minutes: 30),
      Session(app: netflix, day: day, start: try TimeOfDay(hour: 19, minute: 30), minutes: 95),
      Session(
        app: instagram, day: day, start: try TimeOfDay(hour: 22, minute: 10), minutes: 20,
        held: true),
    ]
    self.sessions = sessions
    outage = (try TimeOfDay(hour: 13, minute: 10), try TimeOfDay(hour: 13, minute: 52))
    evening = try TimeOfDay(hour: 23, minute: 30)
  }

  /// The instant the clock shows `time` on `day` (the first, where it shows it twice).
  func instant(_ time: TimeOfDay, on day: LocalDay) throws -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let components = DateComponents(
      year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute)
    guard let date = calendar.date(from: components) else {
      throw DemoError(description: "no instant shows \(time) on \(day)")
    }
    return date
  }

  /// What the app wants to know: each app's use every 5 minutes up to 4 hours, and a bedtime
  /// block on school nights; armed the evening before the week starts.
  func plan() throws -> MonitoringRearm {
    var goals = MonitoringGoals(timeZone: timeZone)
    goals.ladders = try Set(sessions.map(\.app)).sorted { $0.rawValue < $1.rawValue }.map {
      try UsageLadder(target: .app($0), step: .seconds(5 * 60), top: .seconds(4 * 3600))
    }
    goals.windows = [
      try ScheduledWindow(
        name: "bedtime", kind: .block,
        window: DailyWindow(start: TimeOfDay(hour: 22), end: TimeOfDay(hour: 6, minute: 30)),
        weekdays: [.sunday, .monday, .tuesday, .wednesday, .thursday])
    ]
    let armedAt = try instant(TimeOfDay(hour: 23), on: day.advanced(by: -8))
    return try MonitoringPlanner.arm(goals, now: armedAt, previous: nil)
  }

  /// The app's settings: the categories, the planned activities and their registrations,
  /// March's budgets, two XP a minute of learning, and tracking expected from 07:00 on.
  func configuration() throws -> PipelineConfiguration {
    var configuration = PipelineConfiguration(userId: "user-123", timeZone: timeZone)
    configuration.rules = rules
    let plan = try plan().plan
    configuration.monitoring = plan.monitoring
    configuration.registrations = plan.registrations
    configuration.includesPastActivity = plan.includesPastActivity
    configuration.plans = [
      try MonthlyPlan(
        month: LocalMonth(year: 2026, month: 3),
        amounts: [
          .socialMedia: .seconds(30 * 3600), .entertainment: .seconds(55 * 3600),
          .gaming: .seconds(25 * 3600),
        ],
        excluded: [.education], granularity: .minutes)
    ]
    configuration.rewards = try UsageRewards(xpPerMinute: [.education: 2])
    configuration.expectation = .daily(
      try DailyWindow(start: TimeOfDay(hour: 7), end: .midnight), in: timeZone)
    return configuration
  }
}
