/// What one append to a log did.
public struct LogAppend: Sendable, Hashable {
  /// The log's identity (see ``LogSnapshot/identity``).
  public let identity: UInt64
  /// The positions the appended records took, in order.
  public let positions: ClosedRange<UInt64>
  /// How many records this append evicted: the oldest ones it pushed past the capacity, and
  /// more when it shrank the capacity.
  public let evictedCount: Int

  /// Creates a description of an append.
  ///
  /// - Parameters:
  ///   - identity: The log's identity.
  ///   - positions: The positions taken.
  ///   - evictedCount: How many records were evicted.
  public init(identity: UInt64, positions: ClosedRange<UInt64>, evictedCount: Int) {
    self.identity = identity
    self.positions = positions
    self.evictedCount = evictedCount
  }
}
