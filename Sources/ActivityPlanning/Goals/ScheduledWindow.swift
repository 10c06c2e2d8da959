import Foundation
import UsageModel

/// A block or focus schedule: a daily window on some weekdays, during which the app shields
/// apps.
///
/// The planner gives it a repeating daily activity (`intervalDidStart` shields,
/// `intervalDidEnd` lifts the shield) and keeps its weekdays in the plan: DeviceActivity repeats a
/// schedule with a weekday only weekly, which would take one activity per weekday, so the
/// extension checks the weekday of each `intervalDidStart` against
/// ``PlannedActivity/Role/window(kind:goals:weekdays:)`` instead.
///
/// ```swift
/// let bedtime = try ScheduledWindow(
///   name: "bedtime", kind: .block,
///   window: DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7)),
///   weekdays: [.sunday, .monday, .tuesday, .wednesday, .thursday])
/// ```
///
/// JSON form: `{"name": "bedtime", "kind": "block", "window": {"start": "21:00", "end":
/// "07:00"}, "weekdays": [1, 2, 3, 4, 7]}`, weekdays ISO-numbered (Monday 1) and ascending.
public struct ScheduledWindow: Sendable, Hashable, Codable {
  /// What the window is for.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apps are shielded during the window.
    case block
    /// A focus time: apps are shielded and the session counts toward focus goals.
    case focus
  }

  /// The window's name, unique among the goals' windows and sessions.
  public let name: String
  /// What it is for.
  public let kind: Kind
  /// When it runs on the wall clock of the goals' zone.
  public let window: DailyWindow
  /// The weekdays on which an occurrence starts, ascending.
  public let weekdays: [Weekday]

  /// Creates a window.
  ///
  /// - Parameters:
  ///   - name: A name: non-empty, unique among the windows and sessions.
  ///   - kind: Block or focus.
  ///   - window: When it runs: at least 15 minutes on the wall clock.
  ///   - weekdays: The weekdays on which it starts, at least one; every day unless you say.
  /// - Throws: ``PlanningError/windowTooShort(goal:length:minimum:)`` for a window under 15
  ///   minutes, ``PlanningError/invalidGoal(goal:field:value:requirement:)`` for an empty name
  ///   or no weekday.
  public init(
    name: String, kind: Kind, window: DailyWindow, weekdays: Set<Weekday> = Set(Weekday.allCases)
  ) throws(PlanningError) {
    guard !name.isEmpty else {
      throw .invalidGoal(
        goal: "window", field: "name", value: "\"\"", requirement: "a non-empty name")
    }
    guard window.nominalLength >= MonitoringLimits.minimumInterval else {
      throw .windowTooShort(
        goal: name, length: window.nominalLength, minimum: MonitoringLimits.minimumInterval)
    }
    guard !weekdays.isEmpty else {
      throw .invalidGoal(
        goal: name, field: "weekdays", value: "[]", requirement: "at least one weekday")
    }
    self.name = name
    self.kind = kind
    self.window = window
    self.weekdays = weekdays.sorted()
  }

  private enum CodingKeys: String, CodingKey {
    case name, kind, window, weekdays
  }

  /// Decodes the documented JSON form and checks it.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .name)
    let kind = try container.decode(Kind.self, forKey: .kind)
    let window = try container.decode(DailyWindow.self, forKey: .window)
    let weekdays = try container.decode([Weekday].self, forKey: .weekdays)
    do {
      try self.init(name: name, kind: kind, window: window, weekdays: Set(weekdays))
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
    try container.encode(kind, forKey: .kind)
    try container.encode(window, forKey: .window)
    try container.encode(weekdays, forKey: .weekdays)
  }
}
