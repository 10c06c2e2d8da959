import Foundation
import UsageModel

extension MonthlyPlan {
  /// Reports every budget of the plan on `day`, from an aggregated usage report.
  ///
  /// The bridge from UsageModel's aggregation: each category's total on each day of the report
  /// is its use that day. Aggregate the month so far (from its first day, or the plan's start,
  /// through `day`) so that the period's figures are complete.
  ///
  /// ```swift
  /// let report = UsageAggregator(boundary: boundary, rules: rules)
  ///   .aggregate(records, over: plan.month.days.lowerBound...today)
  /// let reports = try plan.reports(on: today, usage: report)
  /// ```
  ///
  /// - Parameters:
  ///   - day: A day of the month.
  ///   - usage: The aggregated usage.
  ///   - warningPercent: The share of an allowance from which the level is a warning, 1...100.
  /// - Returns: One report per budget, in category order.
  /// - Throws: The errors of ``reports(on:usage:warningPercent:)-(_,[AppCategory:[LocalDay:Duration]],_)``.
  /// - Complexity: O(*d* · *c*) for *d* days and *c* categories in the report, plus the reports.
  public func reports(on day: LocalDay, usage: UsageReport, warningPercent: Int = 80)
    throws(BudgetMathError) -> [BudgetReport]
  {
    var byCategory: [AppCategory: [LocalDay: Duration]] = [:]
    for daily in usage.days where month.days.contains(daily.day) {
      for category in daily.categories {
        byCategory[category.category, default: [:]][daily.day] = category.total
      }
    }
    return try reports(on: day, usage: byCategory, warningPercent: warningPercent)
  }

  /// The pace of a budget of this plan: when, at its rate so far, the month's allowance runs
  /// out.
  ///
  /// The projection runs over the part of the month the plan covers — from ``startDay`` to the
  /// month's end — as its prorated amount and its use do: a plan started on the 28th is not
  /// credited with the days before it existed.
  ///
  /// - Parameters:
  ///   - report: A report of one of this plan's budgets, from ``reports(on:usage:warningPercent:)-(_,UsageReport,_)``.
  ///   - boundary: Where local days begin, for the month's instants.
  ///   - now: The instant of the projection. A report of a day that ended before `now` is
  ///     projected at that day's end, where its use stops.
  /// - Returns: The projection of the month's use against its prorated amount; `nil` for an
  ///   excluded budget, which has no allowance to run out of.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range.
  public func pace(of report: BudgetReport, boundary: DayBoundary, now: Date)
    throws(BudgetMathError) -> PaceProjection?
  {
    guard report.today.level != .excluded else { return nil }
    let month = BudgetPeriod.month.interval(containing: report.day, boundary: boundary)
    let start = max(month.start, boundary.start(of: startDay))
    // The report's use stops at the end of its day: a past day's pace is its rate then, not
    // that use spread over the days since.
    let asOf = min(now, boundary.interval(of: report.day).end)
    return try PaceProjection(
      used: report.period.used, allowance: report.period.allowance,
      period: DateInterval(start: start, end: max(start, month.end)), now: asOf)
  }
}
