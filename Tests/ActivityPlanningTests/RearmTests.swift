import ActivityPlanning
import Foundation
import Testing
import UsageModel

@Suite struct RearmTests {
  let zone = TimeZone(identifier: "Europe/London") ?? .gmt
  let now = Date(timeIntervalSince1970: 1_780_000_000)

  @Test("an unchanged plan re-arms nothing; a changed ladder restarts only its activity")
  func minimalRestart() throws {
    let goals = try Fixtures.goals(zone: zone, dayStart: .midnight, eventLimit: nil)
    let first = try MonitoringPlanner.arm(goals, now: now, previous: nil)
    let same = try MonitoringPlanner.arm(
      goals, now: now.addingTimeInterval(60), previous: first.plan)
    #expect(same.start == [])
    #expect(same.stop == [])
    #expect(same.plan.activities == first.plan.activities)
    let changed = try Fixtures.goals(zone: zone, dayStart: .midnight, step: 600, eventLimit: nil)
    let second = try MonitoringPlanner.arm(
      changed, now: now.addingTimeInterval(120), previous: same.plan)
    #expect(second.start.map(\.name) == ["stk.usage.1"])
    #expect(second.start.first?.generation == 2)
    #expect(second.unchanged == ["stk.window.bedtime", "stk.window.homework"])
    #expect(Fixtures.problems(in: second.plan) == [])
    #expect(second.plan.generations["stk.usage.1"] == 2)
  }

  @Test("a stopped activity is listed; a name started again never reuses a generation")
  func stopAndRestart() throws {
    var goals = try Fixtures.goals(zone: zone, dayStart: .midnight)
    let first = try MonitoringPlanner.arm(goals, now: now, previous: nil)
    let windows = goals.windows
    goals.windows = []
    let second = try MonitoringPlanner.arm(
      goals, now: now.addingTimeInterval(60), previous: first.plan)
    #expect(second.stop == ["stk.window.bedtime", "stk.window.homework"])
    goals.windows = windows
    let third = try MonitoringPlanner.arm(
      goals, now: now.addingTimeInterval(120), previous: second.plan)
    #expect(third.start.map(\.generation) == [2, 2])
    #expect(Fixtures.problems(in: third.plan) == [])
  }

  @Test("events of live and previous generations decode; stale ones are rejected")
  func decoding() throws {
    let goals = try Fixtures.goals(zone: zone, dayStart: .midnight)
    var plan = try MonitoringPlanner.arm(goals, now: now, previous: nil).plan
    for minute in 1...3 {
      plan = try MonitoringPlanner.arm(
        goals, now: now.addingTimeInterval(Double(minute * 60)), previous: plan,
        restartingAll: true
      ).plan
    }
    #expect(plan.activity(named: "stk.usage.1")?.generation == 4)
    for generation in 1...4 {
      let event = "stk:g\(generation):5m:com.burbn.instagram"
      let decoded = try plan.decode(event: event, activity: "stk.usage.1")
      switch decoded {
      case .live(let name, let registration):
        #expect(generation == 4)
        #expect(try name.app == (Fixtures.instagram) && name.threshold == .seconds(300))
        #expect(registration.generation == 4)
      case .stale(_, let registration, let live):
        #expect(generation < 4)
        #expect(registration.generation == UInt32(generation) && live == 4)
      }
    }
    #expect(
      throws: PlanningError.unknownGeneration(
        event: "stk:g9:5m:com.burbn.instagram", activity: "stk.usage.1", generation: 9)
    ) {
      try plan.decode(event: "stk:g9:5m:com.burbn.instagram", activity: "stk.usage.1")
    }
    #expect(
      throws: PlanningError.unknownGeneration(
        event: "stk:5m:com.burbn.instagram", activity: "stk.usage.1", generation: nil)
    ) {
      try plan.decode(event: "stk:5m:com.burbn.instagram", activity: "stk.usage.1")
    }
    #expect(
      throws: PlanningError.unknownEvent(
        event: "stk:g4:7m:com.burbn.instagram", activity: "stk.usage.1")
    ) {
      try plan.decode(event: "stk:g4:7m:com.burbn.instagram", activity: "stk.usage.1")
    }
    #expect(
      throws: PlanningError.unknownActivity(
        event: "stk:g4:5m:com.burbn.instagram", activity: "other")
    ) {
      try plan.decode(event: "stk:g4:5m:com.burbn.instagram", activity: "other")
    }
  }

  @Test("registrations older than eight days are forgotten unless live")
  func memory() throws {
    let goals = try Fixtures.goals(zone: zone, dayStart: .midnight)
    var plan = try MonitoringPlanner.arm(goals, now: now, previous: nil).plan
    plan = try MonitoringPlanner.arm(
      goals, now: now.addingTimeInterval(60), previous: plan, restartingAll: true
    ).plan
    let later = now.addingTimeInterval(9 * 86_400)
    plan = try MonitoringPlanner.arm(goals, now: later, previous: plan, restartingAll: true).plan
    #expect(Set(plan.registrations.map(\.generation)) == [3])
    #expect(plan.generations.values.allSatisfy { $0 == 3 })
  }
}
