import BudgetMath
import Foundation
import Testing
import UsageModel

@Suite("Budgets, periods, rollover and status")
struct BudgetStatusTests {
  @Test(
    "a week starts on its configured first weekday",
    arguments: [
      (Weekday.monday, "2026-01-12", "2026-01-18"), (.sunday, "2026-01-11", "2026-01-17"),
      (.saturday, "2026-01-10", "2026-01-16"), (.thursday, "2026-01-15", "2026-01-21"),
    ])
  func weekStartsOnFirstWeekday(first: Weekday, start: String, end: String) throws {
    let period = BudgetPeriod.week(firstWeekday: first)
    for offset in 0..<7 {
      let inside = try day(start).advanced(by: offset)
      let expected = try day(start)...(try day(end))
      #expect(period.days(containing: inside) == expected)
    }
  }

  @Test("a month period is the calendar month, leap days included")
  func monthPeriodIsCalendarMonth() throws {
    let february = try day("2024-02-01")...(try day("2024-02-29"))
    #expect(BudgetPeriod.month.days(containing: try day("2024-02-10")) == february)
    #expect(BudgetPeriod.month.days(containing: try day("2100-02-10")).count == 28)
    #expect(BudgetPeriod.day.days(containing: try day("2026-05-05")).count == 1)
  }

  @Test("a month's interval follows its real days: March 2026 in New York is 743 hours")
  func monthIntervalFollowsDST() throws {
    let boundary = DayBoundary(timeZone: try #require(TimeZone(identifier: "America/New_York")))
    let march = BudgetPeriod.month.interval(containing: try day("2026-03-15"), boundary: boundary)
    #expect(march.duration == 743 * 3600)
    #expect(try march.start == instant("2026-03-01T05:00:00Z"))
  }

  @Test("periods encode in their documented JSON forms")
  func periodJSONForms() throws {
    #expect(try json(BudgetPeriod.day) == #"{"kind":"day"}"#)
    #expect(try json(BudgetPeriod.month) == #"{"kind":"month"}"#)
    #expect(
      try json(BudgetPeriod.week(firstWeekday: .sunday)) == #"{"firstWeekday":7,"kind":"week"}"#)
    for period in [BudgetPeriod.day, .month, .isoWeek, .week(firstWeekday: .friday)] {
      #expect(try roundTrip(period) == period)
    }
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode(BudgetPeriod.self, from: Data(#"{"kind":"fortnight"}"#.utf8))
    }
  }

  @Test("a budget encodes in its documented JSON form and decodes back")
  func budgetJSONForm() throws {
    let budget = try Budget(
      category: .socialMedia, period: .month, amount: hours(30),
      rollover: RolloverPolicy(cap: minutes(30)))
    #expect(
      try json(budget)
        == #"{"amountMs":108000000,"category":"social_media","granularity":"seconds","isExcluded":false,"period":{"kind":"month"},"rollover":{"capMs":1800000}}"#
    )
    #expect(try roundTrip(budget) == budget)
    let invalid =
      #"{"amountMs":90000,"category":"gaming","granularity":"minutes","period":{"kind":"day"}}"#
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode(Budget.self, from: Data(invalid.utf8))
    }
  }

  // MARK: - Rollover

  @Test("unused time rolls into the next day, capped, and is recomputed from usage")
  func unusedTimeRollsOver() throws {
    let budget = try Budget(
      category: .gaming, period: .isoWeek, amount: hours(7),
      rollover: RolloverPolicy(cap: minutes(30)))
    let monday = try day("2026-01-12")
    var usage: [LocalDay: Duration] = [
      monday: minutes(40),  // 20 unused → 20 carried
      monday.advanced(by: 1): minutes(20),  // 60 + 20 = 80, 60 unused → capped at 30
      monday.advanced(by: 2): minutes(120),  // 90 allowed, overused → nothing carried
    ]
    var days = budget.allowances(forPeriodContaining: monday, usage: usage)
    #expect(
      days.map(\.carriedIn) == [
        .zero, minutes(20), minutes(30), .zero, minutes(30), minutes(30), minutes(30),
      ])
    #expect(days[2].total == minutes(90))

