import Foundation
import TestSupport
import Testing
import UsageModel

/// Thresholds received just after midnight that claim more than the time since the new
/// interval began: late deliveries of the day before, when the day before was monitored.
@Suite("Attributing thresholds delivered within the late-delivery window")
struct LateDeliveryTests {
  let zone: TimeZone
  let plan: MonitoringPlan

  init() throws {
    zone = try TestSupport.zone("Europe/Paris")
    plan = try MonitoringPlan([
      MonitoredActivity(
        name: "daily",
        schedule: .daily(try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
    ])
  }

  /// An instant in Paris, `yyyy-MM-ddTHH:mm:ss`.
  func at(_ local: String) throws -> Date { try instant("\(local)+02:00") }

  func name(_ minutes: Int) throws -> ThresholdEventName {
    try ThresholdEventName(app: try app("com.a"), threshold: .minutes(minutes))
  }

  /// Monitored since midnight on the 13th, on time on the 14th, then monitoring started again
  /// at 00:20 on the 14th.
  func restartedAt0020() throws -> IntervalAttribution {
    var attribution = IntervalAttribution(plan: plan, timeZone: zone)
    for start in ["2026-04-13T00:00:00", "2026-04-14T00:00:00", "2026-04-14T00:20:00"] {
      attribution.recordStart(of: "daily", at: try at(start))
    }
    return attribution
  }

  @Test(
    "rule: a threshold that outruns its interval within an hour of the day before's end is a late delivery of it"
  )
  func outrunningThresholdIsLate() throws {
    let attribution = try restartedAt0020()
    #expect(
      try attribution.attribute(name(25), of: "daily", receivedAt: at("2026-04-14T00:25:00"))
        == .lateDelivery(
          start: at("2026-04-13T00:00:00"), registration: nil,
          reachedBy: at("2026-04-13T23:59:00")))
  }

  @Test("rule: an occurrence nobody monitored takes no late delivery")
  func unmonitoredDayBeforeTakesNothing() throws {
    // Installed at 00:20 on the 14th: the 13th counted nothing, so 25 minutes at 00:25 stay in
    // the first interval, where the accountant judges them.
    var attribution = IntervalAttribution(plan: plan, timeZone: zone)
    attribution.recordStart(of: "daily", at: try at("2026-04-14T00:20:00"))
    #expect(
      try attribution.attribute(name(25), of: "daily", receivedAt: at("2026-04-14T00:25:00"))
        == .interval(start: at("2026-04-14T00:20:00"), registration: nil))
  }
}
