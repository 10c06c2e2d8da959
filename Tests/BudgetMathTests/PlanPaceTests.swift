import BudgetMath
import Foundation
import TestSupport
import Testing
import UsageModel

/// A plan's pace: its budgets' use so far, projected over the part of the month the plan covers.
@Suite("Monthly plan pace")
struct PlanPaceTests {
  @Test("a plan that starts mid-month projects from its start day, not from the 1st")
  func midMonthPlanProjectsFromItsStart() throws {
    let paris = DayBoundary(timeZone: try zone("Europe/Paris"))
    let plan = try MonthlyPlan(
      month: LocalMonth(year: 2026, month: 3), amounts: [.gaming: .seconds(25 * 3600)],
      startDay: LocalDay(year: 2026, month: 3, day: 28))
    let day = try LocalDay(year: 2026, month: 3, day: 29)
    let used: [AppCategory: [LocalDay: Duration]] = [.gaming: [day: minutes(100)]]
    let report = try #require(try plan.reports(on: day, usage: used).first)
    let now = try instant("2026-03-29T21:00:00+02:00")
    let pace = try #require(try plan.pace(of: report, boundary: paris, now: now))
    // 100 minutes in the 44 hours (a 23-hour day) since the plan began on the 28th, of a
    // prorated allowance of 4 days' worth (3 h 14 min): at that rate the allowance runs out
    // before the 31st is over. Measured from the 1st, the same use looked on track.
    let start = try instant("2026-03-28T00:00:00+01:00")
    #expect(pace.elapsed == .seconds(Int64(now.timeIntervalSince(start))))
    #expect(pace.outlook == .willRunOut)
    #expect(pace.periodLength == .seconds(95 * 3600), "28th to 31st, with a 23-hour day")
  }

  @Test("a plan from the 1st projects over the whole month")
  func wholeMonthPlan() throws {
    let utc = DayBoundary(timeZone: try zone("UTC"))
    let plan = try MonthlyPlan(
      month: LocalMonth(year: 2026, month: 4), amounts: [.gaming: .seconds(30 * 3600)])
    let day = try LocalDay(year: 2026, month: 4, day: 10)
    let report = try #require(
      try plan.reports(on: day, usage: [.gaming: [day: minutes(60)]]).first)
    let pace = try #require(
      try plan.pace(of: report, boundary: utc, now: try instant("2026-04-11T00:00:00Z")))
    #expect(pace.periodLength == .seconds(30 * 86_400))
    #expect(pace.elapsed == .seconds(10 * 86_400))
  }

  @Test("a past day's pace is its rate at that day's end, not its use spread over the days since")
  func pastDayProjectsAtItsEnd() throws {
    let utc = DayBoundary(timeZone: try zone("UTC"))
    let plan = try MonthlyPlan(
      month: LocalMonth(year: 2026, month: 1), amounts: [.gaming: .seconds(30 * 3600)])
    let day = try LocalDay(year: 2026, month: 1, day: 10)
    let report = try #require(
      try plan.reports(on: day, usage: [.gaming: [day: .seconds(12 * 3600)]]).first)
    // Seen on the 20th at noon: 12 hours over 10 days is 37.2 hours a month, more than the
    // 30 allowed. Spread over the 19.5 days to the 20th, it looked on track.
    let pace = try #require(
      try plan.pace(of: report, boundary: utc, now: try instant("2026-01-20T12:00:00Z")))
    #expect(pace.elapsed == .seconds(10 * 86_400))
    #expect(pace.outlook == .willRunOut)
    // The control: seen at the end of the 10th, the same.
    let then = try #require(
      try plan.pace(of: report, boundary: utc, now: try instant("2026-01-11T00:00:00Z")))
    #expect(then == pace)
  }
}
