import Foundation
import UsageModel

/// A monitoring plan that fits the platform's limits: the activities to monitor, the
/// resolution each app gets, the trade-offs made and what was left out, and the registrations
/// that name every live and previous generation.
///
/// Keep it in the shared folder: the app re-arms from it (``MonitoringPlanner``), the pipeline
/// takes ``monitoring`` and ``registrations`` into its configuration, and whoever receives an
/// event decodes it with ``decode(event:activity:)``.
///
/// ```swift
/// let armed = try MonitoringPlanner.arm(goals, now: now, previous: stored)
/// configuration.monitoring = armed.plan.monitoring
/// configuration.registrations = armed.plan.registrations
/// ```
///
/// JSON form: `{"timeZone": "Europe/Paris", "dayStart": "04:00", "includesPastActivity": true,
/// "counting": "fromOccurrenceStart", "activities": [PlannedActivity], "resolutionsMs":
/// {"com.burbn.instagram": 300000}, "tradeOffs": [PlanningTradeOff], "omissions":
/// [PlanningOmission], "registrations": [MonitoringRegistration], "generations": {"stk.usage.1":
/// 3}}`; decoding checks the activities against the platform's limits.
public struct PlannedMonitoring: Sendable, Hashable, Codable {
  /// The zone of the schedules' wall clock.
  public let timeZone: TimeZone
  /// When the day starts on the wall clock.
  public let dayStart: TimeOfDay
  /// Whether the events are registered with `includesPastActivity`.
  public let includesPastActivity: Bool
  /// How the platform counts a registration made inside an occurrence.
  public let counting: ThresholdCounting
  /// The activities, at most 20: usage activities first, then windows, then sessions.
  public let activities: [PlannedActivity]
  /// The activities as a checked ``/UsageModel/MonitoringPlan``, for
  /// `PipelineConfiguration.monitoring`.
  public let monitoring: MonitoringPlan
  /// Each monitored app's resolution: the largest gap between consecutive thresholds of its
  /// ladder, counting from zero.
  public let resolutions: [AppID: Duration]
  /// The compromises made to fit, in the order they were made.
  public let tradeOffs: [PlanningTradeOff]
  /// What the goals asked for that the plan leaves out.
  public let omissions: [PlanningOmission]
  /// Every registration kept: each live activity's, and every one of the last eight days, for
  /// `PipelineConfiguration.registrations`.
  public let registrations: [MonitoringRegistration]
  /// The highest generation ever given to each activity name, so that a new registration of a
  /// name never reuses one.
  public let generations: [String: UInt32]

  init(
    timeZone: TimeZone, dayStart: TimeOfDay, includesPastActivity: Bool,
    counting: ThresholdCounting, activities: [PlannedActivity], resolutions: [AppID: Duration],
    tradeOffs: [PlanningTradeOff], omissions: [PlanningOmission],
    registrations: [MonitoringRegistration], generations: [String: UInt32]
  ) throws(UsageModelError) {
    self.timeZone = timeZone
    self.dayStart = dayStart
    self.includesPastActivity = includesPastActivity
    self.counting = counting
    self.activities = activities
    self.monitoring = try MonitoringPlan(activities.map(\.activity))
    self.resolutions = resolutions
    self.tradeOffs = tradeOffs
    self.omissions = omissions
    self.registrations = registrations
    self.generations = generations
  }

  /// The live activity named `name`, if any.
  ///
  /// - Parameter name: An activity name.
  /// - Returns: The activity.
  /// - Complexity: O(*n*) for *n* activities (at most 20).
  public func activity(named name: String) -> PlannedActivity? {
    activities.first { $0.name == name }
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case timeZone, dayStart, includesPastActivity, counting, activities, resolutionsMs
    case tradeOffs, omissions, registrations, generations
  }

  /// Decodes the documented JSON form and checks its activities and registrations.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var resolutions: [AppID: Duration] = [:]
    for (raw, milliseconds) in try container.decode([String: Int64].self, forKey: .resolutionsMs) {
      guard let app = AppID(rawValue: raw) else {
        throw DecodingError.dataCorruptedError(
          forKey: .resolutionsMs, in: container, debugDescription: "invalid app ID \(raw)")
      }
      resolutions[app] = Milliseconds.duration(milliseconds)
    }
    let registrations = try container.decode(
      [MonitoringRegistration].self, forKey: .registrations)
    do {
      try MonitoringRegistration.validate(registrations)
      try self.init(
        timeZone: try container.decodeTimeZone(forKey: .timeZone),
        dayStart: try container.decode(TimeOfDay.self, forKey: .dayStart),
        includesPastActivity: try container.decode(Bool.self, forKey: .includesPastActivity),
        counting: try container.decode(ThresholdCounting.self, forKey: .counting),
        activities: try container.decode([PlannedActivity].self, forKey: .activities),
        resolutions: resolutions,
        tradeOffs: try container.decode([PlanningTradeOff].self, forKey: .tradeOffs),
        omissions: try container.decode([PlanningOmission].self, forKey: .omissions),
        registrations: registrations,
        generations: try container.decode([String: UInt32].self, forKey: .generations))
    } catch let error as UsageModelError {
      throw DecodingError.dataCorruptedError(
        forKey: .activities, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeTimeZone(timeZone, forKey: .timeZone)
    try container.encode(dayStart, forKey: .dayStart)
    try container.encode(includesPastActivity, forKey: .includesPastActivity)
    try container.encode(counting, forKey: .counting)
    try container.encode(activities, forKey: .activities)
    try container.encode(
      Dictionary(
        uniqueKeysWithValues: resolutions.map {
          ($0.key.rawValue, Milliseconds.amount($0.value) ?? 0)
        }),
      forKey: .resolutionsMs)
    try container.encode(tradeOffs, forKey: .tradeOffs)
    try container.encode(omissions, forKey: .omissions)
    try container.encode(registrations, forKey: .registrations)
    try container.encode(generations, forKey: .generations)
  }
}
