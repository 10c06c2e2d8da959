/// How far a consumer has got through a ``SequencedOutbox``: the number of the last entry it
/// applied (or deliberately passed over).
///
/// A consumer persists its cursor — in its own store key, or together with the state it applies
/// entries to (see ``OutboxConsumer``) — and drains everything after it. The cursor names its
/// epoch, so a drain can tell that the outbox was created afresh since.
///
/// ```swift
/// let cursorKey = StoreKey("usage-cursor", default: OutboxCursor.start)
/// let batch = try outbox.drain(after: try store.value(for: cursorKey))
/// try apply(batch.entries)                    // effects must tolerate a repeat, see below
/// try store.set(batch.cursor, for: cursorKey)
/// ```
///
/// Saving the cursor after applying gives *at-least-once* delivery: a consumer that dies between
/// the two steps receives the same entries again. Use ``OutboxConsumer`` for exactly-once.
///
/// JSON form: `{"last":{"epoch":"5f1c0a3be29d4471","value":42}}`, or `{}` for ``start``.
public struct OutboxCursor: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The last entry applied, or `nil` when nothing has been.
  public let last: SequenceNumber?

  /// A cursor before every entry of any outbox.
  ///
  /// A drain from it delivers every entry the outbox holds, and reports the numbers evicted
  /// before the oldest of them as lost.
  public static let start = OutboxCursor()

  /// Creates a cursor before every entry, the same as ``start``.
  public init() {
    last = nil
  }

  /// Creates a cursor just after `number`: a drain delivers the entries after it.
  ///
  /// This is also how a consumer deliberately moves past an entry it can never decode (see
  /// ``SequenceTrackingError/payloadDecoding(key:number:type:description:)``).
  ///
  /// - Parameter number: The last entry applied or passed over.
  public init(after number: SequenceNumber) {
    last = number
  }

  /// The cursor as `after 42@5f1c0a3be29d4471`, or `at start`.
  public var description: String { last.map { "after \($0)" } ?? "at start" }
}
