/// A number a producer handed out: the epoch of its numbering and a value within it.
///
/// Within one ``epoch`` values start at 1 and grow by one per number handed out, so a consumer
/// can see exactly which numbers it has not seen. Numbers of different epochs are not ordered:
/// a new epoch means the producer started again from 1 (see ``SequenceEpoch``). That is why
/// ``SequenceNumber`` is not `Comparable`; ask ``precedes(_:)``, which answers only within an
/// epoch.
///
/// ```swift
/// let number = try counter.next()          // epoch 5f1c…, value 42
/// if seen.precedes(number) { /* newer */ }
/// ```
///
/// JSON form: `{"epoch":"5f1c0a3be29d4471","value":42}` (see ``SequenceEpoch`` for the epoch).
public struct SequenceNumber: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The run of numbering this number belongs to.
  public let epoch: SequenceEpoch
  /// The number's value within its epoch; the first number of an epoch is 1.
  public let value: UInt64

  /// Creates a number.
  ///
  /// - Parameters:
  ///   - epoch: The run of numbering.
  ///   - value: The value within the epoch.
  public init(epoch: SequenceEpoch, value: UInt64) {
    self.epoch = epoch
    self.value = value
  }

  /// Whether this number was handed out before `other` by the same run of numbering.
  ///
  /// - Parameter other: Another number.
  /// - Returns: `true` when both share an epoch and this value is smaller; `false` otherwise,
  ///   including for numbers of different epochs, which are not ordered.
  public func precedes(_ other: SequenceNumber) -> Bool {
    epoch == other.epoch && value < other.value
  }

  /// The number as `value@epoch`, for logs, for example `42@5f1c0a3be29d4471`.
  public var description: String { "\(value)@\(epoch)" }
}
