import Foundation
import UsageModel

/// Everything the monitoring planner can reject, naming the input to fix.
///
/// ``MonitoringPlanner`` throws this type (typed throws) for goals it cannot plan, and
/// ``PlannedMonitoring/decode(event:activity:)`` for an event name it cannot place. A call that
/// throws changes nothing.
public enum PlanningError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The goals ask for nothing: no ladder, budget, window or session.
  case nothingToMonitor
  /// A ladder or budget names no app: `goal` is its target, such as `category social_media`.
  case noApps(goal: String)
  /// A ladder's step is under the finest resolution the planner offers, one minute.
  case resolutionTooFine(goal: String, step: Duration, minimum: Duration)
  /// A window or session is shorter than the platform's shortest interval, 15 minutes.
  case windowTooShort(goal: String, length: Duration, minimum: Duration)
  /// A session is longer than the platform's longest interval, one week.
  case windowTooLong(goal: String, length: Duration, maximum: Duration)
  /// Even at the coarsest resolution (one event per app at the top of its ladder, plus its
  /// budget points), the apps' events do not fit in the activities left for usage.
  case appsDoNotFit(apps: Int, events: Int, activities: Int, eventsPerActivity: Int)
  /// The windows and sessions alone, after merging identical windows, need more activities
  /// than the platform allows.
  case tooManyActivities(needed: Int, limit: Int)
  /// A value of a goal is out of range; `requirement` says what it must be.
  case invalidGoal(goal: String, field: String, value: String, requirement: String)
  /// Two goals share a name, or two ladders an app.
  case duplicateGoal(String)
  /// A re-arm would register `activity` at or before its last registration, which would make
  /// the generations disagree with time (the clock went back, or the same instant twice).
  case rearmNotAfterLastRegistration(activity: String, last: Date, now: Date)
  /// An event's activity is neither live nor in the plan's registrations.
  case unknownActivity(event: String, activity: String)
  /// An event's generation is missing or no registration of its activity carries it.
  case unknownGeneration(event: String, activity: String, generation: UInt32?)
  /// A live generation's event names an app and threshold its activity does not register.
  case unknownEvent(event: String, activity: String)
  /// A model of UsageModel rejected a value, such as an event name or an instant.
  case usage(UsageModelError)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .nothingToMonitor:
      return "Nothing to monitor: give at least one ladder, budget, window or session."
    case .noApps(let goal):
      return "The goal \(goal) names no app: give it at least one."
    case .resolutionTooFine(let goal, let step, let minimum):
      return "The ladder of \(goal) steps by \(step), finer than the minimum \(minimum)."
    case .windowTooShort(let goal, let length, let minimum):
      return "The window \(goal) lasts \(length), shorter than the platform's \(minimum)."
    case .windowTooLong(let goal, let length, let maximum):
      return "The window \(goal) lasts \(length), longer than the platform's \(maximum)."
    case .appsDoNotFit(let apps, let events, let activities, let perActivity):
      return "\(apps) apps need at least \(events) events, more than \(activities) activities of "
        + "\(perActivity) events hold: monitor fewer apps or raise the event limit."
    case .tooManyActivities(let needed, let limit):
      return "The windows and sessions need \(needed) activities, more than the platform's "
        + "\(limit)."
    case .invalidGoal(let goal, let field, let value, let requirement):
      return "The goal \(goal) has \(field) \(value): it must be \(requirement)."
    case .duplicateGoal(let name):
      return "\(name) is given twice: give each goal its own name and each app one ladder."
    case .rearmNotAfterLastRegistration(let activity, let last, let now):
      return "Re-arming \(activity) at \(now) is not after its last registration at \(last)."
    case .unknownActivity(let event, let activity):
      return "The event \(event) names the activity \(activity), which the plan does not know."
    case .unknownGeneration(let event, let activity, let generation):
      let text = generation.map { "generation \($0)" } ?? "no generation"
      return "The event \(event) of \(activity) has \(text), which no registration carries."
    case .unknownEvent(let event, let activity):
      return "The event \(event) is not one the live registration of \(activity) registered."
    case .usage(let error):
      return error.description
    }
  }
}
