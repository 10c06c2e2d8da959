import Foundation
import UsageModel

/// A month's screen-time budgets, one per category.
///
/// Each category's monthly amount is handed out day by day over the month's real days, adding
/// up exactly to the amount (see ``AllowanceSplit``). A plan that starts mid-month prorates:
/// days before ``startDay`` get nothing, the rest keep their share.
///
/// ```swift
/// let plan = try MonthlyPlan(
///   month: LocalMonth(year: 2026, month: 1),
///   amounts: [.socialMedia: .seconds(30 * 3600), .gaming: .seconds(20 * 3600)],
///   excluded: [.education])
/// plan.baseAllowance(for: .socialMedia, on: jan15)   // 58 min 3 s or 58 min 4 s
/// ```
///
/// JSON form: `{"month": "2026-01", "startDay": "2026-01-01", "budgets": [Budget, …]}`, budgets
/// sorted by category.
public struct MonthlyPlan: Sendable, Hashable, Codable {
  /// The month the plan covers.
  public let month: LocalMonth
  /// The first day the plan applies; the month's first day unless it started mid-month.
  public let startDay: LocalDay
  /// One budget per category, each with period ``BudgetPeriod/month``, sorted by category.
  public let budgets: [Budget]

  /// Creates a plan.
  ///
  /// - Parameters:
  ///   - month: The month covered.
  ///   - amounts: The time per month of each budgeted category.
  ///   - excluded: Categories tracked but not limited; each gets an excluded budget.
  ///   - defaults: Amounts for categories missing from `amounts` (for example the app's default
  ///     budgets); `amounts` wins where both name a category.
  ///   - startDay: The first day the plan applies, inside `month`; its first day if `nil`.
  ///   - granularity: The unit of the daily allowances.
  ///   - rollover: How unused time carries into the next day, if at all.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a start day
  ///   outside the month or an invalid amount.
  public init(
    month: LocalMonth,
    amounts: [AppCategory: Duration],
    excluded: Set<AppCategory> = [],
    defaults: [AppCategory: Duration] = [:],
    startDay: LocalDay? = nil,
    granularity: AllowanceGranularity = .seconds,
    rollover: RolloverPolicy? = nil
  ) throws(BudgetMathError) {
    let start = startDay ?? month.firstDay
    guard month.days.contains(start) else {
      throw .invalidValue(field: "startDay", value: "\(start)", requirement: "a day of \(month)")
    }
    var merged = defaults.merging(amounts) { _, explicit in explicit }
    for category in excluded where merged[category] == nil { merged[category] = .zero }
    var budgets: [Budget] = []
    for (category, amount) in merged.sorted(by: { $0.key < $1.key }) {
      budgets.append(
        try Budget(
          category: category, period: .month, amount: amount,
          isExcluded: excluded.contains(category), granularity: granularity, rollover: rollover))
    }
    self.month = month
    self.startDay = start
    self.budgets = budgets
  }

  /// The budget of `category`, or `nil` when the plan does not budget it.
  ///
  /// - Parameter category: A category.
  /// - Returns: Its budget.
  /// - Complexity: O(log *n*) in the number of budgets.
  public func budget(for category: AppCategory) -> Budget? {
    var low = 0
    var high = budgets.count
    while low < high {
      let middle = (low + high) / 2
      if budgets[middle].category < category { low = middle + 1 } else { high = middle }
    }
    return low < budgets.count && budgets[low].category == category ? budgets[low] : nil
  }

  /// The base allowance of `category` on `day`, or `nil` when the category is not budgeted,
  /// is excluded, or `day` is outside the month.
  ///
  /// The day's share of the month's amount, without time rolled over from earlier days; the
  /// day's whole allowance, rollover included, is ``BudgetReport/allowance`` of
  /// ``reports(on:usage:warningPercent:)-(_,[AppCategory:[LocalDay:Duration]],_)``.
  ///
  /// - Parameters:
  ///   - category: A category.
  ///   - day: A day of the month.
  /// - Returns: The day's share of the category's monthly amount (zero before ``startDay``).
  public func baseAllowance(for category: AppCategory, on day: LocalDay) -> Duration? {
    guard month.days.contains(day), let budget = budget(for: category), !budget.isExcluded else {
      return nil
    }
    return budget.baseAllowance(on: day, planStart: startDay)
  }

  /// Reports every budget of the plan on `day`.
  ///
  /// - Parameters:
  ///   - day: A day of the month.
  ///   - usage: The time used per category per day.
  ///   - warningPercent: The share of an allowance from which the level is a warning, 1...100.
  /// - Returns: One report per budget, in category order.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a day outside
  ///   the month or before ``startDay``, a negative use or an invalid warning percentage.
  public func reports(
    on day: LocalDay,
    usage: [AppCategory: [LocalDay: Duration]],
    warningPercent: Int = 80
  ) throws(BudgetMathError) -> [BudgetReport] {
    guard month.days.contains(day) else {
      throw .invalidValue(field: "day", value: "\(day)", requirement: "a day of \(month)")
    }
    var reports: [BudgetReport] = []
    for budget in budgets {
      reports.append(
        try budget.report(
          on: day, usage: usage[budget.category] ?? [:], planStart: startDay,
          warningPercent: warningPercent))
    }
    return reports
  }

  private enum CodingKeys: String, CodingKey {
    case month, startDay, budgets
  }

  /// Decodes the documented JSON form, validating it.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a missing field, a start day outside the month, budgets that
  ///   are not monthly, or a category budgeted twice.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    month = try container.decode(LocalMonth.self, forKey: .month)
    startDay = try container.decode(LocalDay.self, forKey: .startDay)
    guard month.days.contains(startDay) else {
      throw DecodingError.dataCorruptedError(
        forKey: .startDay, in: container, debugDescription: "\(startDay) is not a day of \(month)")
    }
    let budgets = try container.decode([Budget].self, forKey: .budgets).sorted {
      $0.category < $1.category
    }
    for (index, budget) in budgets.enumerated() {
      guard budget.period == .month else {
        throw DecodingError.dataCorruptedError(
          forKey: .budgets, in: container,
          debugDescription: "the budget of \(budget.category) is not monthly")
      }
      if index > 0 && budgets[index - 1].category == budget.category {
        throw DecodingError.dataCorruptedError(
          forKey: .budgets, in: container,
          debugDescription: "\(budget.category) is budgeted twice")
      }
    }
    self.budgets = budgets
  }
}
