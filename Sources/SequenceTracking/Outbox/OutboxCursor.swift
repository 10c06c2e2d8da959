import SignalValues

/// How far a consumer has got through a ``SequencedOutbox``: the number of the last entry it
/// applied (or deliberately passed over), with a checksum of that entry.
///
/// A consumer persists its cursor — in its own store key, or together with the state it applies
/// entries to (see ``OutboxConsumer``) — and drains everything after it. The cursor names its
/// epoch, so a drain can tell that the outbox was created afresh since; and a cursor that came
/// from a drain carries the ``checksum`` of its last entry's stored line, so a drain can tell that
/// the outbox was rolled back within its epoch and written again under the same numbers
/// (``SequenceResetReason/rewritten(at:)``).
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
/// JSON form: `{"checksum":2583214201,"last":{"epoch":"5f1c0a3be29d4471","value":42}}`, or `{}`
/// for ``start``; `checksum` is absent from a cursor made with ``init(after:)`` and from cursors
/// stored before it existed, which still decode. Decoding rejects a checksum without `last`.
public struct OutboxCursor: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The last entry applied, or `nil` when nothing has been.
  public let last: SequenceNumber?

  /// The CRC-32C (Castagnoli) of the stored line of ``last`` — its payload's JSON, without the
  /// line feed — when the cursor came from a drain; `nil` otherwise.
  ///
  /// A drain whose outbox still holds ``last`` compares it with the line stored there now.
  public let checksum: UInt32?

  /// A cursor before every entry of any outbox.
  ///
  /// A drain from it delivers every entry the outbox holds, and reports the numbers evicted
  /// before the oldest of them as lost.
  public static let start = OutboxCursor()

  /// Creates a cursor before every entry, the same as ``start``.
  public init() {
    last = nil
    checksum = nil
  }

  /// Creates a cursor just after `number`: a drain delivers the entries after it.
  ///
  /// The cursor has no ``checksum``, so a drain from it cannot notice that the outbox was
  /// rewritten under `number`; the cursor the drain returns has one again.
  ///
  /// - Parameter number: The last entry applied or passed over.
  public init(after number: SequenceNumber) {
    last = number
    checksum = nil
  }

  /// Creates a cursor just after `number`, whose stored line has the CRC-32C `checksum`.
  init(after number: SequenceNumber, checksum: UInt32?) {
    last = number
    self.checksum = checksum
  }

  private enum CodingKeys: String, CodingKey {
    case checksum
    case last
  }

  /// Creates a cursor from its JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a field has the wrong type, or `checksum` comes without
  ///   `last`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    last = try container.decodeIfPresent(SequenceNumber.self, forKey: .last)
    checksum = try container.decodeIfPresent(UInt32.self, forKey: .checksum)
    guard last != nil || checksum == nil else {
      throw DecodingError.dataCorruptedError(
        forKey: .checksum, in: container,
        debugDescription: "a cursor at the start has no checksum")
    }
  }

  /// The cursor as `after 42@5f1c0a3be29d4471`, or `at start`.
  public var description: String { last.map { "after \($0)" } ?? "at start" }
}
