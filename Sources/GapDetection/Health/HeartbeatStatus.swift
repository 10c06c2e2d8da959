import UsageModel

/// The state of a tracker judged from its latest heartbeat.
///
/// A heartbeat from the future — the device clock was set back, or the writer's clock is ahead —
/// is ``clockSkew(ahead:)``, never a negative age. One at most the policy's tolerance ahead
/// (the app read its clock just before the extension wrote) counts as healthy with age zero.
///
/// JSON form: `{"state": "never_seen"}`, `{"state": "healthy", "ageMs": 12000}`,
/// `{"state": "stale", "ageMs": 150000}` or `{"state": "clock_skew", "aheadMs": 3600000}`.
public enum HeartbeatStatus: Sendable, Hashable, Codable {
  /// No heartbeat was ever recorded.
  case neverSeen
  /// The latest heartbeat is at most the policy's stale time old.
  case healthy(age: Duration)
  /// The latest heartbeat is older than the policy's stale time.
  case stale(age: Duration)
  /// The latest heartbeat is dated after the check by more than the tolerance.
  case clockSkew(ahead: Duration)

  /// Whether the tracker looks alive.
  public var isHealthy: Bool {
    if case .healthy = self { return true }
    return false
  }

  /// The name of the state as in the JSON form: `healthy`, `stale`, `never_seen`, `clock_skew`.
  public var name: String {
    switch self {
    case .neverSeen: return "never_seen"
    case .healthy: return "healthy"
    case .stale: return "stale"
    case .clockSkew: return "clock_skew"
    }
  }

  private enum CodingKeys: String, CodingKey {
    case state
    case ageMs
    case aheadMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for an unknown state or a missing or negative amount.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let state = try container.decode(String.self, forKey: .state)
    switch state {
    case "never_seen": self = .neverSeen
    case "healthy": self = .healthy(age: try container.decodeMilliseconds(forKey: .ageMs))
    case "stale": self = .stale(age: try container.decodeMilliseconds(forKey: .ageMs))
    case "clock_skew": self = .clockSkew(ahead: try container.decodeMilliseconds(forKey: .aheadMs))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .state, in: container,
        debugDescription: "unknown state \(state.debugDescription); "
          + "expected never_seen, healthy, stale or clock_skew")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .state)
    switch self {
    case .neverSeen: break
    case .healthy(let age), .stale(let age): try container.encodeMilliseconds(age, forKey: .ageMs)
    case .clockSkew(let ahead): try container.encodeMilliseconds(ahead, forKey: .aheadMs)
    }
  }
}
