import Foundation
import UsageModel

/// What to do to move from one plan to the next: the activities to stop and to start, the new
/// registrations, and the plan to store.
///
/// `startMonitoring` replaces an activity of the same name, so an activity that is restarted
/// appears in ``start`` only; ``stop`` lists the activities that are no longer planned.
/// The value is not stored: keep ``plan``, which holds everything the next re-arm needs.
///
/// ```swift
/// let rearm = try MonitoringPlanner.arm(goals, now: now, previous: stored)
/// center.stopMonitoring(rearm.stop.map(DeviceActivityName.init))
/// for activity in rearm.start { try center.startMonitoring(…) }
/// store(rearm.plan)   // then configuration.registrations = rearm.plan.registrations
/// ```
public struct MonitoringRearm: Sendable, Hashable {
  /// The plan to store, with every generation and every registration kept.
  public let plan: PlannedMonitoring
  /// The names of the activities to stop: planned before, not any more.
  public let stop: [String]
  /// The activities to start, each under a generation its name never had.
  public let start: [PlannedActivity]
  /// The registrations made by starting ``start``, one each, at the re-arm's instant.
  public let registrations: [MonitoringRegistration]
  /// The activities left running as they are: the same registration as before.
  public let unchanged: [String]
}
