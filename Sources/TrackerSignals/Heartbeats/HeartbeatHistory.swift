import SignalValues

/// What a ``HeartbeatRecorder`` holds: the recent heartbeats of one source and how many it let go.
///
/// JSON form: `{"source": "monitor", "capacity": 2880, "evictedCount": 12, "heartbeats":
/// [Heartbeat, …]}`, heartbeats oldest first.
public struct HeartbeatHistory: Sendable, Hashable, Codable {
  /// Whose heartbeats these are.
  public let source: HeartbeatSource
  /// The most heartbeats kept.
  public let capacity: Int
  /// How many older heartbeats were evicted to respect the capacity.
  public let evictedCount: UInt64
  /// The kept heartbeats in the order they were recorded, oldest first.
  ///
  /// A heartbeat dated before its predecessor (the device clock was set back) stays where it
  /// arrived; `GapDetector` sorts what it is given.
  public let heartbeats: [Heartbeat]

  /// Creates a history.
  ///
  /// - Parameters:
  ///   - source: Whose heartbeats these are.
  ///   - capacity: The most heartbeats kept.
  ///   - evictedCount: How many were evicted.
  ///   - heartbeats: The kept heartbeats, oldest first.
  public init(
    source: HeartbeatSource, capacity: Int, evictedCount: UInt64, heartbeats: [Heartbeat]
  ) {
    self.source = source
    self.capacity = capacity
    self.evictedCount = evictedCount
    self.heartbeats = heartbeats
  }

  /// The most recently recorded heartbeat.
  public var latest: Heartbeat? { heartbeats.last }
}
