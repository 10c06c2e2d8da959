import Foundation
import UsageModel

/// Something the goals asked for that the plan leaves out, and why.
///
/// JSON form: `{"kind": "sessionEnded", "name": "reward-1", "end": "2026-01-02T11:00:00Z"}` or
/// `{"kind": "thresholdsBeyondInterval", "app": "…", "thresholdsMs": […], "intervalMs":
/// 86340000}`.
public enum PlanningOmission: Sendable, Hashable, Codable, CustomStringConvertible {
  /// An earned-time session ended at or before the planning instant: nothing is left to
  /// monitor.
  case sessionEnded(name: String, end: Date)
  /// Thresholds of an app that lie beyond the day's monitoring interval (its nominal length),
  /// which the platform could never reach.
  case thresholdsBeyondInterval(app: AppID, thresholds: [Duration], intervalLength: Duration)

  /// A sentence for a log or a settings screen.
  public var description: String {
    switch self {
    case .sessionEnded(let name, let end):
      return "session \(name) ended at \(end)"
    case .thresholdsBeyondInterval(let app, let thresholds, let length):
      return "\(app.rawValue): \(thresholds.count) thresholds beyond the \(length) interval"
    }
  }

  private enum CodingKeys: String, CodingKey {
    case kind, name, end, app, thresholdsMs, intervalMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for an unknown kind or a missing field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "sessionEnded":
      self = .sessionEnded(
        name: try container.decode(String.self, forKey: .name),
        end: Milliseconds.date(try container.decodeInstant(forKey: .end)))
    case "thresholdsBeyondInterval":
      let milliseconds = try container.decode([Int64].self, forKey: .thresholdsMs)
      self = .thresholdsBeyondInterval(
        app: try container.decode(AppID.self, forKey: .app),
        thresholds: milliseconds.map(Milliseconds.duration),
        intervalLength: try container.decodeMilliseconds(forKey: .intervalMs))
    case let kind:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container, debugDescription: "unknown omission \(kind)")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .sessionEnded(let name, let end):
      try container.encode("sessionEnded", forKey: .kind)
      try container.encode(name, forKey: .name)
      try container.encodeInstant(Milliseconds.clampedInstant(end), forKey: .end)
    case .thresholdsBeyondInterval(let app, let thresholds, let length):
      try container.encode("thresholdsBeyondInterval", forKey: .kind)
      try container.encode(app, forKey: .app)
      try container.encode(thresholds.map { Milliseconds.amount($0) ?? 0 }, forKey: .thresholdsMs)
      try container.encodeMilliseconds(length, forKey: .intervalMs)
    }
  }
}
