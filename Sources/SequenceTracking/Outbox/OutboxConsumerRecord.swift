/// What an ``OutboxConsumer`` stores: its cursor and the state entries were applied to, kept
/// together so that one atomic write changes both.
///
/// JSON form:
/// `{"cursor":{"checksum":2583214201,"last":{"epoch":"5f1c0a3be29d4471","value":42}},`
/// `"revision":7,"state":…}`, the cursor as ``OutboxCursor`` documents it and the state in its
/// own `Codable` form.
public struct OutboxConsumerRecord<State: Codable & Sendable>: Codable, Sendable {
  /// The last entry applied.
  public var cursor: OutboxCursor
  /// The state every entry up to ``cursor`` was applied to.
  public var state: State
  /// How many drains and skips have written this record, wrapping from `UInt64.max` to 0.
  ///
  /// A drain reads the outbox before it locks the record; the revision tells it, under the lock,
  /// whether another drain wrote in between, in which case its reading of the outbox may be older
  /// than the stored cursor and it reads again. Only equality is compared, so wrapping keeps the
  /// check working at the largest value.
  public internal(set) var revision: UInt64

  /// Creates a record at revision 0.
  ///
  /// - Parameters:
  ///   - cursor: The last entry applied.
  ///   - state: The state after applying it.
  public init(cursor: OutboxCursor, state: State) {
    self.cursor = cursor
    self.state = state
    self.revision = 0
  }
}

extension OutboxConsumerRecord: Equatable where State: Equatable {}
extension OutboxConsumerRecord: Hashable where State: Hashable {}
