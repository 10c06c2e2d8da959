import BudgetMath
import Foundation
import GapDetection
import UsageModel

/// What the app side of the pipeline needs to know to derive a dashboard from the extension's
/// facts: who the user is, how apps are categorised, what is monitored, the budgets, the rewards
/// and the health thresholds.
///
/// Everything here is a setting of the app, not a fact: change it and the next dashboard is
/// derived afresh from the same facts.
///
/// ```swift
/// var configuration = PipelineConfiguration(userId: "user-123", timeZone: zone)
/// configuration.rules = CategoryRules([.exact(try AppID("com.netflix.Netflix"), .entertainment)])
/// configuration.monitoring = try MonitoringPlan([MonitoredActivity(name: "daily", schedule: .daily(allDay))])
/// configuration.plans = [marchPlan]
/// ```
///
/// JSON form: `{"userId": …, "timeZone": "Europe/Paris", "dayStart": "00:00", "alertThresholds":
/// [50, 80, 100], "restrictionBound": "upper", "rewardBound": "lower", "rules": CategoryRules,
/// "monitoring":
/// MonitoringPlan, "plans": [MonthlyPlan], "rewards": UsageRewards, "exchangeRate":
/// ExchangeRate, "health": HealthPolicy, "expectation": TrackingExpectation,
/// "includesPastActivity": false, "registrations": [MonitoringRegistration],
/// "thresholdToleranceMs": 0, "retentionDays": 40, "appNames": {"com.example.app": "Example"}}`;
/// `monitoring` and `rewards` are omitted when absent, `registrations` when empty, and a missing
/// `registrations` decodes as none.
public struct PipelineConfiguration: Sendable, Hashable, Codable {
  /// The most days of facts the pipeline keeps by default: 40, enough for a month's budget
  /// and its pace whatever day of the month it is.
  public static let defaultRetentionDays = 40

  /// The user identifier put in the sync payload.
  public var userId: String
  /// The zone of the local days, of the monitoring schedules' wall clock and of the threshold
  /// accountant's past-activity allowance: the one zone everything the pipeline derives is read
  /// in.
  public var timeZone: TimeZone
  /// When a local day starts on the wall clock: midnight unless the app's day starts later (a
  /// day that starts at 04:00 counts the night's use to the evening before).
  public var dayStart: TimeOfDay
  /// The budget thresholds, in percent of an allowance, at which an alert is raised: 50, 80
  /// and 100 unless you choose otherwise; each 1...1000.
  public var alertThresholds: [Int]
  /// Which bound of the evidence budgets, their alerts and pace follow: the upper bound unless
  /// you choose otherwise, so that no limit lifts on doubtful evidence
  /// (``/UsageModel/UsageBound``).
  public var restrictionBound: UsageBound
  /// Which bound of the evidence earns rewards: the lower bound unless you choose otherwise, so
  /// that no phantom minute earns XP (``/UsageModel/UsageBound``).
  public var rewardBound: UsageBound
  /// How apps are filed under categories.
  public var rules: CategoryRules
  /// The activities the app monitors, by the names the extension reports.
  ///
  /// When an activity is listed, a threshold event belongs to the occurrence of its schedule that contains it (from
  /// the last `intervalDidStart` inside that occurrence, when monitoring was restarted in it);
  /// otherwise to the activity's last `intervalDidStart` before it.
  public var monitoring: MonitoringPlan?
  /// The monthly budget plans; a dashboard uses the one of its day's month, from its start
  /// day on (``plan(for:)``).
  public var plans: [MonthlyPlan]
  /// How usage earns XP in the reward ledger; no earnings when `nil`.
  public var rewards: UsageRewards?
  /// The exchange rate a new reward ledger is created with.
  ///
  /// An existing ledger keeps its rate in its log, so changing this re-prices nothing already
  /// redeemed: it applies to a ledger created later — after a damaged ledger is rebuilt, say.
  /// ``UsagePipeline/ledger()``'s `rate` is the ledger's.
  public var exchangeRate: ExchangeRate
  /// The health thresholds: staleness, gaps and the tracker-down alert.
  public var health: HealthPolicy
  /// When tracking was expected, for the gap report.
  public var expectation: TrackingExpectation
  /// Whether the app registers its threshold events with `includesPastActivity`: the setting
  /// for events whose registration is not in ``registrations``.
  public var includesPastActivity: Bool
  /// Every `startMonitoring` the app made that its event names carry a generation of: record
  /// each one here when you make it.
  ///
  /// With them, an event named `stk:g<N>:…` is counted by its registration's rules: a replay
  /// of an older generation counts nothing, an unknown generation is rejected, and each
  /// registration's `MonitoringRegistration.counting` and past-activity setting decide its
  /// interval and plausibility (see `IntervalAttribution.attribute(_:of:receivedAt:timeZone:)`).
  /// Per activity, no two may share a generation, and generations must increase with
  /// `registeredAt`. Empty by default: every event is counted as without generations.
  public var registrations: [MonitoringRegistration]
  /// Extra time allowed before a threshold event is implausible, for clock skew.
  public var thresholdTolerance: Duration
  /// How many days of facts, losses and reported alerts the pipeline keeps, counted back from
  /// the `now` of each drain; at least 32.
  ///
  /// A retention longer than the supported instants (0001...9999) keeps everything.
  public var retentionDays: Int
  /// Names to show and to sync for apps; an app not listed is shown by its identifier.
  public var appNames: [AppID: String]

