import ActivityPlanning
import Foundation
import Testing
import UsageModel

@Suite struct MonitoringPlannerTests {
  let zone = TimeZone(identifier: "Europe/Paris") ?? .gmt
  let now = Date(timeIntervalSince1970: 1_780_000_000)

  @Test("a typical app's goals give a valid plan with the stated resolutions")
  func typicalPlan() throws {
    let goals = try Fixtures.goals(
      zone: zone, dayStart: TimeOfDay(hour: 4), sessionStart: now, eventLimit: nil)
    let armed = try MonitoringPlanner.arm(goals, now: now, previous: nil)
    #expect(Fixtures.problems(in: armed.plan) == [])
    #expect(
      armed.plan.activities.map(\.name) == [
        "stk.usage.1", "stk.window.bedtime", "stk.window.homework", "stk.session.reward",
      ])
    #expect(armed.plan.resolutions[try Fixtures.instagram] == .seconds(300))
    #expect(armed.plan.resolutions[try Fixtures.netflix] == .seconds(600))
    // TikTok has only the budget's points: 30, 48 and 60 minutes.
    #expect(armed.plan.resolutions[try Fixtures.tiktok] == .seconds(1800))
    #expect(armed.plan.tradeOffs == [])
    #expect(armed.plan.omissions == [])
    #expect(armed.start.count == 4)
    #expect(armed.stop == [])
    #expect(armed.registrations.allSatisfy { $0.generation == 1 && $0.includesPastActivity })
    let usage = try #require(armed.plan.activity(named: "stk.usage.1"))
    #expect(usage.events.contains { $0.rawValue == "stk:g1:48m:com.burbn.instagram" })
    guard case .daily(let window) = usage.activity.schedule else {
      Issue.record("usage is not daily")
      return
    }
    #expect(try window.start == TimeOfDay(hour: 4))
    #expect(try window.end == TimeOfDay(hour: 3, minute: 59))
  }

  @Test("an event limit coarsens the finest ladders first, by doubling, and says so")
  func coarsening() throws {
    var goals = try Fixtures.goals(zone: zone, dayStart: .midnight, step: 60, eventLimit: 30)
    goals.windows = []
    // 20 activities of 30 events: Instagram's 240 one-minute steps must become coarser.
    let armed = try MonitoringPlanner.arm(goals, now: now, previous: nil)
    #expect(Fixtures.problems(in: armed.plan) == [])
    let instagram = try Fixtures.instagram
    let coarsened = armed.plan.tradeOffs.compactMap { tradeOff -> Duration? in
      if case .coarsenedLadder(instagram, .seconds(60), let granted) = tradeOff { return granted }
      return nil
    }
    #expect(coarsened.count == 1)
    #expect(armed.plan.activities.allSatisfy { $0.events.count <= 30 })
    // 60 s doubles until the ladder and the 30- and 60-minute alert points fit in 30 events:
    // 480 s gives 30 + 2, 960 s gives 15 + 2.
    #expect(coarsened.first == .seconds(960))
  }

  @Test("windows that do not fit beside the usage activities merge when they are identical")
  func mergingWindows() throws {
    var goals = MonitoringGoals(timeZone: zone)
    let window = try DailyWindow(start: TimeOfDay(hour: 9), end: TimeOfDay(hour: 12))
    goals.windows = try (1...20).map {
      try ScheduledWindow(
        name: "w\($0)", kind: .block, window: window, weekdays: [Weekday.allCases[$0 % 7]])
    }
    goals.ladders = [
      try UsageLadder(target: .app(Fixtures.instagram), step: .seconds(300), top: .seconds(3600))
    ]
    let armed = try MonitoringPlanner.arm(goals, now: now, previous: nil)
    #expect(Fixtures.problems(in: armed.plan) == [])
    #expect(armed.plan.activities.count == 2)
    guard case .mergedWindows(let names, "stk.window.w1") = armed.plan.tradeOffs.first else {
      Issue.record("no merge: \(armed.plan.tradeOffs)")
      return
    }
    #expect(names.count == 20)
    guard case .window(_, _, let weekdays) = armed.plan.activities[1].role else {
      Issue.record("not a window")
      return
    }
    #expect(weekdays == Weekday.allCases)
  }

  @Test("thresholds beyond the day's interval and ended sessions are named, not dropped")
  func omissions() throws {
    var goals = MonitoringGoals(timeZone: zone)
    goals.ladders = [
      try UsageLadder(
        target: .app(Fixtures.instagram), step: .seconds(6 * 3600), top: .seconds(30 * 3600))
    ]
    goals.sessions = [
      try EarnedTimeSession(
        name: "old",
        window: TimerWindow(start: now.addingTimeInterval(-7200), duration: .seconds(1800)),
        apps: [Fixtures.clash])
    ]
    let armed = try MonitoringPlanner.arm(goals, now: now, previous: nil)
    #expect(armed.plan.omissions.count == 2)
    #expect(
      armed.plan.omissions.contains { if case .sessionEnded("old", _) = $0 { true } else { false } }
    )
    #expect(
      armed.plan.omissions.contains {
        if case .thresholdsBeyondInterval(_, let thresholds, _) = $0 {
          thresholds == [.seconds(24 * 3600), .seconds(30 * 3600)]
        } else {
          false
        }
      })
    #expect(armed.plan.resolutions[try Fixtures.instagram] == .seconds(6 * 3600))
  }

  @Test("the plan's JSON round-trips and keeps its documented keys")
  func codable() throws {
    let goals = try Fixtures.goals(
      zone: zone, dayStart: TimeOfDay(hour: 23, minute: 30), sessionStart: now)
    let armed = try MonitoringPlanner.arm(goals, now: now, previous: nil)
    let data = try JSONEncoder().encode(armed.plan)
    #expect(try JSONDecoder().decode(PlannedMonitoring.self, from: data) == armed.plan)
    let goalsData = try JSONEncoder().encode(goals)
    #expect(try JSONDecoder().decode(MonitoringGoals.self, from: goalsData) == goals)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "timeZone", "dayStart", "includesPastActivity", "counting", "activities", "resolutionsMs",
        "tradeOffs", "omissions", "registrations", "generations",
      ])
  }
}
