import BudgetMath
import Foundation
import Testing
import UsageModel

@Suite("Alerts and pace")
struct AlertAndPaceTests {
  // MARK: - Alerts

  @Test("usage crossing thresholds one by one reports each once")
  func thresholdsReportOnce() throws {
    var state = BudgetAlertState()
    let today = try day("2026-01-15")
    var reported: [Int] = []
    for used in stride(from: 0, through: 70, by: 5) {
      reported += state.evaluate(
        category: .socialMedia, window: today...today, used: minutes(Int64(used)),
        allowance: minutes(60)
      ).map(\.thresholdPercent)
    }
    #expect(reported == [50, 80, 100])
  }

  @Test("a burst that crosses several thresholds at once reports all of them, lowest first")
  func burstReportsEveryThreshold() throws {
    var state = BudgetAlertState()
    let today = try day("2026-01-15")
    let alerts = state.evaluate(
      category: .gaming, window: today...today, used: minutes(61), allowance: minutes(60))
    #expect(alerts.map(\.thresholdPercent) == [50, 80, 100])
    #expect(alerts.allSatisfy { $0.used == minutes(61) && $0.allowance == minutes(60) })
  }

  @Test("re-syncs with the same or lower totals report nothing again")
  func resyncsReportNothing() throws {
    var state = BudgetAlertState()
    let today = try day("2026-01-15")
    _ = state.evaluate(
      category: .gaming, window: today...today, used: minutes(50), allowance: minutes(60))
    for used in [minutes(50), minutes(49), minutes(30), minutes(50)] {
      #expect(
        state.evaluate(category: .gaming, window: today...today, used: used, allowance: minutes(60))
          .isEmpty)
    }
    #expect(
      state.evaluate(
        category: .gaming, window: today...today, used: minutes(60), allowance: minutes(60)
      )
      .map(\.thresholdPercent) == [100])
  }

  @Test("the state survives a round trip, so a relaunch does not re-alert")
  func stateSurvivesRelaunch() throws {
    var state = try BudgetAlertState(thresholds: [100, 50, 50, 120])
    #expect(state.thresholds == [50, 100, 120])
    let today = try day("2026-01-15")
    _ = state.evaluate(
      category: .gaming, window: today...today, used: minutes(31), allowance: minutes(60))
    #expect(
      try json(state)
        == #"{"reported":[{"category":"gaming","first":"2026-01-15","last":"2026-01-15","thresholds":[50]}],"thresholds":[50,100,120]}"#
    )
    var restored = try roundTrip(state)
    #expect(restored == state)
    #expect(
      restored.evaluate(
        category: .gaming, window: today...today, used: minutes(31), allowance: minutes(60)
      ).isEmpty)
    #expect(restored.hasReported(50, category: .gaming, window: today...today))
  }

  @Test("a new period, and another category, start with nothing reported")
  func newPeriodResets() throws {
    var state = BudgetAlertState()
    let january = try day("2026-01-01")...(try day("2026-01-31"))
    let february = try day("2026-02-01")...(try day("2026-02-28"))
    _ = state.evaluate(category: .gaming, window: january, used: hours(40), allowance: hours(30))
    #expect(
      state.evaluate(category: .gaming, window: february, used: hours(16), allowance: hours(30))
        .map(\.thresholdPercent) == [50])
    #expect(
      state.evaluate(category: .shopping, window: january, used: hours(16), allowance: hours(30))
        .map(\.thresholdPercent) == [50])
    state.forgetWindows(endingBefore: try day("2026-02-01"))
    #expect(!state.hasReported(50, category: .gaming, window: january))
    #expect(state.hasReported(50, category: .gaming, window: february))
  }

  @Test("no use never alerts, even against a zero allowance; any use of a zero allowance alerts")
  func zeroAllowanceAlerts() throws {
    var state = BudgetAlertState()
    let today = try day("2026-01-15")
    #expect(
      state.evaluate(category: .gaming, window: today...today, used: .zero, allowance: .zero)
        .isEmpty)
    #expect(
      state.evaluate(
        category: .gaming, window: today...today, used: .milliseconds(1), allowance: .zero
      ).count == 3)
  }

  @Test("a budget report alerts for its day or its period, and an excluded budget never alerts")
  func reportsAlertByScope() throws {
    let budget = try Budget(category: .socialMedia, period: .month, amount: hours(31))
    let today = try day("2026-01-02")
    let report = try budget.report(on: today, usage: [today: minutes(55)])
    var state = BudgetAlertState()
    #expect(
      state.evaluate(report, period: budget.period, scope: .day).map(\.thresholdPercent) == [
        50, 80,
      ])
    #expect(state.evaluate(report, period: budget.period, scope: .period).isEmpty)
    let excluded = try Budget(category: .education, period: .day, amount: .zero, isExcluded: true)
    let excludedReport = try excluded.report(on: today, usage: [today: hours(3)])
    #expect(state.evaluate(excludedReport, period: .day, scope: .day).isEmpty)
  }

  @Test("the default state cannot fail and is the one built from the default thresholds")
  func defaultStateCannotFail() throws {
    let state = BudgetAlertState()
    #expect(try state == BudgetAlertState(thresholds: BudgetAlertState.defaultThresholds))
    #expect(state.thresholds == [50, 80, 100])
    #expect(try json(state) == #"{"reported":[],"thresholds":[50,80,100]}"#)
    #expect(try roundTrip(state) == state)
  }

  @Test("thresholds must be 1 to 1000 percent")
  func thresholdsAreValidated() {
    for invalid in [[], [0], [1001], [50, -1]] {
      #expect(throws: BudgetMathError.self) { _ = try BudgetAlertState(thresholds: invalid) }
    }
  }

  // MARK: - Pace

  static let boundary = DayBoundary(timeZone: TimeZone(identifier: "America/New_York") ?? .gmt)

  @Test("half the allowance in a third of the period runs out before the period ends")
  func fastUseRunsOut() throws {
    let period = BudgetPeriod.month.interval(
      containing: try day("2026-01-15"), boundary: Self.boundary)
    let now = period.start.addingTimeInterval(period.duration / 3)
    let pace = try PaceProjection(used: hours(15), allowance: hours(30), period: period, now: now)
    #expect(pace.outlook == .willRunOut)
    #expect(pace.projectedTotal == hours(45))
    // 15 h in 248 h: the other 15 h last another 248 h, two thirds of the way through.
    #expect(pace.runsOutAt == period.start.addingTimeInterval(period.duration * 2 / 3))
    #expect(try roundTrip(pace) == pace)
  }

  @Test("slow use is on track, with no run-out instant")
  func slowUseIsOnTrack() throws {
    let period = BudgetPeriod.month.interval(
      containing: try day("2026-01-15"), boundary: Self.boundary)
    let now = period.start.addingTimeInterval(period.duration / 2)
    let pace = try PaceProjection(used: hours(10), allowance: hours(30), period: period, now: now)
    #expect(pace.outlook == .onTrack)
    #expect(pace.projectedTotal == hours(20))
    #expect(pace.runsOutAt == nil)
  }

  @Test("using the whole allowance is exhausted; no use or no elapsed time has no rate")
  func exhaustedAndNoUsage() throws {
    let period = BudgetPeriod.month.interval(
      containing: try day("2026-01-15"), boundary: Self.boundary)
    let now = period.start.addingTimeInterval(3600)
    #expect(
      try PaceProjection(used: hours(30), allowance: hours(30), period: period, now: now).outlook
        == .exhausted)
    #expect(
      try PaceProjection(used: .zero, allowance: hours(30), period: period, now: now).outlook
        == .noUsageYet)
    let before = try PaceProjection(
      used: .zero, allowance: hours(30), period: period, now: period.start.addingTimeInterval(-60))
    #expect(before.elapsed == .zero)
    #expect(before.projectedTotal == nil)
    let after = try PaceProjection(
      used: hours(1), allowance: hours(30), period: period, now: period.end.addingTimeInterval(3600)
    )
    #expect(after.elapsed == after.periodLength)
    #expect(after.projectedTotal == hours(1))
  }

  @Test("huge amounts project without overflowing: an unlimited-looking allowance is on track")
  func hugeAmountsDoNotOverflow() throws {
    let period = DateInterval(start: Date(timeIntervalSince1970: 0), duration: 0.004)
    let now = Date(timeIntervalSince1970: 0.002)
    let huge = try PaceProjection(
      used: .milliseconds(1), allowance: .milliseconds(Int64.max), period: period, now: now)
    #expect(huge.outlook == .onTrack)
    let big = try PaceProjection(
      used: .milliseconds(1 << 62), allowance: .milliseconds(Int64.max), period: period, now: now)
    #expect(big.projectedTotal == nil, "2^63 ms does not fit")
  }

  @Test("a month with a spring-forward day is projected over its real length")
  func paceUsesRealPeriodLength() throws {
    let period = BudgetPeriod.month.interval(
      containing: try day("2026-03-15"), boundary: Self.boundary)
    let pace = try PaceProjection(
      used: hours(1), allowance: hours(100), period: period, now: period.end)
    #expect(pace.periodLength == hours(743))
  }
}
