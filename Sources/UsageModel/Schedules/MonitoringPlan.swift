/// The platform's documented limits for DeviceActivity monitoring.
public enum MonitoringLimits {
  /// The shortest monitoring interval the platform accepts: 15 minutes.
  public static let minimumInterval = Duration.seconds(15 * 60)
  /// The longest monitoring interval the platform accepts: one week.
  public static let maximumInterval = Duration.seconds(7 * 86_400)
  /// The most activities one app may monitor at once: 20.
  public static let maximumActivities = 20
}

/// What one monitored activity watches: a daily window or a one-off timer window.
///
/// JSON form: `{"daily": DailyWindow}` or `{"timer": TimerWindow}`.
public enum MonitoringSchedule: Sendable, Hashable, Codable {
  /// A window that repeats every day.
  case daily(DailyWindow)
  /// A one-off window.
  case timer(TimerWindow)

  /// The interval's length as the platform measures it: the wall-clock length of a daily
  /// window, the duration of a timer window.
  public var intervalLength: Duration {
    switch self {
    case .daily(let window): return window.nominalLength
    case .timer(let window): return window.duration
    }
  }

  private enum CodingKeys: String, CodingKey {
    case daily
    case timer
  }

  /// Decodes `{"daily": {…}}` or `{"timer": {…}}`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when neither or both keys are present, or a window is invalid.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let daily = try container.decodeIfPresent(DailyWindow.self, forKey: .daily)
    let timer = try container.decodeIfPresent(TimerWindow.self, forKey: .timer)
    switch (daily, timer) {
    case (let daily?, nil): self = .daily(daily)
    case (nil, let timer?): self = .timer(timer)
    default:
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "a schedule needs exactly one of \"daily\" and \"timer\""))
    }
  }

  /// Encodes `{"daily": {…}}` or `{"timer": {…}}`.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .daily(let window): try container.encode(window, forKey: .daily)
    case .timer(let window): try container.encode(window, forKey: .timer)
    }
  }
}

/// One activity of a monitoring plan: a name, a schedule and an optional warning time.
///
/// JSON form: `{"name": "daily", "schedule": {"daily": {…}}, "warningTimeMs": 300000}`, the
/// warning time omitted when absent.
public struct MonitoredActivity: Sendable, Hashable, Codable {
  /// The activity's name (a `DeviceActivityName`), unique within a plan.
  public let name: String
  /// When the activity is monitored.
  public let schedule: MonitoringSchedule
  /// How long before the interval ends the platform warns, if at all.
  public let warningTime: Duration?

  /// Creates an activity; ``MonitoringPlan`` checks it against the platform's limits.
  ///
  /// - Parameters:
  ///   - name: A name, unique within the plan.
  ///   - schedule: When it is monitored.
  ///   - warningTime: How long before the end of the interval to warn, if at all.
  public init(name: String, schedule: MonitoringSchedule, warningTime: Duration? = nil) {
    self.name = name
    self.schedule = schedule
    self.warningTime = warningTime
  }

  private enum CodingKeys: String, CodingKey {
    case name
    case schedule
    case warningTimeMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    schedule = try container.decode(MonitoringSchedule.self, forKey: .schedule)
    warningTime =
      try container.decodeIfPresent(Int64.self, forKey: .warningTimeMs).map(
        Milliseconds.duration)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when the warning time is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(schedule, forKey: .schedule)
    if let warningTime { try container.encodeMilliseconds(warningTime, forKey: .warningTimeMs) }
  }
}

/// A set of activities that has been checked against the platform's monitoring limits.
///
/// The limits (``MonitoringLimits``): each interval lasts at least 15 minutes and at most one
/// week; at most 20 activities; each warning time lies between zero and the activity's
/// interval; names are non-empty and unique. The platform would otherwise refuse the schedule or
/// silently clamp the warning time; here each violation is a typed error naming the limit.
///
/// ```swift
/// let plan = try MonitoringPlan([
///   MonitoredActivity(name: "bedtime", schedule: .daily(bedtime), warningTime: .seconds(300)),
/// ])
/// ```
///
/// JSON form: `{"activities": [MonitoredActivity, …]}`; decoding validates.
public struct MonitoringPlan: Sendable, Hashable, Codable {
  /// The activities, in the order given.
  public let activities: [MonitoredActivity]

  /// Creates a plan, checking every limit.
  ///
  /// - Parameter activities: The activities to monitor.
  /// - Throws: The first of ``violations(in:)``.
  public init(_ activities: [MonitoredActivity]) throws(UsageModelError) {
    if let first = Self.violations(in: activities).first { throw first }
    self.activities = activities
  }

  /// Every limit that `activities` violate, in order: the plan's size, then each activity's
  /// name, interval and warning time.
  ///
  /// - Parameter activities: The activities to check.
  /// - Returns: One error per violation; empty when the plan is valid.
  /// - Complexity: O(*n*) for *n* activities.
  public static func violations(in activities: [MonitoredActivity]) -> [UsageModelError] {
    var violations: [UsageModelError] = []
    if activities.count > MonitoringLimits.maximumActivities {
      violations.append(
        .tooManyActivities(count: activities.count, limit: MonitoringLimits.maximumActivities))
    }
    var names: Set<String> = []
    for activity in activities {
      if activity.name.isEmpty {
        violations.append(.emptyActivityName)
      } else if !names.insert(activity.name).inserted {
        violations.append(.duplicateActivityName(activity.name))
      }
      let length = activity.schedule.intervalLength
      if length < MonitoringLimits.minimumInterval {
        violations.append(
          .monitoringIntervalTooShort(
            activity: activity.name, length: length, minimum: MonitoringLimits.minimumInterval))
      } else if length > MonitoringLimits.maximumInterval {
        violations.append(
          .monitoringIntervalTooLong(
            activity: activity.name, length: length, maximum: MonitoringLimits.maximumInterval))
      }
      if let warning = activity.warningTime, warning < .zero || warning > length {
        violations.append(
          .warningTimeOutOfRange(activity: activity.name, warningTime: warning, limit: length))
      }
    }
    return violations
  }

  private enum CodingKeys: String, CodingKey {
    case activities
  }

  /// Decodes `{"activities": […]}` and checks every limit.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or a violated limit.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let activities = try container.decode([MonitoredActivity].self, forKey: .activities)
    do {
      try self.init(activities)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .activities, in: container, debugDescription: error.description)
    }
  }
}
