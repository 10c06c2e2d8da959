import ActivityPlanning
import BudgetMath
import Foundation
import Testing
import UsageModel

@Suite struct GoalTests {
  @Test("a budget goal takes its allowance from a month's plan and its shares from the alerts")
  func budgetFromPlan() throws {
    let plan = try MonthlyPlan(
      month: LocalMonth(year: 2026, month: 3), amounts: [.socialMedia: .seconds(31 * 3600)],
      granularity: .minutes)
    let goal = try BudgetGoal(
      plan: plan, category: .socialMedia, on: LocalDay(year: 2026, month: 3, day: 8),
      apps: [Fixtures.instagram])
    #expect(goal.allowance == .seconds(3600))
    #expect(goal.alertPercents == [50, 80, 100])
    #expect(goal.alertPoints == [.seconds(1800), .seconds(2880), .seconds(3600)])
    #expect(throws: PlanningError.self) {
      try BudgetGoal(
        plan: plan, category: .gaming, on: LocalDay(year: 2026, month: 3, day: 8),
        apps: [Fixtures.instagram])
    }
  }

  @Test("an alert point is rounded up to the second, never below one")
  func alertPointRounding() throws {
    let goal = try BudgetGoal(
      category: .gaming, apps: [Fixtures.clash], allowance: .milliseconds(1001),
      alertPercents: [1, 50, 100])
    #expect(goal.alertPoints == [.seconds(1), .seconds(2)])
  }

  @Test("a stored plan that breaks the platform's limits does not decode")
  func decodingChecksLimits() throws {
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    let goals = try Fixtures.goals(zone: .gmt, dayStart: .midnight)
    let plan = try MonitoringPlanner.arm(goals, now: now, previous: nil).plan
    var object = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(plan)) as? [String: Any])
    let activities = try #require(object["activities"] as? [Any])
    object["activities"] = Array(repeating: activities[0], count: 2)
    let data = try JSONSerialization.data(withJSONObject: object)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PlannedMonitoring.self, from: data)
    }
  }

  @Test("goals decode only with valid ladders")
  func goalsDecoding() throws {
    let json = """
      {"timeZone": "Europe/Paris", "dayStart": "04:00", "includesPastActivity": true,
       "counting": "fromOccurrenceStart",
       "ladders": [{"target": {"app": "com.a"}, "stepMs": 30000, "topMs": 3600000}]}
      """
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(MonitoringGoals.self, from: Data(json.utf8))
    }
    let valid = json.replacingOccurrences(of: "30000", with: "300000")
    let goals = try JSONDecoder().decode(MonitoringGoals.self, from: Data(valid.utf8))
    #expect(goals.ladders.first?.step == .seconds(300))
    #expect(try goals.dayStart == TimeOfDay(hour: 4))
  }
}
