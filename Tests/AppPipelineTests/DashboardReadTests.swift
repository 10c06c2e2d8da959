import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// A dashboard only reads: what it shows is derived from the facts up to its instant, in the
/// configuration's days, and only ``UsagePipeline/acknowledge(_:)`` changes what a later one
/// shows.
@Suite("A dashboard only reads")
struct DashboardReadTests {
  let day = "2026-04-15"

  /// Every file of the folder, by name, with its bytes.
  func files(_ directory: TemporaryDirectory) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try directory.contents() {
      files[name] = try Data(contentsOf: directory.url.appendingPathComponent(name))
    }
    return files
  }

  /// A harness after an hour of use over a 60-minute daily budget, drained.
  func overBudget(thresholds: [Int]? = nil) throws -> PipelineHarness {
    var harness = try PipelineHarness { configuration in
      configuration.rules = CategoryRules([.exact(try AppID("com.example"), .socialMedia)])
      configuration.plans = [
        try MonthlyPlan(
          month: LocalMonth(year: 2026, month: 4), amounts: [.socialMedia: .seconds(30 * 3600)])
      ]
      if let thresholds { configuration.alertThresholds = thresholds }
    }
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    try harness.use("com.example", day: day, from: "08:00", minutes: 65, step: 5)
    try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 10:00"))
    return harness
  }

  @Test("showing a dashboard, of today or of a past day, changes no byte of the folder")
  func dashboardWritesNothing() throws {
    let harness = try overBudget()
    let before = try files(harness.directory)
    for (shown, at) in [(day, "10:00"), (day, "10:00"), ("2026-04-14", "10:00")] {
      _ = try harness.pipeline.dashboard(
        for: try LocalDay(parsing: shown), now: try harness.at("\(day) \(at)"))
    }
    #expect(try files(harness.directory) == before)
    // The control: acknowledging is a write, and the comparison sees it.
    let dashboard = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: day), now: try harness.at("\(day) 10:00"))
    try harness.pipeline.acknowledge(dashboard.alerts)
    #expect(try files(harness.directory) != before)
  }

  @Test("the alert thresholds are the configuration's")
  func alertThresholdsAreConfigurable() throws {
    let harness = try overBudget(thresholds: [100])
    let dashboard = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: day), now: try harness.at("\(day) 10:00"))
    #expect(dashboard.alerts.budget.map(\.thresholdPercent) == [100])
    let standard = try overBudget()
    #expect(
      try standard.pipeline.dashboard(
        for: try LocalDay(parsing: day), now: try harness.at("\(day) 10:00")
      ).alerts.budget.map(\.thresholdPercent) == [50, 80, 100])
  }

  @Test("alert thresholds outside 1...1000 percent are refused when the pipeline opens")
  func invalidAlertThresholdsAreRefused() throws {
    let directory = try TemporaryDirectory(prefix: "stk-pipeline")
    for thresholds in [[], [0], [1_001]] {
      var configuration = PipelineConfiguration(userId: "u", timeZone: try zone("UTC"))
      configuration.alertThresholds = thresholds
      #expect(throws: PipelineError.self) {
        try UsagePipeline(
          folder: try SharedFolder(directory: directory.url), configuration: configuration)
      }
    }
  }

  @Test("facts dated after the dashboard's instant have not happened yet")
  func factsAfterNowDoNotCount() throws {
    var harness = try PipelineHarness()
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    for (threshold, at) in [(15, "09:00"), (30, "09:20"), (45, "09:40")] {
      _ = harness.recorder.eventDidReachThreshold(
        "stk:\(threshold)m:com.example", activity: "daily", now: try harness.at("\(day) \(at)"))
    }
    try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 09:41"))
    let early = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: day), now: try harness.at("\(day) 09:10"))
    #expect(early.usage.total == minutes(15))
    #expect(early.facts.dayFacts == 2, "the interval's start and the 15-minute event")
    #expect(early.facts.thresholds.counted == 1)
    let late = try harness.dashboard(day, at: "09:41")
    #expect(late.usage.total == minutes(45))
  }

  @Test("a dashboard's fact counts are the day's; facts() holds every day kept")
  func factCountsSayWhatTheyCount() throws {
    var harness = try PipelineHarness()
    for shown in ["2026-04-14", day] {
      _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(shown) 00:00"))
      try harness.use("com.example", day: shown, from: "08:00", minutes: 10, step: 5)
    }
    _ = harness.recorder.eventDidReachThreshold(
      "stk:5m:com.example", activity: "daily", now: try harness.at("2026-04-14 08:05:30"))
    let dashboard = try harness.dashboard(day, at: "12:00")
    #expect(try harness.pipeline.facts().count == 7)
    #expect(dashboard.facts.dayFacts == 3)
    #expect(dashboard.facts.thresholds.counted == 2)
    #expect(dashboard.facts.thresholds.duplicates == 0, "the duplicate was the day before")
  }

  @Test("local days are the configuration's: its zone and its day start")
  func daysAreTheConfigurations() throws {
    var harness = try PipelineHarness { configuration in
      configuration.dayStart = try TimeOfDay(hour: 4, minute: 0)
    }
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
    // 02:00 on the 15th belongs to the 14th when days start at 04:00.
    try harness.use("com.example", day: day, from: "02:00", minutes: 10, step: 5)
    let today = try harness.dashboard(day, at: "12:00")
    #expect(today.usage.total == .zero)
    let yesterday = try harness.pipeline.dashboard(
      for: try LocalDay(parsing: "2026-04-14"), now: try harness.at("\(day) 12:00"))
    #expect(yesterday.usage.total == minutes(10))
  }
}
