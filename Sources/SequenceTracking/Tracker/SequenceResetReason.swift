import SignalValues

/// Why a consumer's view of a producer's numbering had to start again.
public enum SequenceResetReason: Sendable, Hashable, CustomStringConvertible {
  /// The producer's store was created afresh (reinstall, wiped container, removed key): its
  /// numbers now belong to a new epoch and start again at 1.
  case epochChanged(from: SequenceEpoch)
  /// The producer's numbering went back within one epoch, below what the consumer had already
  /// seen (for example a store restored from an older backup); `from` is the highest value the
  /// consumer had seen.
  case wentBackwards(from: UInt64)
  /// The outbox holds another entry under `at`, the last value the consumer applied, than the
  /// one it applied: the producer's store was rolled back within its epoch and written again
  /// past that point since.
  ///
  /// Only a drain from a cursor with an ``OutboxCursor/checksum`` can notice it. The entries from
  /// `at` on are new and are delivered; which of the entries below `at` were rewritten is
  /// unknown, and, as after ``wentBackwards(from:)``, they are not delivered again.
  case rewritten(at: UInt64)

  /// A phrase for logs, such as `epoch changed from 5f1c0a3be29d4471`.
  public var description: String {
    switch self {
    case .epochChanged(let epoch): return "epoch changed from \(epoch)"
    case .wentBackwards(let value): return "numbering went back from \(value)"
    case .rewritten(let value): return "entry \(value) was rewritten"
    }
  }
}
