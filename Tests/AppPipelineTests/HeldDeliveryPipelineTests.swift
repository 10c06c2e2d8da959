import AppPipeline
import Foundation
import SequenceTracking
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// A threshold held across midnight past the late-delivery window, through the pipeline.
@Suite("Held deliveries through the pipeline")
struct HeldDeliveryPipelineTests {
  /// A harness with the daily 00:00–23:59 plan in New York.
  static func harness() throws -> PipelineHarness {
    try PipelineHarness { configuration in
      configuration.monitoring = try MonitoringPlan([
        MonitoredActivity(
          name: "daily",
          schedule: .daily(
            try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
      ])
    }
  }

  /// com.a's seconds on `day`: the upper bound, then the lower.
  static func bounds(_ dashboard: Dashboard) throws -> (upper: Int64, lower: Int64) {
    let app = try AppID("com.a")
    return (
      dashboard.usage.total(of: app).components.seconds,
      dashboard.confirmedUsage.total(of: app).components.seconds
    )
  }

  /// Monitoring since midnight on the 14th; com.a's 60 minutes reached at 22:30 and released,
  /// with the 15th's `intervalDidStart`, at `release` on the 15th.
  static func read(released release: String) throws -> Dashboard {
    var harness = try harness()
    _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("2026-04-14 00:00"))
    _ = harness.recorder.intervalDidStart(
      for: "daily", now: try harness.at("2026-04-15 \(release)"))
    _ = harness.recorder.eventDidReachThreshold(
      "stk:60m:com.a", activity: "daily", now: try harness.at("2026-04-15 \(release)"))
    let now = try harness.at("2026-04-15 23:00")
    try harness.pipeline.wake(.foreground, now: now)
    return try harness.pipeline.dashboard(for: try LocalDay(parsing: "2026-04-14"), now: now)
  }

  @Test(
    "rule: a threshold held past the late-delivery window counts the day before, in the upper bound only"
  )
  func heldThresholdCountsInTheUpperBoundOnly() throws {
    let (upper, lower) = try Self.bounds(try Self.read(released: "07:30"))
    #expect(upper == 3_600)
    #expect(lower == 0)
  }

  @Test("control: released within the window, the same threshold is a late delivery, confirmed")
  func lateThresholdIsConfirmed() throws {
    let (upper, lower) = try Self.bounds(try Self.read(released: "00:30"))
    #expect(upper == 3_600)
    #expect(lower == 3_600)
  }
}
