import SharedStore
import SignalValues

/// What a poller needs to know about a ``SequencedOutbox`` without reading its entries: the
/// newest number, the oldest still kept, and the store's change token they were read under.
///
/// Read it with ``SequencedOutbox/head(reusing:)`` and hand the previous head back on the next
/// call: when nothing was written since, only the 32-byte file header is read.
///
/// JSON form: `{"number":{"epoch":"5f1c0a3be29d4471","value":1042},"oldest":1001,"token":7}`
/// (see ``/SharedStore/ChangeToken`` for the token).
public struct OutboxHead: Hashable, Sendable, Codable {
  /// The number of the newest entry.
  public let number: SequenceNumber
  /// The value of the oldest entry still kept; older ones were evicted.
  public let oldest: UInt64
  /// The store's change token of the outbox key, read before the value.
  public let token: ChangeToken

  /// Creates a head.
  ///
  /// - Parameters:
  ///   - number: The newest entry's number.
  ///   - oldest: The oldest kept entry's value, at most `number.value`.
  ///   - token: The change token the head was read under.
  public init(number: SequenceNumber, oldest: UInt64, token: ChangeToken) {
    self.number = number
    self.oldest = oldest
    self.token = token
  }
}
