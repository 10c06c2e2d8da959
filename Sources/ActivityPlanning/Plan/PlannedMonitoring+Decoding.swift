import Foundation
import UsageModel

/// What an event name received for an activity is, by the plan: a live event to count, or a
/// stale one of a previous generation to reject.
public enum EventDecoding: Sendable, Hashable {
  /// An event of the activity's live registration: count it.
  case live(ThresholdEventName, registration: MonitoringRegistration)
  /// An event of a previous registration of the activity (a replay, or a late delivery from
  /// before a re-arm): reject it; `live` is the activity's live generation, `nil` when the
  /// activity was stopped.
  case stale(ThresholdEventName, registration: MonitoringRegistration, live: UInt32?)
}

extension PlannedMonitoring {
  /// Decodes the event `event` received for `activity` back to its app, threshold and
  /// registration, and says whether it is live or stale.
  ///
  /// ```swift
  /// switch try plan.decode(event: "stk:g2:5m:com.burbn.instagram", activity: "stk.usage.1") {
  /// case .live(let name, let registration): count(name.app, name.threshold, registration)
  /// case .stale: break  // a replay of an older generation
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - event: The `DeviceActivityEvent.Name`'s raw value.
  ///   - activity: The `DeviceActivityName`'s raw value.
  /// - Returns: The decoded event and its registration.
  /// - Throws: ``PlanningError/usage(_:)`` for a malformed name,
  ///   ``PlanningError/unknownActivity(event:activity:)``,
  ///   ``PlanningError/unknownGeneration(event:activity:generation:)`` for a name without a
  ///   generation or one no kept registration carries, and
  ///   ``PlanningError/unknownEvent(event:activity:)`` for a live generation's name that its
  ///   activity does not register.
  /// - Complexity: O(*r* + *e*) for *r* registrations and *e* events of the activity.
  public func decode(event: String, activity: String) throws(PlanningError) -> EventDecoding {
    let name: ThresholdEventName
    do {
      name = try ThresholdEventName(parsing: event)
    } catch {
      throw .usage(error)
    }
    let live = self.activity(named: activity)
    let registrations = self.registrations.filter { $0.activity == activity }
    guard live != nil || !registrations.isEmpty else {
      throw .unknownActivity(event: event, activity: activity)
    }
    guard let generation = name.generation,
      let registration = registrations.first(where: { $0.generation == generation })
    else {
      throw .unknownGeneration(event: event, activity: activity, generation: name.generation)
    }
    guard let live, live.generation == generation else {
      return .stale(name, registration: registration, live: live?.generation)
    }
    guard live.events.contains(name) else {
      throw .unknownEvent(event: event, activity: activity)
    }
    return .live(name, registration: registration)
  }
}
