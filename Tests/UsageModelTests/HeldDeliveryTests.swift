import Foundation
import TestSupport
import Testing
import UsageModel

/// Thresholds delivered after midnight that claim more than the time since the new interval
/// began: late deliveries of the day before within `IntervalAttribution.lateDeliveryWindow`,
/// when the day before was monitored, and held ones past it — a catch-up storm across midnight
/// released with a late `intervalDidStart`.
@Suite("Attributing thresholds delivered late or held across midnight")
struct HeldDeliveryTests {
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

  /// Monitoring since midnight on 13 April; the storm releases, at 07:30 on the 14th, the 14th's
  /// own `intervalDidStart` with the thresholds held since 21:30 on the 13th.
  func storm() throws -> IntervalAttribution {
    var attribution = IntervalAttribution(plan: plan, timeZone: zone)
    attribution.recordStart(of: "daily", at: try at("2026-04-13T00:00:00"))
    attribution.recordStart(of: "daily", at: try at("2026-04-14T07:30:00"))
    return attribution
  }

  @Test(
    "rule: a threshold held past the late-delivery window, more than its interval's first start holds, belongs to the day before, in the upper bound only"
  )
  func heldThresholdBelongsToTheDayBefore() throws {
    let attribution = try storm()
    let held = attribution.attribute(
      try threshold(85), of: "daily", receivedAt: try at("2026-04-14T07:30:00"))
    #expect(
      try held
        == .heldDelivery(
          start: at("2026-04-13T00:00:00"), registration: nil,
          reachedBy: at("2026-04-13T23:59:00")))
  }

  @Test("control: a threshold the interval's time holds stays in the interval that contains it")
  func thresholdThatFitsStays() throws {
    let attribution = try storm()
    // Two hours after the late start, 85 minutes fit in the new interval.
    #expect(
      try attribution.attribute(threshold(85), of: "daily", receivedAt: at("2026-04-14T09:30:00"))
        == .interval(start: at("2026-04-14T07:30:00"), registration: nil))
  }

  @Test("control: after a restart later in the day, a threshold is no held delivery")
  func restartKeepsItsEvents() throws {
    var attribution = try storm()
    attribution.recordStart(of: "daily", at: try at("2026-04-14T15:00:00"))
    #expect(
      try attribution.attribute(threshold(85), of: "daily", receivedAt: at("2026-04-14T15:10:00"))
        == .interval(start: at("2026-04-14T15:00:00"), registration: nil))
  }

  @Test("control: a threshold that outruns an interval started on time is no held delivery")
  func onTimeStartKeepsItsEvents() throws {
    // The 14th's start came on time (its callback 2 s after the occurrence's start, which is
    // where the interval starts); at 01:10, 85 minutes outrun it (a phantom), 71 minutes after
    // the 13th ended: it stays in the 14th's interval, where it is implausible.
    var attribution = IntervalAttribution(plan: plan, timeZone: zone)
    attribution.recordStart(of: "daily", at: try at("2026-04-13T00:00:00"))
    attribution.recordStart(of: "daily", at: try at("2026-04-14T00:00:02"))
    #expect(
      try attribution.attribute(threshold(85), of: "daily", receivedAt: at("2026-04-14T01:10:00"))
        == .interval(start: at("2026-04-14T00:00:00"), registration: nil))
  }

  // MARK: - Within the late-delivery window

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
      try attribution.attribute(threshold(25), of: "daily", receivedAt: at("2026-04-14T00:25:00"))
        == .lateDelivery(
          start: at("2026-04-13T00:00:00"), registration: nil,
          reachedBy: at("2026-04-13T23:59:00")))
  }

  @Test(
    "rule: an occurrence nobody monitored takes no late or held delivery",
    arguments: [
      // Installed at 00:20 on the 14th: 25 minutes at 00:25 are no late delivery of the 13th.
      ("2026-04-14T00:20:00", "2026-04-14T00:25:00", 25),
      // Installed at 07:30: 85 minutes then are no held delivery of the 13th.
      ("2026-04-14T07:30:00", "2026-04-14T07:30:00", 85),
    ])
  func unmonitoredDayBeforeTakesNothing(start: String, received: String, minutes: Int)
    throws
  {
    // The 13th counted nothing: the threshold stays in the first interval, where the
    // accountant judges it.
    var attribution = IntervalAttribution(plan: plan, timeZone: zone)
    attribution.recordStart(of: "daily", at: try at(start))
    #expect(
      try attribution.attribute(threshold(minutes), of: "daily", receivedAt: at(received))
        == .interval(start: at(start), registration: nil))
  }
}
