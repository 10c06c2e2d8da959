import Foundation
import UsageModel

/// What the app wants to observe and enforce, the input of ``MonitoringPlanner``.
///
/// ```swift
/// var goals = MonitoringGoals(timeZone: zone, dayStart: try TimeOfDay(hour: 4))
/// goals.ladders = [
///   try UsageLadder(target: .app(instagram), step: .seconds(300), top: .seconds(4 * 3600))
/// ]
/// goals.windows = [bedtime]
/// let armed = try MonitoringPlanner.arm(goals, now: now, previous: nil)
/// ```
///
/// JSON form: `{"timeZone": "Europe/Paris", "dayStart": "04:00", "includesPastActivity": true,
/// "counting": "fromOccurrenceStart", "ladders": [UsageLadder], "budgets": [BudgetGoal],
/// "sessions": [EarnedTimeSession], "windows": [ScheduledWindow], "maximumEventsPerActivity":
/// 100}`, the limit omitted when there is none and each list when empty.
public struct MonitoringGoals: Sendable, Hashable, Codable {
  /// The zone of the wall clock the schedules are written in.
  public var timeZone: TimeZone
  /// When the day starts on the wall clock; the usage activities run from it to one minute
  /// before it, so a day that starts at 04:00 is monitored 04:00–03:59.
  public var dayStart: TimeOfDay
  /// Whether the events are registered with `includesPastActivity`, so that the use since the
  /// start of the interval's hour counts.
  public var includesPastActivity: Bool
  /// How the platform counts a registration made inside an occurrence; recorded in each
  /// ``/UsageModel/MonitoringRegistration``.
  public var counting: ThresholdCounting
  /// What to observe: one ladder per app or category, each app in at most one ladder.
  public var ladders: [UsageLadder]
  /// The budgets to enforce.
  public var budgets: [BudgetGoal]
  /// The earned-time sessions.
  public var sessions: [EarnedTimeSession]
  /// The block and focus schedules.
  public var windows: [ScheduledWindow]
  /// The most events one activity may register, for integrators who know one; `nil` for no
  /// limit (the platform documents none).
  public var maximumEventsPerActivity: Int?

  /// Creates goals with nothing to monitor yet.
  ///
  /// - Parameters:
  ///   - timeZone: The zone of the wall clock.
  ///   - dayStart: When the day starts; midnight unless you say.
  ///   - includesPastActivity: Whether events count past activity; `false` unless you say.
  ///   - counting: How the platform counts a registration inside an occurrence;
  ///     `ThresholdCounting.fromOccurrenceStart` unless you say.
  public init(
    timeZone: TimeZone, dayStart: TimeOfDay = .midnight, includesPastActivity: Bool = false,
    counting: ThresholdCounting = .fromOccurrenceStart
  ) {
    self.timeZone = timeZone
    self.dayStart = dayStart
    self.includesPastActivity = includesPastActivity
    self.counting = counting
    ladders = []
    budgets = []
    sessions = []
    windows = []
    maximumEventsPerActivity = nil
  }

  private enum CodingKeys: String, CodingKey {
    case timeZone, dayStart, includesPastActivity, counting, ladders, budgets, sessions, windows
    case maximumEventsPerActivity
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    timeZone = try container.decodeTimeZone(forKey: .timeZone)
    dayStart = try container.decode(TimeOfDay.self, forKey: .dayStart)
    includesPastActivity = try container.decode(Bool.self, forKey: .includesPastActivity)
    counting = try container.decode(ThresholdCounting.self, forKey: .counting)
    ladders = try container.decodeIfPresent([UsageLadder].self, forKey: .ladders) ?? []
    budgets = try container.decodeIfPresent([BudgetGoal].self, forKey: .budgets) ?? []
    sessions = try container.decodeIfPresent([EarnedTimeSession].self, forKey: .sessions) ?? []
    windows = try container.decodeIfPresent([ScheduledWindow].self, forKey: .windows) ?? []
    maximumEventsPerActivity = try container.decodeIfPresent(
      Int.self, forKey: .maximumEventsPerActivity)
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
    if !ladders.isEmpty { try container.encode(ladders, forKey: .ladders) }
    if !budgets.isEmpty { try container.encode(budgets, forKey: .budgets) }
    if !sessions.isEmpty { try container.encode(sessions, forKey: .sessions) }
    if !windows.isEmpty { try container.encode(windows, forKey: .windows) }
    try container.encodeIfPresent(maximumEventsPerActivity, forKey: .maximumEventsPerActivity)
  }
}
