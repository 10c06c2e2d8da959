import SignalValues

/// What an operation had already done when it threw
/// ``SequenceTrackingError/notDurable(committed:key:path:errno:)``: the change is in place and
/// visible to every reader; only flushing it to disk failed.
///
/// Read it to carry on *without* repeating the operation: a repeated publish would store the
/// entry twice, a repeated drain would find nothing left to apply.
///
/// ```swift
/// do {
///   try outbox.publish(event) { _ in postDarwinNotification() }
/// } catch .notDurable(.published(let numbers), _, _, _) {
///   log("published \(numbers), not yet flushed")   // do not publish it again
/// }
/// ```
public enum CommittedChange: Sendable, Hashable, CustomStringConvertible {
  /// ``SequenceCounter/next()`` handed out `number`; the next call hands out the one after it.
  case issued(SequenceNumber)

  /// A publish stored its entries under `numbers` and called its notify closure.
  case published(SequenceRange)

  /// An ``OutboxConsumer`` applied the entries `applied` (`nil`: none) to its state and stored
  /// `cursor` with it, reporting `lost` and `reset` as its batch would have.
  ///
  /// After ``OutboxConsumer/skip(through:_:)``, `cursor` is just after the entry passed over.
  case drained(
    applied: SequenceRange?, lost: SequenceRange?, reset: SequenceResetReason?,
    cursor: OutboxCursor)

  /// ``OutboxConsumer/updateState(_:)`` changed the consumer's state; the cursor stayed at
  /// `cursor`.
  case updatedState(cursor: OutboxCursor)

  /// ``SequencedOutbox/quarantine(because:)`` moved the outbox aside, to
  /// ``OutboxRecovery/quarantinedTo``, and recorded `recovery` in
  /// ``SequencedOutbox/recoveries()``; the next publish starts a new epoch.
  case movedAside(OutboxRecovery)

  /// The change in words, such as `entries 5...6@5f1c0a3be29d4471 were published and notified`.
  public var description: String {
    switch self {
    case .issued(let number):
      return "number \(number) was handed out"
    case .published(let numbers):
      return numbers.count == 1
        ? "entry \(numbers) was published and notified"
        : "entries \(numbers) were published and notified"
    case .drained(let applied, let lost, let reset, let cursor):
      var text = applied.map { "entries \($0) were applied" } ?? "no entry was applied"
      if let lost { text += ", \(lost) reported lost" }
      if let reset { text += ", a reset reported (\(reset))" }
      return text + ", and the cursor moved \(cursor)"
    case .updatedState(let cursor):
      return "the consumer's state was changed, its cursor left \(cursor)"
    case .movedAside(let recovery):
      return "the outbox was moved aside to \(recovery.quarantinedTo ?? "nowhere") and its "
        + "recovery recorded"
    }
  }
}