  /// Creates a configuration with the library's defaults: days from midnight, alerts at 50, 80
  /// and 100 %, restrictions on the upper bound of use and rewards on the lower, no rules (every app is `other`), no monitoring plan, no budgets, no rewards,
  /// 10 XP = 1 minute, `HealthPolicy.standard`, tracking expected from the first heartbeat on,
  /// 40 days of retention.
  ///
  /// - Parameters:
  ///   - userId: The user identifier for the sync payload.
  ///   - timeZone: The zone of the local days and the schedules' wall clock.
  public init(userId: String, timeZone: TimeZone) {
    self.userId = userId
    self.timeZone = timeZone
    dayStart = .midnight
    alertThresholds = BudgetAlertState.defaultThresholds
    restrictionBound = .upper
    rewardBound = .lower
    rules = CategoryRules()
    monitoring = nil
    plans = []
    rewards = nil
    exchangeRate = .tenXPPerMinute
    health = .standard
    expectation = .sinceFirstHeartbeat
    includesPastActivity = false
    registrations = []
    thresholdTolerance = .zero
    retentionDays = Self.defaultRetentionDays
    appNames = [:]
  }

  /// Where the local days begin: ``timeZone`` and ``dayStart``.
  public var boundary: DayBoundary {
    DayBoundary(timeZone: timeZone, dayStart: dayStart)
  }

  /// The plan that applies on `day`, if there is one: the plan of its month, from the plan's
  /// start day on.
  ///
  /// - Parameter day: A local day.
  /// - Returns: The plan whose month contains it and which has started by then.
  public func plan(for day: LocalDay) -> MonthlyPlan? {
    plans.first { $0.month.days.contains(day) && $0.startDay <= day }
  }

  /// The name to show for `app`.
  ///
  /// - Parameter app: An app.
  /// - Returns: Its configured name, or its identifier.
  public func name(of app: AppID) -> String {
    appNames[app] ?? app.rawValue
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case userId, timeZone, dayStart, alertThresholds, restrictionBound, rewardBound, rules,
      monitoring, plans, rewards,
      exchangeRate, health, expectation
    case includesPastActivity, registrations, thresholdToleranceMs, retentionDays, appNames
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing or invalid field, also when two registrations
  ///   of an activity conflict.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    userId = try container.decode(String.self, forKey: .userId)
    timeZone = try container.decodeTimeZone(forKey: .timeZone)
    dayStart = try container.decodeIfPresent(TimeOfDay.self, forKey: .dayStart) ?? .midnight
    alertThresholds =
      try container.decodeIfPresent([Int].self, forKey: .alertThresholds)
      ?? BudgetAlertState.defaultThresholds
    do {
      _ = try BudgetAlertState(thresholds: alertThresholds)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .alertThresholds, in: container, debugDescription: error.description)
    }
    restrictionBound =
      try container.decodeIfPresent(UsageBound.self, forKey: .restrictionBound) ?? .upper
    rewardBound = try container.decodeIfPresent(UsageBound.self, forKey: .rewardBound) ?? .lower
    rules = try container.decode(CategoryRules.self, forKey: .rules)
    monitoring = try container.decodeIfPresent(MonitoringPlan.self, forKey: .monitoring)
    plans = try container.decode([MonthlyPlan].self, forKey: .plans)
    rewards = try container.decodeIfPresent(UsageRewards.self, forKey: .rewards)
    exchangeRate = try container.decode(ExchangeRate.self, forKey: .exchangeRate)
    health = try container.decode(HealthPolicy.self, forKey: .health)
    expectation = try container.decode(TrackingExpectation.self, forKey: .expectation)
    includesPastActivity = try container.decode(Bool.self, forKey: .includesPastActivity)
    registrations =
      try container.decodeIfPresent([MonitoringRegistration].self, forKey: .registrations) ?? []
    do {
      try MonitoringRegistration.validate(registrations)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .registrations, in: container, debugDescription: error.description)
    }
    thresholdTolerance = try container.decodeMilliseconds(forKey: .thresholdToleranceMs)
    retentionDays = try container.decode(Int.self, forKey: .retentionDays)
    guard retentionDays >= 32 else {
      throw DecodingError.dataCorruptedError(
        forKey: .retentionDays, in: container, debugDescription: "at least 32 days")
    }
    var names: [AppID: String] = [:]
    for (raw, name) in try container.decode([String: String].self, forKey: .appNames) {
      guard let app = AppID(rawValue: raw) else {
        throw DecodingError.dataCorruptedError(
          forKey: .appNames, in: container, debugDescription: "invalid app ID \(raw)")
      }
      names[app] = name
    }
    appNames = names
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(userId, forKey: .userId)
    try container.encodeTimeZone(timeZone, forKey: .timeZone)
    try container.encode(dayStart, forKey: .dayStart)
    try container.encode(alertThresholds, forKey: .alertThresholds)
    try container.encode(restrictionBound, forKey: .restrictionBound)
    try container.encode(rewardBound, forKey: .rewardBound)
    try container.encode(rules, forKey: .rules)
    try container.encodeIfPresent(monitoring, forKey: .monitoring)
    try container.encode(plans, forKey: .plans)
    try container.encodeIfPresent(rewards, forKey: .rewards)
    try container.encode(exchangeRate, forKey: .exchangeRate)
    try container.encode(health, forKey: .health)
    try container.encode(expectation, forKey: .expectation)
    try container.encode(includesPastActivity, forKey: .includesPastActivity)
    if !registrations.isEmpty { try container.encode(registrations, forKey: .registrations) }
    try container.encodeMilliseconds(thresholdTolerance, forKey: .thresholdToleranceMs)
    try container.encode(retentionDays, forKey: .retentionDays)
    try container.encode(
      Dictionary(uniqueKeysWithValues: appNames.map { ($0.key.rawValue, $0.value) }),
      forKey: .appNames)
  }
}
