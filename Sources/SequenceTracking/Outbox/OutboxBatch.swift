import SignalValues

/// The result of one drain: the entries after the cursor in sequence order, what was lost or
/// reset on the way, and where the cursor goes once the entries are applied.
///
/// A drain never pretends nothing happened: when entries the consumer never read were evicted
/// from the bounded outbox, ``lost`` names exactly which numbers; when the producer started a new
/// run, ``reset`` says so.
public struct OutboxBatch<Payload> {
  /// The entries after the cursor, oldest first, numbers consecutive except across
  /// ``vanished`` numbers.
  public let entries: [SequencedEntry<Payload>]
  /// The numbers after the cursor that the outbox no longer holds, or `nil` when none were lost.
  public let lost: SequenceRange?
  /// Why the cursor's position no longer applies, or `nil` when it still does.
  ///
  /// - ``SequenceResetReason/epochChanged(from:)``: the outbox was created afresh; ``entries``
  ///   starts at its oldest entry, and ``lost`` covers the new epoch's evicted numbers.
  /// - ``SequenceResetReason/wentBackwards(from:)``: the outbox went back below the cursor
  ///   within its epoch (for example a restored backup). The entries it still holds are ones the
  ///   consumer already applied, so none are delivered, and ``cursor`` moves back to the head so
  ///   that the next publish is delivered.
  /// - ``SequenceResetReason/rewritten(at:)``: the outbox went back below the cursor within its
  ///   epoch and was written past it again, so the entry under the cursor's number is not the one
  ///   applied. ``entries`` starts at that number; the entries below it are not delivered again.
  public let reset: SequenceResetReason?
  /// The cursor to persist once every entry is applied.
  public let cursor: OutboxCursor
  /// The outbox's newest number when it was read, or `nil` when the outbox was empty.
  public let head: SequenceNumber?
  /// Numbers among those delivered that a producer handed out but whose entries vanished when
  /// the outbox went back (it was truncated, or restored from an older copy), in runs; empty
  /// when none did.
  ///
  /// A publish that finds the outbox behind the numbers handed out continues after them, so a
  /// number is never handed out twice within an epoch; the entries skip these numbers. A
  /// consumer that went past some of them before the outbox went back (its cursor was ahead of
  /// the outbox's head) sees them here too: a ``SequenceTracker`` fed the entries' numbers says
  /// exactly which ones it never received.
  public let vanished: [SequenceRange]

  /// Creates a batch.
  ///
  /// - Parameters:
  ///   - entries: The entries to apply, oldest first.
  ///   - lost: The numbers that were evicted unread.
  ///   - reset: Why the old cursor no longer applies.
  ///   - cursor: The cursor after applying `entries`.
  ///   - head: The outbox's newest number.
  ///   - vanished: The numbers among those delivered whose entries vanished.
  public init(
    entries: [SequencedEntry<Payload>],
    lost: SequenceRange?,
    reset: SequenceResetReason?,
    cursor: OutboxCursor,
    head: SequenceNumber?,
    vanished: [SequenceRange] = []
  ) {
    self.vanished = vanished
    self.entries = entries
    self.lost = lost
    self.reset = reset
    self.cursor = cursor
    self.head = head
  }
}

extension OutboxBatch: Sendable where Payload: Sendable {}
extension OutboxBatch: Equatable where Payload: Equatable {}
extension OutboxBatch: Hashable where Payload: Hashable {}