    usage[monday] = minutes(60)  // a corrected total: nothing left to carry
    days = budget.allowances(forPeriodContaining: monday, usage: usage)
    #expect(days[1].carriedIn == .zero)
    #expect(days[2].carriedIn == minutes(30))
  }

  @Test("rollover starts afresh at the window's first day")
  func rolloverStartsAfreshEachWindow() throws {
    let budget = try Budget(
      category: .gaming, period: .isoWeek, amount: hours(7),
      rollover: RolloverPolicy(cap: hours(1)))
    let sunday = try day("2026-01-18")
    let nextMonday = sunday.advanced(by: 1)
    let days = budget.allowances(forPeriodContaining: nextMonday, usage: [sunday: .zero])
    #expect(days.first?.carriedIn == .zero)
    let across = budget.allowances(over: sunday...nextMonday, usage: [sunday: .zero])
    #expect(across.last?.carriedIn == hours(1), "an explicit window spans the period boundary")
  }

  @Test("without a rollover policy, every day's allowance is its base")
  func noRolloverMeansBaseOnly() throws {
    let budget = try Budget(category: .gaming, period: .isoWeek, amount: hours(7))
    let days = budget.allowances(forPeriodContaining: try day("2026-01-14"), usage: [:])
    #expect(days.allSatisfy { $0.carriedIn == .zero && $0.total == hours(1) })
  }

  // MARK: - Status

  @Test(
    "the level is exact at its boundaries",
    arguments: [
      (minutes(47) + .milliseconds(59_999), BudgetLevel.under),
      (minutes(48), .warning),
      (minutes(60), .warning),
      (minutes(60) + .milliseconds(1), .over),
      (Duration.zero, .under),
    ])
  func levelBoundariesAreExact(used: Duration, level: BudgetLevel) throws {
    let status = try BudgetStatus(used: used, allowance: minutes(60))
    #expect(status.level == level)
    #expect(status.isOverBudget == (level == .over))
  }

  @Test("65 minutes of a 60-minute budget is 5 minutes over")
  func sixtyFiveMinutesOfSixtyIsOver() throws {
    let status = try BudgetStatus(used: minutes(65), allowance: minutes(60))
    #expect(status.level == .over)
    #expect(status.overage == minutes(5))
    #expect(status.remaining == .zero)
    #expect(status.fraction.map { abs($0 - 65.0 / 60.0) < 1e-12 } == true)
    #expect(
      try json(status)
        == #"{"allowanceMs":3600000,"level":"over","usedMs":3900000,"warningPercent":80}"#)
    #expect(try roundTrip(status) == status)
  }

  @Test("a zero allowance has no fraction, and any use is over")
  func zeroAllowance() throws {
    #expect(try BudgetStatus(used: .zero, allowance: .zero).level == .under)
    #expect(try BudgetStatus(used: .zero, allowance: .zero).fraction == nil)
    #expect(try BudgetStatus(used: .milliseconds(1), allowance: .zero).level == .over)
  }

  @Test("the warning share is configurable and validated")
  func warningShareIsConfigurable() throws {
    #expect(
      try BudgetStatus(used: minutes(30), allowance: minutes(60), warningPercent: 50).level
        == .warning)
    #expect(
      try BudgetStatus(used: minutes(29), allowance: minutes(60), warningPercent: 50).level
        == .under)
    for invalid in [0, 101, -5] {
      #expect(throws: BudgetMathError.self) {
        _ = try BudgetStatus(used: .zero, allowance: minutes(1), warningPercent: invalid)
      }
    }
    #expect(throws: BudgetMathError.self) {
      _ = try BudgetStatus(used: .seconds(-1), allowance: .zero)
    }
  }

  @Test("a report gives the day, the period so far and the whole period")
  func reportCoversDayAndPeriod() throws {
    let budget = try Budget(category: .socialMedia, period: .month, amount: hours(31))
    let fifth = try day("2026-01-05")
    var usage: [LocalDay: Duration] = [:]
    for offset in 0..<5 { usage[fifth.advanced(by: -offset)] = minutes(50) }
    usage[fifth] = minutes(65)
    usage[fifth.advanced(by: 1)] = hours(10)  // after the day reported on: ignored
    let report = try budget.report(on: fifth, usage: usage)
    #expect(report.today.used == minutes(65))
    #expect(report.today.allowance == hours(1))
    #expect(report.today.level == .over)
    #expect(report.periodToDate.used == minutes(265))
    #expect(report.periodToDate.allowance == hours(5))
    #expect(report.periodToDate.level == .warning)
    #expect(report.period.allowance == hours(31))
    #expect(report.period.level == .under)
    #expect(try roundTrip(report) == report)
  }

  @Test("a stored status whose level does not follow from its numbers fails to decode")
  func inconsistentStoredLevelIsRejected() {
    let stored = #"{"usedMs":0,"allowanceMs":3600000,"warningPercent":80,"level":"over"}"#
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode(BudgetStatus.self, from: Data(stored.utf8))
    }
  }

  @Test("a plan that starts mid-period is not charged for use before it started")
  func midPeriodPlanIgnoresEarlierUse() throws {
    let budget = try Budget(category: .socialMedia, period: .month, amount: hours(31))
    let planStart = try day("2026-01-20")
    var usage: [LocalDay: Duration] = [:]
    for offset in 0..<19 { usage[try day("2026-01-01").advanced(by: offset)] = hours(1) }
    usage[planStart] = minutes(30)
    let report = try budget.report(on: planStart, usage: usage, planStart: planStart)
    #expect(report.period.allowance == hours(12))
    #expect(report.period.used == minutes(30))
    #expect(report.period.level == .under)
    #expect(report.periodToDate.used == minutes(30))
    #expect(report.periodToDate.allowance == hours(1))
    var alerts = BudgetAlertState()
    #expect(alerts.evaluate(report, period: budget.period, scope: .period).isEmpty)
    #expect(
      alerts.evaluate(report, period: budget.period, scope: .day).map(\.thresholdPercent) == [50])
    #expect(throws: BudgetMathError.self) {
      _ = try budget.report(on: try day("2026-01-19"), usage: usage, planStart: planStart)
    }
  }

  @Test("rollover in minutes carries whole minutes only")
  func rolloverKeepsWholeUnits() throws {
    let budget = try Budget(
      category: .gaming, period: .isoWeek, amount: hours(7), granularity: .minutes,
      rollover: RolloverPolicy(cap: hours(1)))
    let monday = try day("2026-01-12")
    let days = budget.allowances(
      forPeriodContaining: monday, usage: [monday: minutes(30) + .milliseconds(500)])
    #expect(days[1].carriedIn == minutes(29), "29 min 59.5 s unused carries 29 whole minutes")
    #expect(
      days.allSatisfy {
        $0.total.components.seconds % 60 == 0 && $0.total.components.attoseconds == 0
      })
  }

  @Test("an excluded category is reported as excluded, never over")
  func excludedCategoryIsNeverOver() throws {
    let budget = try Budget(category: .education, period: .day, amount: .zero, isExcluded: true)
    let today = try day("2026-01-05")
    let report = try budget.report(on: today, usage: [today: hours(5)])
    #expect(report.today.level == .excluded)
    #expect(!report.today.isOverBudget)
  }

  @Test("a negative use is rejected")
  func negativeUseIsRejected() throws {
    let budget = try Budget(category: .gaming, period: .day, amount: hours(1))
    let today = try day("2026-01-05")
    #expect(throws: BudgetMathError.self) {
      _ = try budget.report(on: today, usage: [today: .seconds(-1)])
    }
  }

  // MARK: - Monthly plan

  @Test("a monthly plan merges defaults, explicit amounts and exclusions")
  func monthlyPlanMergesDefaults() throws {
    let plan = try MonthlyPlan(
      month: try LocalMonth(year: 2026, month: 1),
      amounts: [.socialMedia: hours(31)],
      excluded: [.education],
      defaults: [.socialMedia: hours(40), .gaming: hours(62)])
    #expect(plan.budgets.map(\.category) == [.education, .gaming, .socialMedia])
    #expect(plan.baseAllowance(for: .socialMedia, on: try day("2026-01-10")) == hours(1))
    #expect(plan.baseAllowance(for: .gaming, on: try day("2026-01-10")) == hours(2))
    #expect(plan.baseAllowance(for: .education, on: try day("2026-01-10")) == nil)
    #expect(plan.baseAllowance(for: .shopping, on: try day("2026-01-10")) == nil)
    #expect(plan.baseAllowance(for: .gaming, on: try day("2026-02-01")) == nil)
    #expect(try roundTrip(plan) == plan)
    let reports = try plan.reports(
      on: try day("2026-01-10"), usage: [.socialMedia: [try day("2026-01-10"): minutes(61)]])
    #expect(reports.map(\.today.level) == [.excluded, .under, .over])
  }

  @Test("a plan starting mid-month prorates, and its start day must be in the month")
  func monthlyPlanProrates() throws {
    let month = try LocalMonth(year: 2026, month: 1)
    let plan = try MonthlyPlan(
      month: month, amounts: [.gaming: hours(31)], startDay: try day("2026-01-20"))
    #expect(plan.baseAllowance(for: .gaming, on: try day("2026-01-19")) == .zero)
    #expect(plan.baseAllowance(for: .gaming, on: try day("2026-01-20")) == hours(1))
    #expect(throws: BudgetMathError.self) {
      _ = try MonthlyPlan(month: month, amounts: [:], startDay: try day("2026-02-01"))
    }
  }
}
