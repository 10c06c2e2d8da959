/// Whether to drain now, and why: the answer of ``DrainCoordinator/decide(_:head:cursor:)``.
public struct DrainDecision: Sendable, Hashable {
  /// Why the coordinator decided as it did.
  public enum Reason: Sendable, Hashable {
    /// Nothing has been published (or the outbox was removed): nothing to drain.
    case nothingPublished
    /// The cursor is at the head: nothing new. For a notification, a duplicate or one whose
    /// entry an earlier drain already took.
    case upToDate
    /// The cursor has never been used and the outbox holds entries.
    case neverDrained
    /// `count` numbers lie after the cursor (some may have been evicted; the drain says which).
    case pending(count: UInt64)
    /// The head belongs to another epoch: the producer started afresh, and the drain reports the
    /// reset.
    case producerRestarted
    /// The head is below the cursor within its epoch: the producer went back, and the drain
    /// realigns the cursor.
    case producerWentBack
  }

  /// What prompted the decision.
  public let trigger: DrainTrigger
  /// Why.
  public let reason: Reason

  /// Creates a decision.
  ///
  /// - Parameters:
  ///   - trigger: What prompted it.
  ///   - reason: Why.
  public init(trigger: DrainTrigger, reason: Reason) {
    self.trigger = trigger
    self.reason = reason
  }

  /// Whether the consumer should drain now.
  public var shouldDrain: Bool {
    switch reason {
    case .nothingPublished, .upToDate: return false
    case .neverDrained, .pending, .producerRestarted, .producerWentBack: return true
    }
  }
}
