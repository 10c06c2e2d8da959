import BudgetMath
import Foundation
import UsageModel

/// A budget to enforce: a category's daily allowance and the shares of it at which to alert.
///
/// Each alert point, `allowance × percent / 100` rounded up to the second, becomes a threshold
/// of each listed app's ladder, so that an app used alone reaches the alert at the exact
/// point; use spread over several apps is seen within the apps' resolution.
///
/// ```swift
/// let goal = try BudgetGoal(
///   category: .socialMedia, apps: [instagram], allowance: .seconds(3600),
///   alertPercents: [50, 80, 100])
/// ```
///
/// JSON form: `{"category": "social_media", "apps": ["com.burbn.instagram"], "allowanceMs":
/// 3600000, "alertPercents": [50, 80, 100]}`.
public struct BudgetGoal: Sendable, Hashable, Codable {
  /// The category the allowance limits.
  public let category: AppCategory
  /// The category's apps whose ladders get the alert points.
  public let apps: [AppID]
  /// The day's allowance.
  public let allowance: Duration
  /// The alert shares, in percent of the allowance, ascending.
  public let alertPercents: [Int]

  /// Creates a budget goal.
  ///
  /// - Parameters:
  ///   - category: The category.
  ///   - apps: Its apps, at least one.
  ///   - allowance: The day's allowance: more than zero, at most one week, whole milliseconds.
  ///   - alertPercents: Shares of the allowance, each 1...1000; sorted and deduplicated here.
  /// - Throws: ``PlanningError/noApps(goal:)`` without apps,
  ///   ``PlanningError/invalidGoal(goal:field:value:requirement:)`` for an allowance or share
  ///   out of range.
  public init(category: AppCategory, apps: [AppID], allowance: Duration, alertPercents: [Int])
    throws(PlanningError)
  {
    let goal = "budget \(category.rawValue)"
    guard !apps.isEmpty else { throw .noApps(goal: goal) }
    guard allowance > .zero, allowance <= MonitoringLimits.maximumInterval,
      Milliseconds.isWhole(allowance)
    else {
      throw .invalidGoal(
        goal: goal, field: "allowance", value: "\(allowance)",
        requirement: "more than zero and at most one week, in whole milliseconds")
    }
    guard !alertPercents.isEmpty, alertPercents.allSatisfy({ (1...1000).contains($0) }) else {
      throw .invalidGoal(
        goal: goal, field: "alertPercents", value: "\(alertPercents)",
        requirement: "one or more shares, each 1...1000")
    }
    self.category = category
    self.apps = apps
    self.allowance = allowance
    self.alertPercents = Array(Set(alertPercents)).sorted()
  }

  /// The goal of `category`'s budget in `plan` on `day`, alerting at `alerts`' thresholds.
  ///
  /// - Parameters:
  ///   - plan: The month's plan (BudgetMath).
  ///   - category: The category.
  ///   - day: The day whose base allowance is enforced.
  ///   - apps: The category's apps.
  ///   - alerts: The alert state whose thresholds to use.
  /// - Throws: ``PlanningError/invalidGoal(goal:field:value:requirement:)`` when the plan has
  ///   no allowance for the category on `day`, or it is zero; as
  ///   ``init(category:apps:allowance:alertPercents:)`` otherwise.
  public init(
    plan: MonthlyPlan, category: AppCategory, on day: LocalDay, apps: [AppID],
    alerts: BudgetAlertState = BudgetAlertState()
  ) throws(PlanningError) {
    guard let allowance = plan.baseAllowance(for: category, on: day) else {
      throw .invalidGoal(
        goal: "budget \(category.rawValue)", field: "plan", value: "\(plan.month)",
        requirement: "a plan with an allowance for the category on \(day)")
    }
    try self.init(
      category: category, apps: apps, allowance: allowance, alertPercents: alerts.thresholds)
  }

  /// The alert points, ascending: each share of the allowance rounded up to the second.
  public var alertPoints: [Duration] {
    let milliseconds = Milliseconds.amount(allowance) ?? 0
    let points = alertPercents.map { percent -> Int64 in
      let scaled = milliseconds * Int64(percent)
      return max(1, (scaled + 99_999) / 100_000)
    }
    return Array(Set(points)).sorted().map { Duration.seconds($0) }
  }

  private enum CodingKeys: String, CodingKey {
    case category, apps, allowanceMs, alertPercents
  }

  /// Decodes the documented JSON form and checks it.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let category = try container.decode(AppCategory.self, forKey: .category)
    let apps = try container.decode([AppID].self, forKey: .apps)
    let allowance = try container.decodeMilliseconds(forKey: .allowanceMs)
    let percents = try container.decode([Int].self, forKey: .alertPercents)
    do {
      try self.init(category: category, apps: apps, allowance: allowance, alertPercents: percents)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .allowanceMs, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(category, forKey: .category)
    try container.encode(apps, forKey: .apps)
    try container.encodeMilliseconds(allowance, forKey: .allowanceMs)
    try container.encode(alertPercents, forKey: .alertPercents)
  }
}
