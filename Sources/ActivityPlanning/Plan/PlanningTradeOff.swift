import Foundation
import UsageModel

/// A compromise the planner made to fit the goals into the platform's limits, by the rule
/// ``MonitoringPlanner`` documents.
///
/// JSON form: `{"kind": "coarsenedLadder", "app": "…", "requestedMs": 300000, "grantedMs":
/// 600000}`, `{"kind": "mergedWindows", "goals": ["a", "b"], "activity": "stk.window.a"}` or
/// `{"kind": "movedApp", "app": "…", "from": "stk.usage.1", "to": "stk.usage.2"}`.
public enum PlanningTradeOff: Sendable, Hashable, Codable, CustomStringConvertible {
  /// An app's ladder steps more coarsely than asked, so that every app's events fit.
  case coarsenedLadder(app: AppID, requested: Duration, granted: Duration)
  /// Windows with the same daily window and kind share one activity, so that the activities
  /// fit in 20; their weekdays are united in it.
  case mergedWindows(goals: [String], activity: String)
  /// An app's events moved to another usage activity than the previous plan's, so that they
  /// fit; its use in the current interval may then be counted in both (see the article
  /// *Planning what to monitor*).
  case movedApp(app: AppID, from: String, to: String)

  /// A sentence for a log or a settings screen.
  public var description: String {
    switch self {
    case .coarsenedLadder(let app, let requested, let granted):
      return "\(app.rawValue): steps of \(granted) instead of \(requested)"
    case .mergedWindows(let goals, let activity):
      return "windows \(goals.joined(separator: ", ")) share \(activity)"
    case .movedApp(let app, let from, let to):
      return "\(app.rawValue) moved from \(from) to \(to)"
    }
  }

  private enum CodingKeys: String, CodingKey {
    case kind, app, requestedMs, grantedMs, goals, activity, from, to
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for an unknown kind or a missing field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "coarsenedLadder":
      self = .coarsenedLadder(
        app: try container.decode(AppID.self, forKey: .app),
        requested: try container.decodeMilliseconds(forKey: .requestedMs),
        granted: try container.decodeMilliseconds(forKey: .grantedMs))
    case "mergedWindows":
      self = .mergedWindows(
        goals: try container.decode([String].self, forKey: .goals),
        activity: try container.decode(String.self, forKey: .activity))
    case "movedApp":
      self = .movedApp(
        app: try container.decode(AppID.self, forKey: .app),
        from: try container.decode(String.self, forKey: .from),
        to: try container.decode(String.self, forKey: .to))
    case let kind:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container, debugDescription: "unknown trade-off \(kind)")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .coarsenedLadder(let app, let requested, let granted):
      try container.encode("coarsenedLadder", forKey: .kind)
      try container.encode(app, forKey: .app)
      try container.encodeMilliseconds(requested, forKey: .requestedMs)
      try container.encodeMilliseconds(granted, forKey: .grantedMs)
    case .mergedWindows(let goals, let activity):
      try container.encode("mergedWindows", forKey: .kind)
      try container.encode(goals, forKey: .goals)
      try container.encode(activity, forKey: .activity)
    case .movedApp(let app, let from, let to):
      try container.encode("movedApp", forKey: .kind)
      try container.encode(app, forKey: .app)
      try container.encode(from, forKey: .from)
      try container.encode(to, forKey: .to)
    }
  }
}
