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
/// through the store; the second sees the first one's cursor and applies only what is left. A
/// drain that read the outbox before another drain wrote the record reads it again, so it never
/// applies from an outbox older than the stored cursor.
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
  /// When there is nothing after the cursor, it returns an empty batch without locking or
  /// writing anything. When other drains keep writing the record between this one's reads and
  /// its update, it reads again, up to 16 times, and then returns an empty batch at the stored
  /// cursor: those drains are applying the entries. When `apply` throws, nothing is written: the state and the cursor stay as
  /// they were, and the same entries are delivered by the next drain.
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
    var attempts = 0
    while true {
      attempts += 1
      // The record first, then the outbox: the outbox is then at least as new as anything the
      // stored cursor was derived from. Under the lock, an unchanged revision proves that no
      // other drain wrote since, so the plan made there is not based on a stale outbox.
      let stored = try record()
      let layout = try outbox.snapshot()
      let idle = DeliveryPlan(cursor: stored.cursor, header: layout?.header)
      if idle.values == nil, idle.cursor == stored.cursor { return idle.batch([]) }
      let applied = try commit(layout, ifRevisionIs: stored.revision, applying: apply)
      if let applied { return applied }
      // Another drain wrote in between and made progress. Read both again; if drains keep
      // racing this one, they are applying the entries, and there is nothing left to report.
      guard attempts < Self.maximumAttempts else {
        let current = try record()
        return OutboxBatch(
          entries: [], lost: nil, reset: nil, cursor: current.cursor,
          head: layout.map { SequenceNumber(epoch: $0.header.epoch, value: $0.header.head) })
      }
    }
  }

  /// How often a drain reads again after losing a race with another drain.
  static var maximumAttempts: Int { 16 }

  /// Applies the plan for `layout` under the record's lock, unless the record is no longer at
  /// `revision`; returns `nil` in that case, having written nothing.
  private func commit(
    _ layout: OutboxLayout?,
    ifRevisionIs revision: UInt64,
    applying apply: (inout State, SequencedEntry<Payload>) throws -> Void
  ) throws -> OutboxBatch<Payload>? {
    let outboxKey = outbox.key
    do {
      return try store.update(storeKey) { record -> OutboxBatch<Payload>? in
        guard record.revision == revision else { return nil }
        let plan = DeliveryPlan(cursor: record.cursor, header: layout?.header)
        guard let layout else { return plan.batch([]) }
        let entries = try plan.entries(from: layout, as: Payload.self, key: outboxKey)
        for entry in entries {
          try apply(&record.state, entry)
        }
        record.cursor = plan.cursor
        record.revision = record.revision.addingSaturating(1)
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
