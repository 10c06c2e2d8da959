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
