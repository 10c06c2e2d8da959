import Foundation
import UsageModel

/// Turns what the app wants to know (``MonitoringGoals``) into DeviceActivity activities that
/// fit the platform's limits, and re-arms them without replay
/// (``arm(_:now:previous:restartingAll:)``).
///
/// **The plan.** Each block or focus window gets a repeating daily activity
/// (`stk.window.<name>`), each earned-time session that has not ended a one-off timer activity
/// (`stk.session.<name>`), and the apps' ladders share usage activities (`stk.usage.<k>`) that
/// run every day from the day start to one minute before it. Each app's events are in one
/// usage activity: its ladder's thresholds (`step`, `2 × step`, … `top`) and its budgets'
/// alert points, each named `stk:g<N>:<threshold>:<app>`.
///
/// **The trade-off rule**, applied in this order, each step only when needed:
/// 1. Windows with the same daily window and kind share one activity
///    (``PlanningTradeOff/mergedWindows(goals:activity:)``), when the activities would
///    otherwise exceed 20 or the ladders would not fit in the usage activities left.
/// 2. With an event limit per activity, the ladders with the finest step double their step
///    (all ties at once; capped at the top, budget points kept) until every app's events fit,
///    first-fit by decreasing size, apps staying in their previous activity when it has room
///    (``PlanningTradeOff/coarsenedLadder(app:requested:granted:)``,
///    ``PlanningTradeOff/movedApp(app:from:to:)``).
/// 3. If even the coarsest ladders do not fit, ``PlanningError/appsDoNotFit(apps:events:activities:eventsPerActivity:)``;
///    if the windows and sessions alone exceed 20, ``PlanningError/tooManyActivities(needed:limit:)``.
///
/// Thresholds beyond the usage interval and sessions that have ended are left out and named in
/// ``PlannedMonitoring/omissions``. Nothing is dropped silently.
///
/// Everything is a pure function of its arguments: the zone and the instant are parameters.
public enum MonitoringPlanner {
  /// The finest resolution a ladder may ask for: one minute.
  public static let finestResolution = Duration.seconds(60)
  /// How long registrations are kept after they stop being live: eight days, longer than the
  /// platform's longest interval, so that any late event of a previous generation is
  /// recognised as stale.
  public static let registrationMemory = Duration.seconds(8 * 86_400)
  /// The prefix of the usage activities' names.
  public static let usagePrefix = "stk.usage."
  /// The prefix of the window activities' names.
  public static let windowPrefix = "stk.window."
  /// The prefix of the session activities' names.
  public static let sessionPrefix = "stk.session."

  /// The usage activities' daily window: from the day start to one minute before it.
  ///
  /// - Parameter dayStart: When the day starts.
  /// - Returns: The window, 23 hours 59 minutes on the wall clock.
  public static func usageWindow(dayStart: TimeOfDay) -> DailyWindow {
    let end = (dayStart.secondsSinceMidnight + 86_400 - 60) % 86_400
    do {
      return try DailyWindow(
        start: dayStart,
        end: TimeOfDay(hour: end / 3600, minute: end / 60 % 60, second: end % 60))
    } catch {
      preconditionFailure("a day start and one minute before it always differ")
    }
  }

  /// Plans `goals` at `now` with every generation 0, keeping apps where `previous` had them.
  static func plan(_ goals: MonitoringGoals, now: Date, previous: PlannedMonitoring?)
    throws(PlanningError) -> PlannedMonitoring
  {
    try check(goals)
    let window = usageWindow(dayStart: goals.dayStart)
    let intervalSeconds = Int64(window.nominalLength.components.seconds)
    var ladders = ladders(of: goals)
    var omissions: [PlanningOmission] = []
    for ladder in ladders.values.sorted(by: { $0.app.rawValue < $1.app.rawValue }) {
      let beyond = ladder.allThresholds.filter { $0 > intervalSeconds }
      if !beyond.isEmpty {
        omissions.append(
          .thresholdsBeyondInterval(
            app: ladder.app, thresholds: beyond.map { .seconds($0) },
            intervalLength: window.nominalLength))
      }
    }
    var sessions: [PlannedActivity] = []
    for session in goals.sessions {
      guard session.window.end > now else {
        omissions.append(.sessionEnded(name: session.name, end: session.window.end))
        continue
      }
      sessions.append(
        PlannedActivity(
          activity: MonitoredActivity(
            name: sessionPrefix + session.name, schedule: .timer(session.window)),
          role: .session(name: session.name, apps: session.apps), generation: 0, events: []))
    }
    var tradeOffs: [PlanningTradeOff] = []
    var windows = windowActivities(goals.windows, merged: false)
    let limit = MonitoringLimits.maximumActivities
    let needsUsage = ladders.isEmpty ? 0 : 1
    func mergeWindows() {
      let merged = windowActivities(goals.windows, merged: true)
      guard merged.count < windows.count else { return }
      for activity in merged {
        if case .window(_, let names, _) = activity.role, names.count > 1 {
          tradeOffs.append(.mergedWindows(goals: names, activity: activity.name))
        }
      }
      windows = merged
    }
    if windows.count + sessions.count + needsUsage > limit { mergeWindows() }
    guard windows.count + sessions.count + needsUsage <= limit else {
      throw .tooManyActivities(needed: windows.count + sessions.count + needsUsage, limit: limit)
    }
    let previousBins = previousUsageBins(previous)
    var bins = Dictionary(uniqueKeysWithValues: ladders.keys.map { ($0, 0) })
    if let capacity = goals.maximumEventsPerActivity {
      var triedMerging = false
      while true {
        let sizes = ladders.mapValues { $0.thresholds(upTo: intervalSeconds).count }
        let available = limit - windows.count - sessions.count
        if let placed = UsagePacking.pack(
          sizes: sizes, bins: available, capacity: capacity, previous: previousBins)
        {
          bins = placed
          break
        }
        if !triedMerging {
          triedMerging = true
          let before = windows.count
          mergeWindows()
          if windows.count < before { continue }
        }
        guard coarsenFinest(&ladders) else {
          throw .appsDoNotFit(
            apps: ladders.count, events: sizes.values.reduce(0, +), activities: available,
            eventsPerActivity: capacity)
        }
      }
      for ladder in ladders.values.sorted(by: { $0.app.rawValue < $1.app.rawValue }) {
        if let requested = ladder.requestedStep, let step = ladder.step, step != requested {
          tradeOffs.append(
            .coarsenedLadder(
              app: ladder.app, requested: .seconds(requested), granted: .seconds(step)))
        }
      }
    }
    for app in bins.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
      if let before = previousBins[app], let after = bins[app], before != after {
        tradeOffs.append(
          .movedApp(
            app: app, from: usagePrefix + "\(before + 1)", to: usagePrefix + "\(after + 1)"))
      }
    }
    let (usage, resolutions) = try usageActivities(
      ladders, bins: bins, window: window, intervalSeconds: intervalSeconds)
    do {
      return try PlannedMonitoring(
        timeZone: goals.timeZone, dayStart: goals.dayStart,
        includesPastActivity: goals.includesPastActivity, counting: goals.counting,
        activities: usage + windows + sessions, resolutions: resolutions, tradeOffs: tradeOffs,
        omissions: omissions, registrations: [], generations: [:])
    } catch {
      throw .usage(error)
    }
  }
}
