import Foundation
import TestSupport
import Testing
import UsageModel

/// A scheduled occurrence whose own `intervalDidStart` arrived a second late counts under one
/// start: its thresholds delivered after it ended too.
@Suite("An interval counts under one start")
struct OneIntervalOneStartTests {
  let zone: TimeZone
  let plan: MonitoringPlan

  init() throws {
    zone = try TestSupport.zone("Europe/Paris")
    plan = try MonitoringPlan([
      MonitoredActivity(
        name: "work",
        schedule: .daily(
          try DailyWindow(start: TimeOfDay(hour: 9, minute: 0), end: TimeOfDay(hour: 17, minute: 0))
        ))
    ])
  }

  /// An instant in Paris on 14 April, `HH:mm:ss.SSS`.
  func at(_ local: String) throws -> Date { try instant("2026-04-14T\(local)+02:00") }

  /// The 09:00 occurrence, its `intervalDidStart` recorded 1.2 s after its start.
  func lateOwnCallback() throws -> IntervalAttribution {
    var attribution = IntervalAttribution(plan: plan, timeZone: zone)
    attribution.recordStart(of: "work", at: try at("09:00:01.200"))
    return attribution
  }

  @Test(
    "rule: a threshold delivered after its occurrence ended counts under the start of the events inside it"
  )
  func lateThresholdKeepsTheOccurrencesStart() throws {
    let attribution = try lateOwnCallback()
    let inside = attribution.attribute(
      try threshold(15), of: "work", receivedAt: try at("16:05:00"))
    let after = attribution.attribute(try threshold(45), of: "work", receivedAt: try at("17:30:00"))
    #expect(try inside == .interval(start: at("09:00:00.000"), registration: nil))
    #expect(after == inside, "one interval, one start")
  }

  @Test(
    "rule: an occurrence's thresholds count their highest once, however late they arrive"
  )
  func lateThresholdIsNotCountedTwice() throws {
    let attribution = try lateOwnCallback()
    var accountant = ThresholdAccountant(timeZone: zone)
    for (minutes, received) in [(15, "16:05:00"), (30, "16:20:00"), (45, "17:30:00")] {
      let name = try threshold(minutes)
      let at = try at(received)
      guard case .interval(let start, _) = attribution.attribute(name, of: "work", receivedAt: at)
      else {
        Issue.record("\(minutes) min at \(received) counted in no interval")
        continue
      }
      _ = accountant.record(
        try ThresholdEvent(
          name: name, intervalStart: start, receivedAt: at, includesPastActivity: false))
    }
    // Under two starts, the occurrence counted 30 + 45 minutes.
    #expect(accountant.intervals.count == 1)
    #expect(accountant.intervals.flatMap(\.apps).map(\.highest) == [.minutes(45)])
  }

  @Test(
    "control: a start more than the window after the occurrence's is a restart, also after it ends")
  func restartKeepsItsOwnStart() throws {
    var attribution = IntervalAttribution(plan: plan, timeZone: zone)
    attribution.recordStart(of: "work", at: try at("09:00:01.200"))
    attribution.recordStart(of: "work", at: try at("13:00:00.000"))
    #expect(
      try attribution.attribute(threshold(45), of: "work", receivedAt: at("17:30:00"))
        == .interval(start: at("13:00:00.000"), registration: nil))
  }

  @Test(
    "rule: after its occurrence ended, a threshold counts in that occurrence, also when its start was lost"
  )
  func lostStartKeepsTheLastOccurrence() throws {
    // Monday's start was recorded; Tuesday's was lost. Tuesday's thresholds, inside its
    // occurrence and after it ended, all count in Tuesday's interval, not Monday's.
    let attribution = try lateOwnCallback()
    let tuesday = { (time: String) in try instant("2026-04-15T\(time)+02:00") }
    let inside = attribution.attribute(
      try threshold(30), of: "work", receivedAt: try tuesday("16:20:00"))
    let after = attribution.attribute(
      try threshold(45), of: "work", receivedAt: try tuesday("17:30:00"))
    #expect(try inside == .interval(start: tuesday("09:00:00"), registration: nil))
    #expect(after == inside)
  }

  @Test("rule: a timer's threshold delivered after it ended counts under the timer's start")
  func timerKeepsItsStart() throws {
    let start = try at("14:00:00.000")
    var attribution = IntervalAttribution(
      plan: try MonitoringPlan([
        MonitoredActivity(
          name: "session",
          schedule: .timer(try TimerWindow(start: start, duration: .seconds(30 * 60))))
      ]),
      timeZone: zone)
    attribution.recordStart(of: "session", at: try at("14:00:00.900"))
    let inside = attribution.attribute(
      try threshold(15), of: "session", receivedAt: try at("14:20:00"))
    let after = attribution.attribute(
      try threshold(25), of: "session", receivedAt: try at("14:40:00"))
    #expect(inside == .interval(start: start, registration: nil))
    #expect(after == inside)
  }
}
