import SharedStore

/// A consumer of a ``SequencedOutbox`` that applies every entry to its state exactly once, even
/// if it is killed at any moment.
///
/// The consumer keeps its ``OutboxCursor`` and the state it applies entries to in *one* store key
/// (an ``OutboxConsumerRecord``). ``drain(_:)`` applies the entries after the cursor and advances
/// the cursor in one atomic read-modify-write of that key, so after a crash either both happened
/// or neither did: nothing is applied twice, nothing is skipped.
///
/// ```swift
/// struct Totals: Codable, Sendable { var seconds: [String: Int] = [:] }
/// let consumer = try OutboxConsumer(
///   outbox: outbox, store: appStore, key: "usage-totals", initialState: Totals())
/// let batch = try consumer.drain { totals, entry in
///   totals.seconds[entry.payload.app, default: 0] += entry.payload.seconds
/// }
/// if let lost = batch.lost { report(lost) }   // evicted before this consumer read them
/// ```
///
/// **What exactly-once covers.** Changes `apply` makes to the state are stored once per entry.
/// Anything `apply` does outside the state (a network call, a write elsewhere) may be repeated
/// if the process dies before the record is written; make such effects idempotent by keying
/// them on ``SequencedEntry/number``. Within one epoch the guarantee holds as long as the
/// producer's store is not rolled back; after a reset, ``OutboxBatch/reset`` says what happened.
///
/// **Concurrency.** Two drains of the same record, from threads or processes, exclude each other
/// through the store; the second sees the first one's cursor and applies only what is left.
/// `apply` runs while the record's store is locked; keep it short and do not use that store in
/// it. When the record lives in the same `FileStore` directory as the outbox, publishers wait
/// for it.
public struct OutboxConsumer<Payload: Codable & Sendable, State: Codable & Sendable>: Sendable {
  /// The outbox this consumer drains.
  public let outbox: SequencedOutbox<Payload>
  /// The store key holding the consumer's ``OutboxConsumerRecord``.
  public let key: String
  private let store: any SharedStore
  private let storeKey: StoreKey<OutboxConsumerRecord<State>>

  /// Creates a consumer whose record lives on `key` of `store`.
  ///
  /// Nothing is written until a drain has something to apply or a cursor to realign.
  ///
  /// - Parameters:
  ///   - outbox: The outbox to drain.
  ///   - store: The store holding the consumer's record; it may be the outbox's store or another.
  ///   - key: A valid store key, different from the outbox's key.
  ///   - initialState: The state before any entry was applied.
  /// - Throws: ``SequenceTrackingError/store(_:)`` for an invalid key, or
  ///   ``SequenceTrackingError/sameKeyAsOutbox(key:)``.
  public init(
    outbox: SequencedOutbox<Payload>,
    store: any SharedStore,
    key: String,
    initialState: State
  ) throws(SequenceTrackingError) {
    do {
      try StoreKeyRules.validate(key)
    } catch {
      throw .store(error)
    }
    guard key != outbox.key else { throw .sameKeyAsOutbox(key: key) }
    self.outbox = outbox
    self.store = store
    self.key = key
    self.storeKey = StoreKey(
      key, default: OutboxConsumerRecord(cursor: .start, state: initialState))
  }

  /// Applies every entry after the stored cursor to the stored state, in sequence order, and
  /// advances the cursor, all in one atomic write.
  ///
  /// When there is nothing after the cursor, it returns an empty batch without locking or writing
  /// anything. When `apply` throws, nothing is written: the state and the cursor stay as they were, and the
  /// same entries are delivered by the next drain.
  ///
  /// - Parameter apply: Applies one entry to the state. It must not use the record's store.
  /// - Returns: The batch that was applied, with what was lost or reset.
  /// - Throws: ``SequenceTrackingError`` from the outbox or the store, or whatever `apply`
  ///   throws; either way nothing was applied.
  /// - Complexity: O(*n*) in the outbox's stored size, plus one decode and one `apply` per entry.
  @discardableResult
  public func drain(
    _ apply: (inout State, SequencedEntry<Payload>) throws -> Void
  ) throws -> OutboxBatch<Payload> {
    // Read the outbox before taking the record's lock, so that the lock is held only to decode
    // and apply. The plan is made under the lock, against the cursor stored at that moment.
    let layout = try outbox.snapshot()
    // Nothing to deliver and no cursor to move: answer without locking or writing. The stored
    // cursor can only have moved on since this lock-free read, never back.
    let stored = try record()
    let idle = DeliveryPlan(cursor: stored.cursor, header: layout?.header)
    if idle.values == nil, idle.cursor == stored.cursor { return idle.batch([]) }
    let outboxKey = outbox.key
    do {
      return try store.update(storeKey) { record -> OutboxBatch<Payload> in
        let plan = DeliveryPlan(cursor: record.cursor, header: layout?.header)
        guard let layout else { return plan.batch([]) }
        let entries = try plan.entries(from: layout, as: Payload.self, key: outboxKey)
        for entry in entries {
          try apply(&record.state, entry)
        }
        record.cursor = plan.cursor
        return plan.batch(entries)
      }
    } catch let error as SharedStoreError {
      throw SequenceTrackingError.store(error)
    }
  }

  /// Returns the stored cursor and state, or the initial ones when nothing was applied yet.
  ///
  /// - Returns: The record.
  /// - Throws: ``SequenceTrackingError/store(_:)``, including a record that does not decode
  ///   (it is never replaced by the initial state behind your back).
  public func record() throws(SequenceTrackingError) -> OutboxConsumerRecord<State> {
    do {
      return try store.value(for: storeKey)
    } catch {
      throw .store(error)
    }
  }
}

/// What an ``OutboxConsumer`` stores: its cursor and the state entries were applied to, kept
/// together so that one atomic write changes both.
///
/// JSON form: `{"cursor":{"last":{"epoch":"5f1c0a3be29d4471","value":42}},"state":…}`, the state
/// in its own `Codable` form.
public struct OutboxConsumerRecord<State: Codable & Sendable>: Codable, Sendable {
  /// The last entry applied.
  public var cursor: OutboxCursor
  /// The state every entry up to ``cursor`` was applied to.
  public var state: State

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - cursor: The last entry applied.
  ///   - state: The state after applying it.
  public init(cursor: OutboxCursor, state: State) {
    self.cursor = cursor
    self.state = state
  }
}

extension OutboxConsumerRecord: Equatable where State: Equatable {}
extension OutboxConsumerRecord: Hashable where State: Hashable {}
