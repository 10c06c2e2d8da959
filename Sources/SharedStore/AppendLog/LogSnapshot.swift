/// What a store holds in an append-only log, as one read saw it.
///
/// A log keeps the newest ``capacity`` records; older ones are evicted and counted in
/// ``evictedCount``. A snapshot carries the log's counts in full but only the records that were
/// asked for — the newest few, or all of them (see ``SharedStore/readLog(_:newest:)``).
public struct LogSnapshot: Sendable, Hashable {
  /// A random number drawn when the log was created and kept for as long as it exists.
  ///
  /// Compaction keeps it; removing the key and appending again draws a new one. Positions are
  /// unique within one identity, so a reader that remembers a position also remembers the
  /// identity it belongs to.
  public let identity: UInt64
  /// The most records the log keeps: the capacity of the last append that set it.
  public let capacity: Int
  /// How many records the log holds, at most ``capacity``.
  public let count: Int
  /// How many records were evicted to respect the capacity since the log was created.
  ///
  /// Records removed on purpose by ``SharedStore/compactLog(_:keeping:)`` are not counted.
  public let evictedCount: UInt64
  /// The position the next appended record will take.
  public let nextPosition: UInt64
  /// The newest records that were asked for, oldest first: at most ``count`` of them.
  public let records: [LogRecord]

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - identity: The log's identity.
  ///   - capacity: The most records the log keeps.
  ///   - count: How many records it holds.
  ///   - evictedCount: How many were evicted.
  ///   - nextPosition: The position the next record takes.
  ///   - records: The newest records asked for, oldest first.
  public init(
    identity: UInt64, capacity: Int, count: Int, evictedCount: UInt64, nextPosition: UInt64,
    records: [LogRecord]
  ) {
    self.identity = identity
    self.capacity = capacity
    self.count = count
    self.evictedCount = evictedCount
    self.nextPosition = nextPosition
    self.records = records
  }
}
