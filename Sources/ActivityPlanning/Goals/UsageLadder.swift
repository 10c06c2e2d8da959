import Foundation
import UsageModel

/// What the app wants to know about one app or one category: its use, in steps of a resolution
/// up to a top, such as every 5 minutes up to 4 hours.
///
/// A category ladder is a ladder for each of its apps, because a threshold event over several
/// apps cannot say which app used the time. The planner gives each app the thresholds `step`,
/// `2 × step`, … up to `top`, plus `top` itself, and may make the step coarser to fit the
/// platform's limits (see ``MonitoringPlanner``).
///
/// ```swift
/// let ladder = try UsageLadder(
///   target: .app(AppID("com.burbn.instagram")), step: .seconds(300), top: .seconds(4 * 3600))
/// ```
///
/// JSON form: `{"target": {"app": "com.burbn.instagram"}, "stepMs": 300000, "topMs": 14400000}`
/// or `{"target": {"category": "social_media", "apps": […]}, …}`.
public struct UsageLadder: Sendable, Hashable, Codable {
  /// Whose use the ladder counts.
  public enum Target: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One app.
    case app(AppID)
    /// The listed apps of a category, each counted on its own.
    case category(AppCategory, apps: [AppID])

    /// The apps counted, in order.
    public var apps: [AppID] {
      switch self {
      case .app(let app): return [app]
      case .category(_, let apps): return apps
      }
    }

    /// `app <id>` or `category <raw value>`.
    public var description: String {
      switch self {
      case .app(let app): return "app \(app.rawValue)"
      case .category(let category, _): return "category \(category.rawValue)"
      }
    }

    private enum CodingKeys: String, CodingKey {
      case app, category, apps
    }

    /// Decodes `{"app": …}` or `{"category": …, "apps": […]}`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when neither key is present or a value is invalid.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      if let app = try container.decodeIfPresent(AppID.self, forKey: .app) {
        self = .app(app)
      } else {
        self = .category(
          try container.decode(AppCategory.self, forKey: .category),
          apps: try container.decode([AppID].self, forKey: .apps))
      }
    }

    /// Encodes `{"app": …}` or `{"category": …, "apps": […]}`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      switch self {
      case .app(let app): try container.encode(app, forKey: .app)
      case .category(let category, let apps):
        try container.encode(category, forKey: .category)
        try container.encode(apps, forKey: .apps)
      }
    }
  }

  /// Whose use is counted.
  public let target: Target
  /// The resolution asked for: the gap between consecutive thresholds.
  public let step: Duration
  /// The highest threshold.
  public let top: Duration

  /// Creates a ladder.
  ///
  /// - Parameters:
  ///   - target: An app, or a category's apps.
  ///   - step: The resolution: a whole number of seconds, at least one minute.
  ///   - top: The highest threshold: a whole number of seconds, at least `step`; thresholds
  ///     beyond the day's monitoring interval are left out and reported.
  /// - Throws: ``PlanningError/noApps(goal:)`` for a category without apps,
  ///   ``PlanningError/resolutionTooFine(goal:step:minimum:)`` for a step under a minute,
  ///   ``PlanningError/invalidGoal(goal:field:value:requirement:)`` for a step or top that is
  ///   not whole seconds, or a top under the step or over a week.
  public init(target: Target, step: Duration, top: Duration) throws(PlanningError) {
    let goal = target.description
    guard !target.apps.isEmpty else { throw .noApps(goal: goal) }
    guard step >= MonitoringPlanner.finestResolution else {
      throw .resolutionTooFine(goal: goal, step: step, minimum: MonitoringPlanner.finestResolution)
    }
    guard step.components.attoseconds == 0 else {
      throw .invalidGoal(
        goal: goal, field: "step", value: "\(step)", requirement: "a whole number of seconds")
    }
    guard top >= step, top <= MonitoringLimits.maximumInterval, top.components.attoseconds == 0
    else {
      throw .invalidGoal(
        goal: goal, field: "top", value: "\(top)",
        requirement: "a whole number of seconds from the step to one week")
    }
    self.target = target
    self.step = step
    self.top = top
  }

  private enum CodingKeys: String, CodingKey {
    case target, stepMs, topMs
  }

  /// Decodes the documented JSON form and checks it as ``init(target:step:top:)`` does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let target = try container.decode(Target.self, forKey: .target)
    let step = try container.decodeMilliseconds(forKey: .stepMs)
    let top = try container.decodeMilliseconds(forKey: .topMs)
    do {
      try self.init(target: target, step: step, top: top)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .stepMs, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(target, forKey: .target)
    try container.encodeMilliseconds(step, forKey: .stepMs)
    try container.encodeMilliseconds(top, forKey: .topMs)
  }
}
