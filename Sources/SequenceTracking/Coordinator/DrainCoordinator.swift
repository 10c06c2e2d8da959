import SignalValues

/// A notification-plus-polling hybrid as a pure decision: given what woke the consumer and where
/// the outbox's head and the consumer's cursor are, drain or not.
///
/// Darwin notifications are fast but may be dropped or coalesced, so an app observes them *and*
/// polls every ``recommendedPollInterval``, and drains on foreground. Each of those calls
/// ``decide(_:head:cursor:)``; the coordinator owns no timer and reads no clock. The decision
/// depends on the head and the cursor only — a drain is needed exactly when there is something
/// after the cursor — and the trigger is recorded, so that ``statistics`` shows how often the
/// poll caught what notifications missed. (An outbox rolled back and rewritten exactly up to the
/// cursor looks up to date; the drain after the next publish reports it as
/// ``SequenceResetReason/rewritten(at:)``.)
///
/// ```swift
/// var coordinator = DrainCoordinator()
/// var lastHead: OutboxHead?
///
/// func wake(_ trigger: DrainTrigger) throws {
///   lastHead = try outbox.head(reusing: lastHead)      // cheap when nothing changed
///   let decision = coordinator.decide(trigger, head: lastHead?.number, cursor: cursor)
///   guard decision.shouldDrain else { return }
///   let batch = try consumer.drain { state, entry in state.apply(entry.payload) }
///   cursor = batch.cursor
/// }
/// ```
///
/// JSON form: `{"statistics":{…}}` (see ``DrainStatistics``).
public struct DrainCoordinator: Hashable, Sendable, Codable {
  /// The recommended poll interval: 30 seconds, a dropped notification's longest delay.
  public static let recommendedPollInterval: Duration = .seconds(30)

  /// What the coordinator has been asked and decided so far.
  public private(set) var statistics = DrainStatistics()

  /// Creates a coordinator with empty statistics.
  public init() {}

  /// Decides whether to drain, and records the decision in ``statistics``.
  ///
  /// - Parameters:
  ///   - trigger: What woke the consumer.
  ///   - head: The outbox's newest number (``OutboxHead/number``, or
  ///     ``SequenceCounter/current()`` for a counter), or `nil` when nothing is published.
  ///   - cursor: The consumer's cursor.
  /// - Returns: The decision and its reason.
  public mutating func decide(
    _ trigger: DrainTrigger,
    head: SequenceNumber?,
    cursor: OutboxCursor
  ) -> DrainDecision {
    let decision = DrainDecision(trigger: trigger, reason: Self.reason(head: head, cursor: cursor))
    statistics.record(trigger, drained: decision.shouldDrain)
    return decision
  }

  private static func reason(head: SequenceNumber?, cursor: OutboxCursor) -> DrainDecision.Reason {
    guard let head else { return .nothingPublished }
    guard let last = cursor.last else { return .neverDrained }
    guard last.epoch == head.epoch else { return .producerRestarted }
    if head.value > last.value { return .pending(count: head.value - last.value) }
    if head.value == last.value { return .upToDate }
    return .producerWentBack
  }
}
