import ActivityPlanning
import Foundation
import UsageModel

/// Goals and checks shared by the planner's suites.
enum Fixtures {
  static var instagram: AppID { get throws { try AppID("com.burbn.instagram") } }
  static var tiktok: AppID { get throws { try AppID("com.zhiliad.tiktok") } }
  static var clash: AppID { get throws { try AppID("com.supercell.clashroyale") } }
  static var netflix: AppID { get throws { try AppID("com.netflix.Netflix") } }
  static var youtube: AppID { get throws { try AppID("com.google.ios.youtube") } }

  /// A typical app's goals: ladders, a budget, a bedtime block on weeknights, a focus window,
  /// and an earned-time session starting at `sessionStart`.
  static func goals(
    zone: TimeZone, dayStart: TimeOfDay, sessionStart: Date? = nil, step: Int64 = 300,
    eventLimit: Int? = 60
  ) throws -> MonitoringGoals {
    var goals = MonitoringGoals(timeZone: zone, dayStart: dayStart, includesPastActivity: true)
    goals.ladders = [
      try UsageLadder(target: .app(try instagram), step: .seconds(step), top: .seconds(4 * 3600)),
      try UsageLadder(
        target: .category(.entertainment, apps: [try netflix, try youtube]), step: .seconds(600),
        top: .seconds(3 * 3600)),
      try UsageLadder(target: .app(try clash), step: .seconds(900), top: .seconds(2 * 3600)),
    ]
    goals.budgets = [
      try BudgetGoal(
        category: .socialMedia, apps: [try instagram, try tiktok], allowance: .seconds(3600),
        alertPercents: [50, 80, 100])
    ]
    goals.windows = [
      try ScheduledWindow(
        name: "bedtime", kind: .block,
        window: DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7)),
        weekdays: [.sunday, .monday, .tuesday, .wednesday, .thursday]),
      try ScheduledWindow(
        name: "homework", kind: .focus,
        window: DailyWindow(start: TimeOfDay(hour: 16), end: TimeOfDay(hour: 17, minute: 30))),
    ]
    if let sessionStart {
      goals.sessions = [
        try EarnedTimeSession(
          name: "reward", window: TimerWindow(start: sessionStart, duration: .seconds(45 * 60)),
          apps: [try clash])
      ]
    }
    goals.maximumEventsPerActivity = eventLimit
    return goals
  }

  /// Every problem with `plan`: the platform's limits, the events' generations, each app's
  /// resolution against its events, and the registrations' consistency.
  static func problems(in plan: PlannedMonitoring) -> [String] {
    var problems = MonitoringPlan.violations(in: plan.activities.map(\.activity)).map {
      $0.description
    }
    if plan.activities.count > MonitoringLimits.maximumActivities {
      problems.append("\(plan.activities.count) activities")
    }
    var seen: [AppID: [Int64]] = [:]
    for activity in plan.activities {
      let length = activity.activity.schedule.intervalLength
      if length < MonitoringLimits.minimumInterval || length > MonitoringLimits.maximumInterval {
        problems.append("\(activity.name) lasts \(length)")
      }
      for event in activity.events {
        if event.generation != activity.generation {
          problems.append("\(event) in \(activity.name) g\(activity.generation)")
        }
        seen[event.app, default: []].append(event.threshold.components.seconds)
      }
      let registered = plan.registrations.contains {
        $0.activity == activity.name && $0.generation == activity.generation
      }
      if !registered { problems.append("\(activity.name) g\(activity.generation) unregistered") }
    }
    for (app, thresholds) in seen {
      var previous: Int64 = 0
      var largest: Int64 = 0
      for threshold in thresholds.sorted() {
        largest = max(largest, threshold - previous)
        previous = threshold
      }
      if plan.resolutions[app] != .seconds(largest) {
        problems.append(
          "\(app) resolution \(String(describing: plan.resolutions[app])) ≠ \(largest) s")
      }
    }
    do {
      try MonitoringRegistration.validate(plan.registrations)
    } catch {
      problems.append(error.description)
    }
    return problems
  }
}
