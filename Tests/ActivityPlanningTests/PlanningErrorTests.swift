import ActivityPlanning
import Foundation
import Testing
import UsageModel

/// Bad input gets a typed error that names it, never a trap.
@Suite struct PlanningErrorTests {
  let zone = TimeZone(identifier: "America/New_York") ?? .gmt
  let now = Date(timeIntervalSince1970: 1_780_000_000)

  /// The error `body` throws, or `nil`.
  private func error(_ body: () throws(PlanningError) -> Void) -> PlanningError? {
    do throws(PlanningError) {
      try body()
      return nil
    } catch {
      return error
    }
  }

  @Test("no goals at all")
  func nothing() {
    let goals = MonitoringGoals(timeZone: zone)
    #expect(
      error { () throws(PlanningError) in
        _ = try MonitoringPlanner.arm(goals, now: now, previous: nil)
      } == .nothingToMonitor)
  }

  @Test("a category without apps")
  func noApps() {
    #expect(
      error { () throws(PlanningError) in
        _ = try UsageLadder(
          target: .category(.gaming, apps: []), step: .seconds(300), top: .seconds(3600))
      } == .noApps(goal: "category gaming"))
    #expect(
      error { () throws(PlanningError) in
        _ = try BudgetGoal(
          category: .gaming, apps: [], allowance: .seconds(3600), alertPercents: [100])
      } == .noApps(goal: "budget gaming"))
  }

  @Test("a resolution under a minute")
  func tooFine() throws {
    let app = try AppID("com.a")
    #expect(
      error { () throws(PlanningError) in
        _ = try UsageLadder(target: .app(app), step: .seconds(59), top: .seconds(3600))
      } == .resolutionTooFine(goal: "app com.a", step: .seconds(59), minimum: .seconds(60)))
  }

  @Test("more apps than 20 activities can hold at any resolution")
  func tooManyApps() throws {
    var goals = MonitoringGoals(timeZone: zone)
    goals.maximumEventsPerActivity = 2
    goals.ladders = try (0..<41).map {
      try UsageLadder(target: .app(AppID("com.app\($0)")), step: .seconds(60), top: .seconds(600))
    }
    #expect(
      error { () throws(PlanningError) in
        _ = try MonitoringPlanner.arm(goals, now: now, previous: nil)
      }
        == .appsDoNotFit(apps: 41, events: 41, activities: 20, eventsPerActivity: 2))
    goals.ladders.removeLast()
    #expect(
      error { () throws(PlanningError) in
        _ = try MonitoringPlanner.arm(goals, now: now, previous: nil)
      } == nil)
  }

  @Test("a window or session shorter than 15 minutes")
  func tooShort() throws {
    let window = try DailyWindow(start: TimeOfDay(hour: 9), end: TimeOfDay(hour: 9, minute: 14))
    #expect(
      error { () throws(PlanningError) in
        _ = try ScheduledWindow(name: "quick", kind: .focus, window: window)
      }
        == .windowTooShort(goal: "quick", length: .seconds(14 * 60), minimum: .seconds(900)))
    let timer = try TimerWindow(start: now, duration: .seconds(600))
    let app = try AppID("com.a")
    #expect(
      error { () throws(PlanningError) in
        _ = try EarnedTimeSession(name: "tiny", window: timer, apps: [app])
      }
        == .windowTooShort(goal: "tiny", length: .seconds(600), minimum: .seconds(900)))
  }

  @Test("windows and sessions alone beyond 20 activities, an app in two ladders, a bad limit")
  func otherErrors() throws {
    var goals = MonitoringGoals(timeZone: zone)
    goals.windows = try (0..<21).map {
      try ScheduledWindow(
        name: "w\($0)", kind: .block,
        window: DailyWindow(start: TimeOfDay(hour: 1, minute: $0), end: TimeOfDay(hour: 3)))
    }
    #expect(
      error { () throws(PlanningError) in
        _ = try MonitoringPlanner.arm(goals, now: now, previous: nil)
      }
        == .tooManyActivities(needed: 21, limit: 20))
    goals.windows = []
    let app = try AppID("com.a")
    let ladder = try UsageLadder(target: .app(app), step: .seconds(300), top: .seconds(3600))
    goals.ladders = [ladder, ladder]
    #expect(
      error { () throws(PlanningError) in
        _ = try MonitoringPlanner.arm(goals, now: now, previous: nil)
      }
        == .duplicateGoal("com.a"))
    goals.ladders = [ladder]
    goals.maximumEventsPerActivity = 0
    #expect(
      error { () throws(PlanningError) in
        _ = try MonitoringPlanner.arm(goals, now: now, previous: nil)
      }
        == .invalidGoal(
          goal: "goals", field: "maximumEventsPerActivity", value: "0", requirement: "at least 1"))
  }

  @Test("a re-arm at or before the last registration")
  func rearmBackwards() throws {
    let goals = try Fixtures.goals(zone: zone, dayStart: .midnight)
    let first = try MonitoringPlanner.arm(goals, now: now, previous: nil)
    #expect(
      error { () throws(PlanningError) in
        _ = try MonitoringPlanner.arm(goals, now: now, previous: first.plan, restartingAll: true)
      } == .rearmNotAfterLastRegistration(activity: "stk.usage.1", last: now, now: now))
  }

  @Test("every error describes itself in a sentence")
  func descriptions() {
    let errors: [PlanningError] = [
      .nothingToMonitor, .noApps(goal: "x"), .duplicateGoal("x"),
      .tooManyActivities(needed: 21, limit: 20),
      .appsDoNotFit(apps: 1, events: 1, activities: 1, eventsPerActivity: 1),
      .unknownActivity(event: "e", activity: "a"),
      .unknownGeneration(event: "e", activity: "a", generation: nil),
      .unknownEvent(event: "e", activity: "a"),
    ]
    for error in errors { #expect(error.description.hasSuffix(".")) }
  }
}
