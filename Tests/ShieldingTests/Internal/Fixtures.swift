import ActivityPlanning
import BudgetMath
import Foundation
import Shielding
import UsageModel

/// Instants and builders shared by the suites.
enum Fixture {
  /// 2026-03-09T00:00:00Z, a Monday.
  static let monday = Date(timeIntervalSince1970: 1_773_014_400)
  static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .gmt

  /// `monday` plus `hours` and `minutes`.
  static func at(_ hours: Int, _ minutes: Int = 0, day: Int = 0) -> Date {
    monday.addingTimeInterval(TimeInterval(((day * 24 + hours) * 60 + minutes) * 60))
  }

  static func minutes(_ count: Int) -> Duration { .seconds(count * 60) }

  static func window(_ name: String, _ start: Int, _ end: Int) throws -> ShieldSchedule {
    .daily(
      try ScheduledWindow(
        name: name, kind: .block,
        window: DailyWindow(start: TimeOfDay(hour: start), end: TimeOfDay(hour: end))))
  }

  static func profile(
    _ id: String, apps: [String], schedules: [ShieldSchedule] = [], budgets: [String] = [],
    earnedTimeLiftsSchedules: Bool = false
  ) throws -> ShieldProfile<String> {
    try ShieldProfile(
      id: id, targets: apps.map { .application($0) }, schedules: schedules, budgets: budgets,
      earnedTimeLiftsSchedules: earnedTimeLiftsSchedules)
  }

  static func intent(_ id: String, _ at: Date, _ action: ShieldIntent<String>.Action) throws
    -> ShieldIntent<String>
  {
    try ShieldIntent(id: id, at: at, action: action)
  }

  static func exhausted() throws -> BudgetStatus {
    try BudgetStatus(used: minutes(61), allowance: minutes(60))
  }

  static func shielded(_ derivation: ShieldDerivation<String>, at instant: Date) -> Set<String> {
    Set(derivation.state(at: instant).targets.map(\.target.token))
  }
}
