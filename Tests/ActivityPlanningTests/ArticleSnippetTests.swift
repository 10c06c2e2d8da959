import ActivityPlanning
import Foundation
import Testing
import UsageModel

/// The snippets of the article *Planning what to monitor*, verbatim, so that they compile and
/// do what the article says.
@Suite struct ArticleSnippetTests {
  func goals(zone: TimeZone, now: Date) throws -> MonitoringGoals {
    let instagram = try AppID("com.burbn.instagram")
    let clash = try AppID("com.supercell.clashroyale")
    var goals = MonitoringGoals(
      timeZone: zone, dayStart: try TimeOfDay(hour: 4), includesPastActivity: true)
    goals.ladders = [
      try UsageLadder(target: .app(instagram), step: .seconds(300), top: .seconds(4 * 3600)),
      try UsageLadder(target: .app(clash), step: .seconds(900), top: .seconds(2 * 3600)),
    ]
    goals.budgets = [
      try BudgetGoal(
        category: .socialMedia, apps: [instagram], allowance: .seconds(3600),
        alertPercents: [50, 80, 100])
    ]
    goals.windows = [
      try ScheduledWindow(
        name: "bedtime", kind: .block,
        window: DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7)),
        weekdays: [.sunday, .monday, .tuesday, .wednesday, .thursday])
    ]
    goals.sessions = [
      try EarnedTimeSession(
        name: "reward", window: TimerWindow(start: now, duration: .seconds(1800)), apps: [clash])
    ]
    return goals
  }

  func rearm(
    _ goals: MonitoringGoals, now: Date, stored: PlannedMonitoring?,
    stop: ([String]) -> Void, start: (PlannedActivity) throws -> Void
  ) throws -> PlannedMonitoring {
    let rearm = try MonitoringPlanner.arm(goals, now: now, previous: stored)
    stop(rearm.stop)  // DeviceActivityCenter().stopMonitoring(…)
    for activity in rearm.start { try start(activity) }  // startMonitoring(…) with its events
    return rearm.plan  // keep it in the shared folder
  }

  @Test("the article's goals arm and re-arm as it says")
  func article() throws {
    let zone = TimeZone(identifier: "Europe/Paris") ?? .gmt
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    var started: [String] = []
    var stopped: [String] = []
    let first = try rearm(
      goals(zone: zone, now: now), now: now, stored: nil, stop: { stopped += $0 },
      start: { started.append($0.name) })
    #expect(
      started == ["stk.usage.1", "stk.window.bedtime", "stk.session.reward"])
    // An hour later the session has ended: it is stopped and named as left out.
    let later = now.addingTimeInterval(3600)
    let second = try rearm(
      goals(zone: zone, now: now), now: later, stored: first, stop: { stopped += $0 },
      start: { started.append($0.name) })
    #expect(stopped == ["stk.session.reward"])
    #expect(started.count == 3)
    #expect(second.omissions.count == 1)
  }
}
