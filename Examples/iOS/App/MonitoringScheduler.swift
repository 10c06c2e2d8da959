import CryptoKit
@preconcurrency import DeviceActivity
@preconcurrency import FamilyControls
import Foundation
@preconcurrency import ManagedSettings
import ScreenTimeKit

/// Plans what to monitor for the apps the person picked, and registers it with DeviceActivity.
enum MonitoringScheduler {
  /// The identifier the library knows a picked app by: a digest of its opaque token.
  ///
  /// The digest is the same at every launch; the token itself stays in the app.
  ///
  /// - Parameter token: The app's token, from the person's `FamilyActivitySelection`.
  /// - Returns: `app.` and 32 hexadecimal digits.
  /// - Throws: The token's encoding error.
  static func appID(for token: ApplicationToken) throws -> AppID {
    let digest = SHA256.hash(data: try JSONEncoder().encode(token))
    return try AppID("app." + digest.map { String(format: "%02x", $0) }.joined().prefix(32))
  }

  /// Re-arms monitoring: a ladder of five-minute steps for each picked app and their daily
  /// budget, planned within the platform's limits, under new generations where anything changed.
  ///
  /// The plan is stored before any activity starts, so that the app reads every fact the new
  /// registrations produce against it.
  ///
  /// - Parameters:
  ///   - selection: The apps the person picked.
  ///   - folder: The shared folder, where the plan is kept.
  ///   - now: The instant of the re-arm.
  /// - Throws: The planner's, the store's and DeviceActivity's errors.
  static func arm(_ selection: FamilyActivitySelection, folder: SharedFolder, now: Date) throws {
    var tokens: [AppID: ApplicationToken] = [:]
    for token in selection.applicationTokens {
      tokens[try appID(for: token)] = token
    }
    let apps = tokens.keys.sorted()
    var goals = MonitoringGoals(timeZone: .current)
    goals.ladders = try apps.map {
      try UsageLadder(target: .app($0), step: .seconds(5 * 60), top: .seconds(4 * 3600))
    }
    goals.budgets = [
      try BudgetGoal(
        category: .socialMedia, apps: apps, allowance: ScreenTimeSettings.dailyAllowance,
        alertPercents: [50, 80, 100])
    ]
    let previous = try folder.store.value(for: ScreenTimeSettings.plan)
    let rearm = try MonitoringPlanner.arm(goals, now: now, previous: previous)
    try folder.store.set(rearm.plan, for: ScreenTimeSettings.plan)

    let center = DeviceActivityCenter()
    center.stopMonitoring(rearm.stop.map { DeviceActivityName($0) })
    for activity in rearm.start {
      var events: [DeviceActivityEvent.Name: DeviceActivityEvent] = [:]
      for name in activity.events {
        guard let token = tokens[name.app] else { continue }
        events[DeviceActivityEvent.Name(name.rawValue)] = DeviceActivityEvent(
          applications: [token],
          threshold: DateComponents(second: Int(name.threshold.components.seconds)))
      }
      try center.startMonitoring(
        DeviceActivityName(activity.name),
        during: schedule(of: activity.activity, in: rearm.plan.timeZone), events: events)
    }
  }

  /// The platform's schedule for a planned activity: a daily window repeats, a session's timer
  /// runs once between its local start and end.
  private static func schedule(of activity: MonitoredActivity, in zone: TimeZone)
    -> DeviceActivitySchedule
  {
    switch activity.schedule {
    case .daily(let window):
      return DeviceActivitySchedule(
        intervalStart: window.start.dateComponents, intervalEnd: window.end.dateComponents,
        repeats: true)
    case .timer(let timer):
      return DeviceActivitySchedule(
        intervalStart: timer.localStart(in: zone).dateComponents,
        intervalEnd: timer.localEnd(in: zone).dateComponents, repeats: false)
    }
  }
}
