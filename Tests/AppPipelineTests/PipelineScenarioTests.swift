import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// Whole scenarios of a screen-time app, run through the whole pipeline: extension callbacks,
/// the shared folder, a drain, a dashboard.
@Suite("Scenarios through the pipeline")
struct PipelineScenarioTests {
  // MARK: - A 15-minute pause: idle or tracker down?

  /// 3 minutes of a learning app at 10:00, 15 minutes without use, 3 more minutes; monitoring
  /// began at 10:00, so nothing is known before.
  func fifteenMinutePause(heartbeatsDuringThePause: Bool) throws -> Dashboard {
    var harness = try PipelineHarness()
    let day = "2026-04-15"
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 10:00"))
    try harness.tick(from: "\(day) 10:00", through: "\(day) 10:03")
    try harness.use("com.duolingo", day: day, from: "10:00", minutes: 3)
    if heartbeatsDuringThePause { try harness.tick(from: "\(day) 10:03", through: "\(day) 10:18") }
    try harness.tick(from: "\(day) 10:18", through: "\(day) 10:21")
    try harness.use("com.duolingo", day: day, from: "10:18", minutes: 3, alreadyUsed: 3)
    return try harness.dashboard(day, at: "10:21")
  }

  @Test("a 15-minute pause with heartbeats alive is idle, and nothing alerts")
  func pauseWithHeartbeatsIsIdle() throws {
    let dashboard = try fifteenMinutePause(heartbeatsDuringThePause: true)
    #expect(dashboard.usage.total == minutes(6))
    #expect(dashboard.gaps.gaps.map(\.classification) == [.idle])
    #expect(dashboard.gaps.gaps.first?.duration == minutes(15))
    #expect(dashboard.gaps.unknown == .zero)
    #expect(dashboard.alerts.trackerDown.isEmpty)
  }

  @Test("a 15-minute pause with the extension dead is one tracker-down gap, alerted")
  func pauseWithDeadExtensionIsTrackerDown() throws {
    let dashboard = try fifteenMinutePause(heartbeatsDuringThePause: false)
    #expect(dashboard.usage.total == minutes(6))
    #expect(dashboard.gaps.gaps.map(\.classification) == [.trackerDown])
    #expect(dashboard.gaps.gaps.first?.duration == minutes(15))
    #expect(dashboard.alerts.trackerDown.count == 1)
    #expect(dashboard.alerts.trackerDown.first?.trackerDown == minutes(15))
  }

  @Test("a tracker-down alert shows until it is acknowledged, and never after")
  func trackerDownAlertShowsUntilAcknowledged() throws {
    var harness = try PipelineHarness()
    let day = "2026-04-15"
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 10:00"))
    try harness.use("com.duolingo", day: day, from: "10:00", minutes: 3)
    try harness.use("com.duolingo", day: day, from: "10:18", minutes: 3, alreadyUsed: 3)
    let first = try harness.dashboard(day, at: "10:21")
    #expect(first.alerts.trackerDown.count == 1)
    #expect(
      try harness.dashboard(day, at: "10:22").alerts.trackerDown.map(\.window.start)
        == first.alerts.trackerDown.map(\.window.start))
    #expect(try harness.pipeline.acknowledge(first.alerts).trackerDown == first.alerts.trackerDown)
    #expect(try harness.dashboard(day, at: "10:23").alerts.trackerDown.isEmpty)
  }

  // MARK: - A daily budget

  @Test("65 minutes against a 60-minute daily budget alert until acknowledged, then never again")
  func dailyBudgetAlertsUntilAcknowledged() throws {
    var harness = try PipelineHarness { configuration in
      configuration.rules = CategoryRules([.exact(try AppID("com.burbn.instagram"), .socialMedia)])
      configuration.plans = [
        try MonthlyPlan(
          month: LocalMonth(year: 2026, month: 4), amounts: [.socialMedia: .seconds(30 * 3600)],
          granularity: .minutes)
      ]
      configuration.appNames = [try AppID("com.burbn.instagram"): "Instagram"]
    }
    let day = "2026-04-15"
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    try harness.use("com.burbn.instagram", day: day, from: "19:00", minutes: 65, step: 5)

    let first = try harness.dashboard(day, at: "21:00")
    let budget = try #require(first.budgets.first?.report)
    #expect(budget.today.allowance == minutes(60), "30 h over 30 days is 60 min a day")
    #expect(budget.today.used == minutes(65))
    #expect(budget.today.overage == minutes(5))
    #expect(first.alerts.budget.map(\.thresholdPercent) == [50, 80, 100])
    #expect(first.payload.apps.map(\.totalMinutes) == [65])
    #expect(first.payload.apps.map(\.appName) == ["Instagram"])
    let again = try harness.dashboard(day, at: "21:00")
    #expect(again.alerts == first.alerts, "showing a dashboard acknowledges nothing")
    #expect(try harness.pipeline.acknowledge(first.alerts) == first.alerts)
    #expect(try harness.pipeline.acknowledge(first.alerts).isEmpty, "acknowledged once only")

    let second = try harness.dashboard(day, at: "21:05")
    #expect(second.alerts.isEmpty, "a re-sync with the same totals alerts nothing")
    #expect(second.budgets.map(\.report) == first.budgets.map(\.report))
    #expect(second.payload == first.payload)
  }

  // MARK: - Learning earns screen time

  @Test("15 minutes of learning earn 105 XP, redeemed for 10 minutes and 5 XP credit")
  func learningRedeemsExactly() throws {
    var harness = try PipelineHarness { configuration in
      configuration.rules = CategoryRules([.exact(try AppID("com.duolingo"), .education)])
      configuration.rewards = try UsageRewards(xpPerMinute: [.education: 7])
    }
    let day = "2026-04-15"
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    try harness.use("com.duolingo", day: day, from: "16:00", minutes: 15, step: 5)
    #expect(try harness.dashboard(day, at: "16:30").rewards.xp == 105)
    // A second drain and dashboard credit nothing more.
    #expect(try harness.dashboard(day, at: "16:31").rewards.xp == 105)

    let redemption = try harness.pipeline.redeemAll(
      id: "swap-1", at: try harness.at("\(day) 16:32"))
    #expect(redemption.redeemedXP == 100)
    #expect(redemption.timeBought == minutes(10))
    #expect(redemption.remainingXP == 5)
    let after = try harness.dashboard(day, at: "16:33")
    #expect(after.rewards.xp == 5)
    #expect(after.rewards.available == minutes(10))
  }
}
