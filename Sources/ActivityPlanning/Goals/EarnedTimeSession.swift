import Foundation
import UsageModel

/// A stretch of earned time: the listed apps are unshielded from an instant for a while.
///
/// The planner gives it a one-off timer activity (`intervalDidStart` lifts the shield,
/// `intervalDidEnd` restores it); the use within it is counted by the apps' ladders. A session
/// that has ended by the planning instant is left out and reported
/// (``PlanningOmission/sessionEnded(name:end:)``).
///
/// ```swift
/// let reward = try EarnedTimeSession(
///   name: "reward-1", window: TimerWindow(start: now, duration: .seconds(1800)), apps: [clash])
/// ```
///
/// JSON form: `{"name": "reward-1", "window": {"start": "…", "durationMs": 1800000}, "apps":
/// ["com.supercell.clashroyale"]}`.
public struct EarnedTimeSession: Sendable, Hashable, Codable {
  /// The session's name, unique among the goals' windows and sessions.
  public let name: String
  /// When it runs.
  public let window: TimerWindow
  /// The apps it unshields.
  public let apps: [AppID]

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - name: A name: non-empty, unique among the windows and sessions.
  ///   - window: When it runs: 15 minutes to one week.
  ///   - apps: The apps it unshields, at least one.
  /// - Throws: ``PlanningError/windowTooShort(goal:length:minimum:)``,
  ///   ``PlanningError/windowTooLong(goal:length:maximum:)``, ``PlanningError/noApps(goal:)``,
  ///   or ``PlanningError/invalidGoal(goal:field:value:requirement:)`` for an empty name.
  public init(name: String, window: TimerWindow, apps: [AppID]) throws(PlanningError) {
    guard !name.isEmpty else {
      throw .invalidGoal(
        goal: "session", field: "name", value: "\"\"", requirement: "a non-empty name")
    }
    guard window.duration >= MonitoringLimits.minimumInterval else {
      throw .windowTooShort(
        goal: name, length: window.duration, minimum: MonitoringLimits.minimumInterval)
    }
    guard window.duration <= MonitoringLimits.maximumInterval else {
      throw .windowTooLong(
        goal: name, length: window.duration, maximum: MonitoringLimits.maximumInterval)
    }
    guard !apps.isEmpty else { throw .noApps(goal: name) }
    self.name = name
    self.window = window
    self.apps = apps
  }

  private enum CodingKeys: String, CodingKey {
    case name, window, apps
  }

  /// Decodes the documented JSON form and checks it.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .name)
    let window = try container.decode(TimerWindow.self, forKey: .window)
    let apps = try container.decode([AppID].self, forKey: .apps)
    do {
      try self.init(name: name, window: window, apps: apps)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .window, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(window, forKey: .window)
    try container.encode(apps, forKey: .apps)
  }
}
