import ActivityPlanning
import Foundation
import UsageModel

/// When a profile's schedule shields its targets: a daily window on some weekdays, or a one-off
/// timer.
///
/// A daily schedule is ActivityPlanning's ``/ActivityPlanning/ScheduledWindow`` — the same
/// daily-window rule the monitoring planner registers, so the planner's intervals and the
/// shields agree: an occurrence starts on one of the window's weekdays and may end on the next
/// date (21:00 to 07:00); daylight-saving gaps and repeats follow ``/UsageModel/DailyWindow``.
/// A timer is a ``/UsageModel/TimerWindow``, which keeps its dates across midnight.
///
/// ```swift
/// let bedtime = ShieldSchedule.daily(try ScheduledWindow(
///   name: "bedtime", kind: .block,
///   window: DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7))))
/// let homework = try ShieldSchedule.timer(
///   name: "homework", window: TimerWindow(start: four, duration: .seconds(3600)))
/// ```
///
/// JSON form: `{"type": "daily", "window": ScheduledWindow}` or `{"type": "timer", "name":
/// "homework", "window": TimerWindow}`.
public enum ShieldSchedule: Sendable, Hashable, Codable {
  /// A daily window on some weekdays.
  case daily(ScheduledWindow)
  /// A one-off window with a name.
  case timer(name: String, window: TimerWindow)

  /// The schedule's name, shown in a shield's reason.
  public var name: String {
    switch self {
    case .daily(let window): return window.name
    case .timer(let name, _): return name
    }
  }

  private enum CodingKeys: String, CodingKey {
    case type, name, window
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field or an unknown type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .type) {
    case "daily":
      self = .daily(try container.decode(ScheduledWindow.self, forKey: .window))
    case "timer":
      self = .timer(
        name: try container.decode(String.self, forKey: .name),
        window: try container.decode(TimerWindow.self, forKey: .window))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "unknown schedule type \(other)")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .daily(let window):
      try container.encode("daily", forKey: .type)
      try container.encode(window, forKey: .window)
    case .timer(let name, let window):
      try container.encode("timer", forKey: .type)
      try container.encode(name, forKey: .name)
      try container.encode(window, forKey: .window)
    }
  }
}
