import Foundation
import SignalValues
import UsageModel

/// The health of a tracker at one instant: its status, its latest heartbeat and its memory level.
///
/// Made by ``HealthPolicy/health(of:at:)``.
///
/// JSON form: `{"checkedAt": "2026-03-08T10:30:00Z", "status": HeartbeatStatus, "latest":
/// Heartbeat, "memoryLevel": "normal", "silenceIsGap": false}`; `latest` and `memoryLevel` are
/// omitted when absent.
public struct HeartbeatHealth: Sendable, Hashable, Codable {
  /// When the check was made.
  public let checkedAt: Date
  /// The tracker's state.
  public let status: HeartbeatStatus
  /// The heartbeat the status was judged from, if any.
  public let latest: Heartbeat?
  /// The level of the latest heartbeat's memory figure, when it carried one.
  public let memoryLevel: MemoryLevel?
  /// Whether the silence since the latest heartbeat is long enough to count as a gap (longer
  /// than ``HealthPolicy/gapAfter``); always `true` when no heartbeat was ever seen.
  public let silenceIsGap: Bool

  /// Creates a health value.
  ///
  /// - Parameters:
  ///   - checkedAt: When the check was made; rounded to the millisecond.
  ///   - status: The tracker's state.
  ///   - latest: The heartbeat it was judged from.
  ///   - memoryLevel: The level of its memory figure.
  ///   - silenceIsGap: Whether the silence since counts as a gap.
  public init(
    checkedAt: Date, status: HeartbeatStatus, latest: Heartbeat?, memoryLevel: MemoryLevel?,
    silenceIsGap: Bool
  ) {
    self.checkedAt = Milliseconds.date(TimeValues.clampedInstant(checkedAt))
    self.status = status
    self.latest = latest
    self.memoryLevel = memoryLevel
    self.silenceIsGap = silenceIsGap
  }

  /// Whether the tracker looks alive.
  public var isHealthy: Bool { status.isHealthy }

  private enum CodingKeys: String, CodingKey {
    case checkedAt
    case status
    case latest
    case memoryLevel
    case silenceIsGap
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      checkedAt: Milliseconds.date(try container.decodeInstant(forKey: .checkedAt)),
      status: try container.decode(HeartbeatStatus.self, forKey: .status),
      latest: try container.decodeIfPresent(Heartbeat.self, forKey: .latest),
      memoryLevel: try container.decodeIfPresent(MemoryLevel.self, forKey: .memoryLevel),
      silenceIsGap: try container.decode(Bool.self, forKey: .silenceIsGap))
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(TimeValues.clampedInstant(checkedAt), forKey: .checkedAt)
    try container.encode(status, forKey: .status)
    try container.encodeIfPresent(latest, forKey: .latest)
    try container.encodeIfPresent(memoryLevel, forKey: .memoryLevel)
    try container.encode(silenceIsGap, forKey: .silenceIsGap)
  }
}
