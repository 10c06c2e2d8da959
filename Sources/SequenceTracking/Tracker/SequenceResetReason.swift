/// Why a consumer's view of a producer's numbering had to start again.
public enum SequenceResetReason: Sendable, Hashable, CustomStringConvertible {
  /// The producer's store was created afresh (reinstall, wiped container, removed key): its
  /// numbers now belong to a new epoch and start again at 1.
  case epochChanged(from: SequenceEpoch)
  /// The producer's numbering went back within one epoch, below what the consumer had already
  /// seen (for example a store restored from an older backup); `from` is the highest value the
  /// consumer had seen.
  case wentBackwards(from: UInt64)

  /// A phrase for logs, such as `epoch changed from 5f1c0a3be29d4471`.
  public var description: String {
    switch self {
    case .epochChanged(let epoch): return "epoch changed from \(epoch)"
    case .wentBackwards(let value): return "numbering went back from \(value)"
    }
  }
}
