import Foundation
import UsageModel

// The steps of `MonitoringPlanner.plan(_:now:previous:)`.
extension MonitoringPlanner {
  /// Checks what the goals' own initialisers cannot: that there is something to monitor, that
  /// names and apps are unique, and that the event limit is positive.
  static func check(_ goals: MonitoringGoals) throws(PlanningError) {
    guard
      !goals.ladders.isEmpty || !goals.budgets.isEmpty || !goals.windows.isEmpty
        || !goals.sessions.isEmpty
    else { throw .nothingToMonitor }
    var names: Set<String> = []
    for name in goals.windows.map(\.name) + goals.sessions.map(\.name)
    where !names.insert(name).inserted {
      throw .duplicateGoal(name)
    }
    var apps: Set<AppID> = []
    for app in goals.ladders.flatMap(\.target.apps) where !apps.insert(app).inserted {
      throw .duplicateGoal(app.rawValue)
    }
    if let limit = goals.maximumEventsPerActivity, limit < 1 {
      throw .invalidGoal(
        goal: "goals", field: "maximumEventsPerActivity", value: "\(limit)",
        requirement: "at least 1")
    }
  }

  /// Each app's ladder, with its budgets' alert points.
  static func ladders(of goals: MonitoringGoals) -> [AppID: AppLadder] {
    var ladders: [AppID: AppLadder] = [:]
    for ladder in goals.ladders {
      let step = ladder.step.components.seconds
      let top = ladder.top.components.seconds
      for app in ladder.target.apps {
        ladders[app] = AppLadder(app: app, requestedStep: step, step: step, top: top, points: [])
      }
    }
    for budget in goals.budgets {
      let points = budget.alertPoints.map(\.components.seconds)
      for app in budget.apps {
        ladders[
          app, default: AppLadder(app: app, requestedStep: nil, step: nil, top: nil, points: [])
        ]
        .points.formUnion(points)
      }
    }
    return ladders
  }

  /// Doubles the step of every ladder with the finest coarsenable step; `false` when none can.
  static func coarsenFinest(_ ladders: inout [AppID: AppLadder]) -> Bool {
    guard let finest = ladders.values.filter(\.canCoarsen).compactMap(\.step).min() else {
      return false
    }
    for (app, ladder) in ladders where ladder.canCoarsen && ladder.step == finest {
      ladders[app]?.coarsen()
    }
    return true
  }

  /// The windows' activities: one each, or one per distinct daily window and kind when merged.
  static func windowActivities(_ windows: [ScheduledWindow], merged: Bool) -> [PlannedActivity] {
    var groups: [[ScheduledWindow]] = []
    for window in windows {
      if merged,
        let index = groups.firstIndex(where: {
          $0[0].window == window.window && $0[0].kind == window.kind
        })
      {
        groups[index].append(window)
      } else {
        groups.append([window])
      }
    }
    return groups.map { group in
      let weekdays = Set(group.flatMap(\.weekdays)).sorted()
      return PlannedActivity(
        activity: MonitoredActivity(
          name: windowPrefix + group[0].name, schedule: .daily(group[0].window)),
        role: .window(kind: group[0].kind, goals: group.map(\.name), weekdays: weekdays),
        generation: 0, events: [])
    }
  }

  /// The 0-based usage activity each app had in `previous`.
  static func previousUsageBins(_ previous: PlannedMonitoring?) -> [AppID: Int] {
    var bins: [AppID: Int] = [:]
    for activity in previous?.activities ?? [] {
      guard case .usage(let apps) = activity.role, activity.name.hasPrefix(usagePrefix),
        let number = Int(activity.name.dropFirst(usagePrefix.count)), number >= 1
      else { continue }
      for app in apps { bins[app] = number - 1 }
    }
    return bins
  }

  /// The usage activities of the packed ladders, and each app's resolution.
  static func usageActivities(
    _ ladders: [AppID: AppLadder], bins: [AppID: Int], window: DailyWindow,
    intervalSeconds: Int64
  ) throws(PlanningError) -> ([PlannedActivity], [AppID: Duration]) {
    var resolutions: [AppID: Duration] = [:]
    var activities: [PlannedActivity] = []
    for bin in Set(bins.values).sorted() {
      let apps = bins.filter { $0.value == bin }.keys.sorted { $0.rawValue < $1.rawValue }
      var events: [ThresholdEventName] = []
      for app in apps {
        guard let ladder = ladders[app] else { continue }
        let thresholds = ladder.thresholds(upTo: intervalSeconds)
        resolutions[app] = .seconds(AppLadder.resolution(of: thresholds))
        for threshold in thresholds {
          do {
            events.append(
              try ThresholdEventName(app: app, threshold: .seconds(threshold), generation: 0))
          } catch {
            throw .usage(error)
          }
        }
      }
      activities.append(
        PlannedActivity(
          activity: MonitoredActivity(name: usagePrefix + "\(bin + 1)", schedule: .daily(window)),
          role: .usage(apps: apps), generation: 0, events: events))
    }
    return (activities, resolutions)
  }
}
