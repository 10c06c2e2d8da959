import Foundation
import UsageModel

/// One activity of a plan: the `DeviceActivityName`, schedule and events to pass to
/// `startMonitoring`, what it is for, and the generation its event names carry.
///
/// JSON form: `{"activity": MonitoredActivity, "role": Role, "generation": 1, "events":
/// ["stk:g1:5m:com.burbn.instagram", …]}`.
public struct PlannedActivity: Sendable, Hashable, Codable {
  /// What an activity is for.
  ///
  /// JSON form: `{"kind": "usage", "apps": […]}`, `{"kind": "window", "windowKind": "block",
  /// "goals": ["bedtime"], "weekdays": [1, 2]}` or `{"kind": "session", "name": "reward-1",
  /// "apps": […]}`.
  public enum Role: Sendable, Hashable, Codable {
    /// Counts the listed apps' use over the day with threshold events.
    case usage(apps: [AppID])
    /// Runs block or focus windows; shield only on an `intervalDidStart` whose local weekday
    /// is listed.
    case window(kind: ScheduledWindow.Kind, goals: [String], weekdays: [Weekday])
    /// Runs an earned-time session that unshields the listed apps.
    case session(name: String, apps: [AppID])

    private enum CodingKeys: String, CodingKey {
      case kind, apps, windowKind, goals, weekdays, name
    }

    /// Decodes the documented JSON form.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for an unknown kind or a missing field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      switch try container.decode(String.self, forKey: .kind) {
      case "usage": self = .usage(apps: try container.decode([AppID].self, forKey: .apps))
      case "window":
        self = .window(
          kind: try container.decode(ScheduledWindow.Kind.self, forKey: .windowKind),
          goals: try container.decode([String].self, forKey: .goals),
          weekdays: try container.decode([Weekday].self, forKey: .weekdays))
      case "session":
        self = .session(
          name: try container.decode(String.self, forKey: .name),
          apps: try container.decode([AppID].self, forKey: .apps))
      case let kind:
        throw DecodingError.dataCorruptedError(
          forKey: .kind, in: container, debugDescription: "unknown role \(kind)")
      }
    }

    /// Encodes the documented JSON form.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      switch self {
      case .usage(let apps):
        try container.encode("usage", forKey: .kind)
        try container.encode(apps, forKey: .apps)
      case .window(let kind, let goals, let weekdays):
        try container.encode("window", forKey: .kind)
        try container.encode(kind, forKey: .windowKind)
        try container.encode(goals, forKey: .goals)
        try container.encode(weekdays, forKey: .weekdays)
      case .session(let name, let apps):
        try container.encode("session", forKey: .kind)
        try container.encode(name, forKey: .name)
        try container.encode(apps, forKey: .apps)
      }
    }
  }

  /// The name, schedule and warning time to pass to `startMonitoring`.
  public let activity: MonitoredActivity
  /// What the activity is for.
  public let role: Role
  /// The generation its event names carry; 0 before ``MonitoringPlanner/arm(_:now:previous:restartingAll:)``
  /// gives it one.
  public let generation: UInt32
  /// Its events, ascending by app then threshold: register each with its app's token and a
  /// threshold of `ThresholdEventName.threshold`.
  public let events: [ThresholdEventName]

  /// The activity's name.
  public var name: String { activity.name }

  /// Creates a planned activity.
  ///
  /// - Parameters:
  ///   - activity: The name, schedule and warning time.
  ///   - role: What it is for.
  ///   - generation: The generation its events carry.
  ///   - events: Its events; each must carry `generation` once armed.
  public init(
    activity: MonitoredActivity, role: Role, generation: UInt32, events: [ThresholdEventName]
  ) {
    self.activity = activity
    self.role = role
    self.generation = generation
    self.events = events
  }

  /// The same activity with its event names under `generation`.
  ///
  /// - Parameter generation: The new generation.
  /// - Returns: The activity, its events renamed.
  /// - Throws: Nothing in practice: the events' thresholds are already valid.
  /// - Complexity: O(*e*) for *e* events.
  func armed(as generation: UInt32) throws(UsageModelError) -> PlannedActivity {
    var renamed: [ThresholdEventName] = []
    renamed.reserveCapacity(events.count)
    for event in events {
      renamed.append(
        try ThresholdEventName(app: event.app, threshold: event.threshold, generation: generation))
    }
    return PlannedActivity(activity: activity, role: role, generation: generation, events: renamed)
  }

  /// Whether `other` asks the platform for the same thing, whatever the generations.
  func isSameRegistration(as other: PlannedActivity) -> Bool {
    activity == other.activity && role == other.role && events.count == other.events.count
      && zip(events, other.events).allSatisfy { $0.app == $1.app && $0.threshold == $1.threshold }
  }
}
