import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import TrackerSignals
import UsageModel

/// An extension and an app sharing one in-memory folder, after a morning of use: an interval
/// started at midnight, eight threshold events of `com.a`, one implausible and one bogus event.
struct InMemoryPipeline {
  let store = InMemoryStore()
  let recorder: MonitorRecorder
  var pipeline: UsagePipeline
  let configuration: PipelineConfiguration
  let boundary: DayBoundary
  let day: LocalDay
  let now: Date

  /// Opens both sides, with `configure` changing the app's settings, and records the morning.
  init(configure: (inout PipelineConfiguration) throws -> Void = { _ in }) throws {
    let zone = try TestSupport.zone("Europe/Berlin")
    boundary = DayBoundary(timeZone: zone)
    day = try LocalDay(parsing: "2026-04-15")
    let start = boundary.start(of: day)
    now = start.addingTimeInterval(12 * 3_600)
    var configuration = PipelineConfiguration(userId: "user-1", timeZone: zone)
    configuration.plans = [
      try MonthlyPlan(month: day.localMonth, amounts: [.socialMedia: .seconds(30 * 3_600)])
    ]
    configuration.rewards = try UsageRewards(xpPerMinute: [.other: 3])
    configuration.appNames = [try AppID("com.a"): "A"]
    try configure(&configuration)
    self.configuration = configuration
    var layout = SharedFolderLayout.standard(outboxCapacity: 64)
    layout.outboxKey = "facts"
    let folder = try SharedFolder(store: store, layout: layout)
    recorder = MonitorRecorder(folder: folder, timeZone: { zone })
    pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    _ = recorder.intervalDidStart(for: "daily", now: start)
    for minute in stride(from: 5, through: 40, by: 5) {
      _ = recorder.eventDidReachThreshold(
        "stk:\(minute)m:com.a", activity: "daily",
        now: start.addingTimeInterval(Double(8 * 3_600 + minute * 60)))
    }
    _ = recorder.eventDidReachThreshold(
      "stk:7d:com.b", activity: "daily", now: start.addingTimeInterval(9 * 3_600))
    _ = recorder.eventDidReachThreshold(
      "bogus", activity: "daily", now: start.addingTimeInterval(9 * 3_600))
    try pipeline.wake(.notification, now: now)
  }
}
