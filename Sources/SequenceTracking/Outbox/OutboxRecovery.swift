import SignalValues

/// How an outbox's epoch ended before its consumers reached its end: the outbox could not be
/// read and was moved aside, or it vanished; and the last number its producers handed out in it.
///
/// A ``SequencedOutbox`` with a mark store (see
/// ``SequencedOutbox/init(store:key:capacity:markStore:)``) writes one to its recovery log
/// (``SequencedOutbox/recoveries()``) whenever an epoch ends that way — when
/// ``SequencedOutbox/publishHealing(_:)`` or ``SequencedOutbox/quarantine(because:)`` moves a
/// damaged outbox aside, and when a publish finds that the outbox it last numbered is
/// gone — so that a consumer whose cursor is in ``epoch`` knows exactly which numbers it will
/// never receive: those after its cursor up to ``lastNumber``.
///
/// JSON form: `{"epoch": "5f1c0a3be29d4471", "lastNumber": 40, "quarantinedTo":
/// "/…/.quarantined.stk.monitor.facts.1", "reason": "…"}`; `epoch` and `lastNumber` are left out
/// when the outbox's producers had not recorded them, `quarantinedTo` when nothing was moved.
public struct OutboxRecovery: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The epoch that ended, or `nil` when no producer recorded which epoch it numbered last.
  public let epoch: SequenceEpoch?
  /// The last number handed out in ``epoch``, or `nil` when it is not known.
  public let lastNumber: UInt64?
  /// Where the unreadable outbox's bytes were kept (for `FileStore`, the quarantined file's
  /// path), or `nil` when there was nothing to move: the outbox had vanished.
  public let quarantinedTo: String?
  /// Why the epoch ended, a sentence for people: the error the outbox could not be read with.
  public let reason: String

  /// Creates a recovery.
  ///
  /// - Parameters:
  ///   - epoch: The epoch that ended, if known.
  ///   - lastNumber: The last number handed out in it, if known.
  ///   - quarantinedTo: Where the unreadable outbox was kept, if it was moved aside.
  ///   - reason: Why the epoch ended.
  public init(epoch: SequenceEpoch?, lastNumber: UInt64?, quarantinedTo: String?, reason: String) {
    self.epoch = epoch
    self.lastNumber = lastNumber
    self.quarantinedTo = quarantinedTo
    self.reason = reason
  }

  /// The numbers a consumer whose last applied number is `last` will never receive because of
  /// this recovery, or `nil` when it loses none or the recovery does not say.
  ///
  /// - Parameter last: The consumer's last applied number, or `nil` when it applied none.
  /// - Returns: The numbers after `last` up to ``lastNumber`` in ``epoch``; all of them from 1
  ///   for a consumer that applied nothing of the epoch (`last` `nil` or in another epoch).
  public func lost(after last: SequenceNumber?) -> SequenceRange? {
    guard let epoch, let lastNumber, lastNumber >= 1 else { return nil }
    let applied = last.flatMap { $0.epoch == epoch ? $0.value : nil } ?? 0
    guard applied < lastNumber else { return nil }
    return SequenceRange(epoch: epoch, values: (applied + 1)...lastNumber)
  }

  /// A sentence for logs and diagnostic entries.
  public var description: String {
    let numbers =
      switch (epoch, lastNumber) {
      case (let epoch?, let last?): "epoch \(epoch) ended after number \(last)"
      case (let epoch?, nil): "epoch \(epoch) ended"
      default: "an epoch of unknown numbers ended"
      }
    let place = quarantinedTo.map { "the outbox was moved aside to \($0)" } ?? "the outbox vanished"
    return "\(numbers); \(place): \(reason)"
  }
}

/// What ``SequencedOutbox/publishHealing(_:)`` or ``SequencedOutbox/publishHealing(contentsOf:)``
/// did: the numbers the entries were published under, and the recovery it needed first, if any.
public struct OutboxPublication: Sendable, Hashable {
  /// The entries' numbers.
  public let numbers: SequenceRange
  /// The damaged outbox moved aside before publishing, or `nil` when the outbox was readable.
  public let recovery: OutboxRecovery?

  /// Creates a publication.
  ///
  /// - Parameters:
  ///   - numbers: The entries' numbers.
  ///   - recovery: The recovery that preceded them, if any.
  public init(numbers: SequenceRange, recovery: OutboxRecovery?) {
    self.numbers = numbers
    self.recovery = recovery
  }

  /// The number of the last entry published: the number to notify.
  public var number: SequenceNumber { numbers.last }
}
