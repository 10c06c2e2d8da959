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
  /// arrived; ``/GapDetection/GapDetector`` sorts what it is given.
  public let heartbeats: [Heartbeat]
  /// Where the log stood when this history was read; `nil` for a history made otherwise.
  ///
  /// ``HeartbeatRecorder/history(updating:)`` reads only what came after it. Not part of the JSON
  /// form, equality or hash.
  private(set) var position: LogPosition? = nil

  /// The history without its first `count` heartbeats, read at the same position.
  package func droppingFirst(_ count: Int) -> HeartbeatHistory {
    var copy = HeartbeatHistory(
      source: source, capacity: capacity, evictedCount: evictedCount,
      heartbeats: Array(heartbeats.dropFirst(count)))
    copy.position = position
    return copy
  }

  /// Whether it holds every heartbeat its log kept when read, rather than the newest of them
  /// (`HeartbeatRecorder.history(since:)`); `true` for a history not read from a log.
  package var holdsAllKept: Bool { position.map { heartbeats.count >= $0.count } ?? true }

  /// A log's identity and the position its next record takes.
  struct LogPosition: Sendable {
    var identity: UInt64
    var next: UInt64
    /// How many records the log held: a compaction removes some and keeps the others' positions.
    var count: Int
  }

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

  /// A history read at `position`.
  init(
    source: HeartbeatSource, capacity: Int, evictedCount: UInt64, heartbeats: [Heartbeat],
    position: LogPosition
  ) {
    self.source = source
    self.capacity = capacity
    self.evictedCount = evictedCount
    self.heartbeats = heartbeats
    self.position = position
  }

  /// The most recently recorded heartbeat.
  public var latest: Heartbeat? { heartbeats.last }

  private enum CodingKeys: String, CodingKey {
    case source, capacity, evictedCount, heartbeats
  }

  /// Whether two histories hold the same heartbeats, source, capacity and evicted count.
  public static func == (lhs: HeartbeatHistory, rhs: HeartbeatHistory) -> Bool {
    (lhs.source, lhs.capacity, lhs.evictedCount) == (rhs.source, rhs.capacity, rhs.evictedCount)
      && lhs.heartbeats == rhs.heartbeats
  }

  /// Hashes what ``==(_:_:)`` compares.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(source)
    hasher.combine(capacity)
    hasher.combine(evictedCount)
    hasher.combine(heartbeats)
  }
}
