import ActivityPlanning
import AppPipeline
import BudgetMath
import Foundation
import SharedStore
import TrackerSignals
import UsageModel

/// What the app and its widget derive the dashboard with: the plan the app armed last, kept in
/// the shared folder, and the pipeline's configuration built from it.
enum ScreenTimeSettings {
  /// The plan the app armed last; `nil` until the person picked apps.
  static let plan = StoreKey<PlannedMonitoring?>("example.plan", default: nil)

  /// The time a day the picked apps may be used together.
  static let dailyAllowance: Duration = .seconds(60 * 60)

  /// The pipeline's configuration for `plan`, with the picked apps' budget in `day`'s month.
  ///
  /// - Parameters:
  ///   - plan: The plan the app armed last, or `nil`.
  ///   - day: The local day the dashboard is for.
  /// - Returns: The configuration the app and the widget open the pipeline with.
  /// - Throws: `BudgetMathError` if the budget cannot be planned.
  static func configuration(plan: PlannedMonitoring?, day: LocalDay) throws
    -> PipelineConfiguration
  {
    var configuration = PipelineConfiguration(
      userId: "me", timeZone: plan?.timeZone ?? .current)
    guard let plan else { return configuration }
    configuration.dayStart = plan.dayStart
    configuration.rules = CategoryRules(
      plan.resolutions.keys.sorted().map { .exact($0, .socialMedia) })
    // What the extension's facts are read against: the activities and their generations.
    configuration.monitoring = plan.monitoring
    configuration.registrations = plan.registrations
    configuration.includesPastActivity = plan.includesPastActivity
    let month = day.localMonth
    configuration.plans = [
      try MonthlyPlan(month: month, amounts: [.socialMedia: dailyAllowance * month.numberOfDays])
    ]
    return configuration
  }

  /// Opens the pipeline on the shared folder, with the plan stored there.
  ///
  /// - Parameters:
  ///   - folder: The shared folder, as the extension opened it.
  ///   - now: The current instant.
  /// - Returns: The pipeline and the local day that contains `now`.
  /// - Throws: The folder's or the configuration's errors.
  static func pipeline(folder: SharedFolder, now: Date) throws -> (UsagePipeline, LocalDay) {
    let plan = try folder.store.value(for: Self.plan)
    let boundary = DayBoundary(
      timeZone: plan?.timeZone ?? .current, dayStart: plan?.dayStart ?? .midnight)
    let today = try boundary.day(containing: now)
    let configuration = try configuration(plan: plan, day: today)
    return (try UsagePipeline(folder: folder, configuration: configuration), today)
  }
}
