import Foundation
import UsageModel

/// A budget's standing on one day: the day itself, the period so far, and the whole period.
///
/// JSON form: `{"category": "social_media", "day": "2026-01-15", "today": BudgetStatus,
/// "periodToDate": BudgetStatus, "period": BudgetStatus, "allowance": DayAllowance}`.
public struct BudgetReport: Sendable, Hashable, Codable {
  /// The budget's category.
  public let category: AppCategory
  /// The day reported on.
  public let day: LocalDay
  /// The day's use against the day's allowance (including time rolled over into it).
  public let today: BudgetStatus
  /// Use from the period's first day (or the plan's start) through ``day`` against the
  /// allowances of those days.
  public let periodToDate: BudgetStatus
  /// Use from the period's first day (or the plan's start) through ``day`` against the whole
  /// period's prorated amount.
  public let period: BudgetStatus
  /// The day's allowance and what it carried in.
  public let allowance: DayAllowance
}

extension Budget {
  /// Reports how the budget stands on `day`, from the use of every day of its period so far.
  ///
  /// When the plan started inside the period, only use from `planStart` on counts, and rollover
  /// starts afresh there: use before a plan existed is not measured against it.
  ///
  /// ```swift
  /// let report = try budget.report(on: today, usage: [today: .seconds(65 * 60)])
  /// report.today.isOverBudget   // true with a 60-minute daily allowance
  /// ```
  ///
  /// - Parameters:
  ///   - day: The day to report on.
  ///   - usage: The time used on each day of the period (days after `day` are ignored).
  ///   - planStart: The first day the plan applies, if any.
  ///   - warningPercent: The share of an allowance from which the level is a warning, 1...100.
  /// - Returns: The report.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a day before
  ///   `planStart`, a negative use or one longer than `Int64.max` milliseconds (about 292
  ///   million years), or a warning percentage outside 1...100.
  /// - Complexity: O(*d*) in the number of days of the period.
  public func report(
    on day: LocalDay,
    usage: [LocalDay: Duration],
    planStart: LocalDay? = nil,
    warningPercent: Int = 80
  ) throws(BudgetMathError) -> BudgetReport {
    let days = period.days(containing: day)
    if let planStart, day < planStart {
      throw .invalidValue(
        field: "day", value: "\(day)", requirement: "on or after the plan's start, \(planStart)")
    }
    // Use before the plan started is not measured against it.
    let first = max(days.lowerBound, planStart ?? days.lowerBound)
    for (usedDay, used) in usage
    where (used < .zero || Milliseconds.amount(used) == nil) && (first...day).contains(usedDay) {
      throw .invalidValue(
        field: "usage[\(usedDay)]", value: "\(used)",
        requirement: "zero or more, and at most Int64.max milliseconds")
    }
    let allowances = allowances(over: first...day, usage: usage, planStart: planStart)
    let usedToDate = (first...day).reduce(Duration.zero) { $0 + (usage[$1] ?? .zero) }
    let allowedToDate = allowances.reduce(Duration.zero) { $0 + $1.base }
    let todayAllowance = allowances.last ?? DayAllowance(day: day, base: .zero)
    return BudgetReport(
      category: category, day: day,
      today: try BudgetStatus(
        used: usage[day] ?? .zero, allowance: todayAllowance.total,
        warningPercent: warningPercent, isExcluded: isExcluded),
      periodToDate: try BudgetStatus(
        used: usedToDate, allowance: allowedToDate, warningPercent: warningPercent,
        isExcluded: isExcluded),
      period: try BudgetStatus(
        used: usedToDate,
        allowance: proratedAmount(forPeriodContaining: day, planStart: planStart),
        warningPercent: warningPercent, isExcluded: isExcluded),
      allowance: todayAllowance)
  }
}
