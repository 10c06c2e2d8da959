import Foundation
import TestSupport
import Testing
import UsageModel

/// Which thresholds the evidence confirms: those reported on their own, and bursts amid use
/// that the time since the last confirmed report holds; never a burst after a silence.
@Suite("Grading threshold evidence")
struct ThresholdGradingTests {
  let zone: TimeZone
  let start: Date

  init() throws {
    zone = try TestSupport.zone("Europe/Berlin")
    start = try instant("2026-04-15T00:00:00+02:00")
  }

  /// The interval's grading of `app`, from events `(app, minutes, received minutes after the
  /// start)`, as final evidence.
  func grading(_ events: [(String, Int, Double)], of app: String) throws -> ThresholdGrading {
    var accountant = ThresholdAccountant(timeZone: zone)
    for (name, minutes, at) in events {
      _ = accountant.record(
        try ThresholdEvent(
          name: try ThresholdEventName(app: try AppID(name), threshold: .seconds(minutes * 60)),
          intervalStart: start, receivedAt: start.addingTimeInterval(at * 60)))
    }
    let interval = try #require(accountant.intervals.first)
    return try #require(interval.gradings().first { $0.app.rawValue == app })
  }

  @Test("thresholds reported on their own are confirmed")
  func reportsOnTheirOwnAreConfirmed() throws {
    let graded = try grading(
      [("com.a", 5, 600), ("com.a", 10, 605), ("com.a", 15, 610)], of: "com.a")
    #expect(graded.confirmed == .seconds(900))
    #expect(graded.claimed == .seconds(900))
    #expect(graded.reason == nil)
  }

  @Test("a burst after a silence is unconfirmed: a catch-up storm or phantoms")
  func burstAfterSilenceIsUnconfirmed() throws {
    // Nothing for seven hours, then every threshold up to 30 minutes at once.
    let burst = (1...6).map { ("com.a", $0 * 5, 420.0) }
    let graded = try grading(burst, of: "com.a")
    #expect(graded.confirmed == .zero)
    #expect(graded.claimed == .seconds(1_800))
    #expect(graded.reason == .burst)
  }

  @Test("a later report on its own confirms the burst below it")
  func laterReportConfirmsTheBurst() throws {
    let burst = (1...6).map { ("com.a", $0 * 5, 420.0) }
    let graded = try grading(burst + [("com.a", 35, 430)], of: "com.a")
    #expect(graded.confirmed == .seconds(2_100))
  }

  @Test("in a burst amid use, a threshold counts as far as the time since the last confirmed holds")
  func burstAmidUseCountsAsFarAsTheClockHolds() throws {
    // com.b is in use at 09:55; com.a reached 5 minutes at 10:00, then 10, 15 and 20 arrive
    // together at 10:10: ten minutes (and the burst window) hold the 15-minute threshold, not
    // the 20-minute one.
    let graded = try grading(
      [
        ("com.b", 5, 595), ("com.a", 5, 600), ("com.a", 10, 610), ("com.a", 15, 610.25),
        ("com.a", 20, 610.5),
      ],
      of: "com.a")
    #expect(graded.confirmed == .seconds(900))
    #expect(graded.claimed == .seconds(1_200))
  }

  @Test(
    "rule: a burst amid use is measured from the last confirmed report before it, not from its own"
  )
  func burstIsMeasuredFromTheReportBeforeIt() throws {
    // com.a reached 30 minutes at 20:21 on its own; 35 (reached at 20:26, held back) and 40
    // arrive together at 20:31: ten minutes since 20:21 hold both. Measured from the burst's
    // own report of 35, the 40 would need five minutes in none, and the lower bound would
    // stop a step short.
    let graded = try grading(
      [("com.b", 5, 1_200), ("com.a", 30, 1_221), ("com.a", 40, 1_231), ("com.a", 35, 1_231)],
      of: "com.a")
    #expect(graded.confirmed == .seconds(2_400))
    #expect(graded.reason == nil)
  }

  @Test("control: a burst amid use that outruns the clock since the report before it still stops")
  func burstMeasuredFromBeforeStillStops() throws {
    // The same burst two minutes after the 30-minute report: two minutes hold neither 35 nor
    // 40, however the burst is ordered.
    let graded = try grading(
      [("com.b", 5, 1_200), ("com.a", 30, 1_221), ("com.a", 40, 1_223), ("com.a", 35, 1_223)],
      of: "com.a")
    #expect(graded.confirmed == .seconds(1_800))
    #expect(graded.reason == .burst)
  }

  @Test("a burst amid use that claims more than the time since the last confirmed report is not")
  func burstOutrunningTheClockIsUnconfirmed() throws {
    // 5 minutes confirmed at 10:00; at 10:02, with com.b in use, 10 to 30 minutes at once.
    let burst = (2...6).map { ("com.a", $0 * 5, 602.0) }
    let graded = try grading([("com.b", 5, 595), ("com.a", 5, 600)] + burst, of: "com.a")
    #expect(graded.confirmed == .seconds(300))
    #expect(graded.reason == .burst)
  }
}
