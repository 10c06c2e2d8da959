import Foundation
import UsageModel

extension MonitoringPlanner {
  /// Plans `goals` at `now` and says how to move there from `previous`, with a new generation
  /// for every activity started, so that no replay of an older registration counts twice.
  ///
  /// An activity whose schedule, role and events are those of `previous` keeps running under
  /// its generation, unless `restartingAll`. Every other activity starts under the next
  /// generation of its name (one more than the highest it ever had), registered at `now`.
  /// The plan's ``PlannedMonitoring/registrations`` keep each live registration and every one
  /// of the last ``registrationMemory``.
  ///
  /// Re-arming is safe at any instant, including the last minutes before the day start and
  /// inside a daylight-saving gap or repeat: the schedules are wall-clock windows that do not
  /// depend on `now`; only ended sessions and the registrations' instant do.
  ///
  /// ```swift
  /// let first = try MonitoringPlanner.arm(goals, now: morning, previous: nil)
  /// let second = try MonitoringPlanner.arm(changed, now: evening, previous: first.plan)
  /// ```
  ///
  /// - Parameters:
  ///   - goals: What to observe and enforce.
  ///   - now: The instant of the re-arm: after the last registration of each activity started.
  ///   - previous: The plan stored by the last re-arm, or `nil` for the first.
  ///   - restartingAll: Start every activity afresh, such as after the app was reinstalled.
  /// - Returns: What to stop and start, and the plan to store.
  /// - Throws: The goals' ``PlanningError``s (see ``MonitoringPlanner``), and
  ///   ``PlanningError/rearmNotAfterLastRegistration(activity:last:now:)`` when `now` is not
  ///   after an activity's last registration.
  /// - Complexity: O(*e* + *a* × *b* × *c*) for *e* events, *a* apps, *b* activities and *c*
  ///   coarsening rounds (at most log₂ of the longest ladder's top in minutes, per step size).
  public static func arm(
    _ goals: MonitoringGoals, now: Date, previous: PlannedMonitoring?, restartingAll: Bool = false
  ) throws(PlanningError) -> MonitoringRearm {
    let fresh = try plan(goals, now: now, previous: previous)
    let instant: Int64
    do {
      instant = try Milliseconds.instant(now, field: "now")
    } catch {
      throw .usage(error)
    }
    var generations = previous?.generations ?? [:]
    var activities: [PlannedActivity] = []
    var started: [PlannedActivity] = []
    var unchanged: [String] = []
    var registrations: [MonitoringRegistration] = []
    let history = previous?.registrations ?? []
    for activity in fresh.activities {
      if !restartingAll, let old = previous?.activity(named: activity.name),
        old.isSameRegistration(as: activity)
      {
        activities.append(old)
        unchanged.append(old.name)
        continue
      }
      if let last = history.filter({ $0.activity == activity.name }).map(\.registeredAt).max(),
        let lastInstant = Milliseconds.instant(last), lastInstant >= instant
      {
        throw .rearmNotAfterLastRegistration(activity: activity.name, last: last, now: now)
      }
      let (next, overflow) = (generations[activity.name] ?? 0).addingReportingOverflow(1)
      guard !overflow else {
        throw .invalidGoal(
          goal: activity.name, field: "generation", value: "\(UInt32.max)",
          requirement: "below UInt32.max: restart the activity under another name")
      }
      do {
        let armed = try activity.armed(as: next)
        registrations.append(
          try MonitoringRegistration(
            activity: activity.name, generation: next, registeredAt: Milliseconds.date(instant),
            includesPastActivity: goals.includesPastActivity, counting: goals.counting))
        generations[activity.name] = next
        activities.append(armed)
        started.append(armed)
      } catch {
        throw .usage(error)
      }
    }
    let names = Set(activities.map(\.name))
    let stop = (previous?.activities ?? []).map(\.name).filter { !names.contains($0) }
    let live = Set(activities.map { "\($0.generation) \($0.name)" })
    let memory = Milliseconds.amount(registrationMemory) ?? 0
    let kept = history.filter {
      live.contains("\($0.generation) \($0.activity)")
        || (Milliseconds.instant($0.registeredAt) ?? instant) >= instant - memory
    }
    let all = (kept + registrations).sorted {
      ($0.activity, $0.generation) < ($1.activity, $1.generation)
    }
    do {
      let plan = try PlannedMonitoring(
        timeZone: fresh.timeZone, dayStart: fresh.dayStart,
        includesPastActivity: fresh.includesPastActivity, counting: fresh.counting,
        activities: activities, resolutions: fresh.resolutions, tradeOffs: fresh.tradeOffs,
        omissions: fresh.omissions, registrations: all, generations: generations)
      return MonitoringRearm(
        plan: plan, stop: stop, start: started, registrations: registrations,
        unchanged: unchanged)
    } catch {
      throw .usage(error)
    }
  }
}
