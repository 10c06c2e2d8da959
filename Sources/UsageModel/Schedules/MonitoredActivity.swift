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
