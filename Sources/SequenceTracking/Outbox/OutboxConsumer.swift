import Foundation
import SharedStore
import SignalValues

/// A consumer of a ``SequencedOutbox`` that applies every entry to its state exactly once, even
/// if it is killed at any moment.
///
/// The consumer keeps its ``OutboxCursor`` and the state it applies entries to in *one* store key
/// (an ``OutboxConsumerRecord``). ``drain(_:)`` applies the entries after the cursor and advances
/// the cursor in one atomic read-modify-write of that key, so after a crash either both happened
/// or neither did: nothing is applied twice, nothing is skipped.
///
/// The record is kept as versions (``recordStorage``): each change appends the new record to the
/// key's append-only log, one flush on a durable `FileStore`, where replacing a value costs two
/// flushes and a rename. A reader takes the newest complete version.
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
/// producer's store is not rolled back; a drain reports a rollback as a reset
/// (``SequenceResetReason/wentBackwards(from:)`` while the outbox is still below the cursor,
/// ``SequenceResetReason/rewritten(at:)`` once it was written past it again), and after any
/// reset ``OutboxBatch/reset`` says what happened.
///
/// **When a drain cannot go on.** An entry that never decodes stops every drain at it, with
/// nothing applied; ``skip(through:_:)`` passes over it deliberately. A drain that throws
/// ``SequenceTrackingError/notDurable(committed:key:path:errno:)`` *has* applied its batch: the
/// store could only not flush it.
///
/// **Concurrency.** Two drains of the same record, from threads or processes, exclude each other
/// through the store; the second sees the first one's cursor and applies only what is left. A
/// drain that read the outbox before another drain wrote the record reads it again, so it never
/// applies from an outbox older than the stored cursor.
/// `apply` runs while the record's store is locked; keep it short and do not use that store in
/// it. When the record lives in the same ``/SharedStore/FileStore`` directory as the outbox,
/// publishers wait for it.
public struct OutboxConsumer<Payload: Codable & Sendable, State: Codable & Sendable>: Sendable {
  /// The outbox this consumer drains.
  public let outbox: SequencedOutbox<Payload>
  /// The store key holding the consumer's ``OutboxConsumerRecord``.
  public let key: String
  /// How the record is kept under ``key``: its newest 16 versions in an append-only log.
  ///
  /// Read a record yourself (a diagnostic tool, say) through a ``/SharedStore/StoreKey`` with
  /// this storage, or as the newest record of the log.
  public static var recordStorage: ValueStorage { .versions(keeping: 16) }
  let store: any SharedStore
  let storeKey: StoreKey<OutboxConsumerRecord<State>>

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
      key, default: OutboxConsumerRecord(cursor: .start, state: initialState),
      storage: Self.recordStorage)
  }

  /// Applies every entry after the stored cursor to the stored state, in sequence order, and
  /// advances the cursor, all in one atomic write.
  ///
  /// When there is nothing after the cursor, it returns an empty batch without locking or
  /// writing anything. When other drains keep writing the record between this one's reads and
  /// its update, it reads again, up to 16 times, and then returns an empty batch at the stored
  /// cursor: those drains are applying the entries.
  ///
  /// - Parameter apply: Applies one entry to the state. It must not use the record's store.
  /// - Returns: The batch that was applied, with what was lost or reset.
  /// - Throws: ``SequenceTrackingError`` from the outbox or the store; nothing was applied —
  ///   except after ``SequenceTrackingError/notDurable(committed:key:path:errno:)``: then the
  ///   batch *was* applied and the cursor stored
  ///   (``CommittedChange/drained(applied:lost:reset:cursor:)`` says which entries, and what was
  ///   lost or reset), only not flushed to disk. Do not apply those entries again elsewhere; the
  ///   next drain goes on after them. `payloadDecoding` names an entry that does not decode; see
  ///   ``skip(through:_:)``.
  /// - Complexity: O(*n*) in the outbox's stored size, plus one decode and one `apply` per entry.
  @discardableResult
  public func drain(
    _ apply: (inout State, SequencedEntry<Payload>) -> Void
  ) throws(SequenceTrackingError) -> OutboxBatch<Payload> {
    try consume(passingOver: nil, applying: apply)
  }

  /// Applies the entries after the stored cursor up to and including `number`, and stores the
  /// cursor just after it, all in one atomic write: the commit of a consumer that keeps what it
  /// drains outside its record.
  ///
  /// Such a consumer reads the entries first (``SequencedOutbox/drain(after:)`` with the stored
  /// cursor), writes them where it keeps them, idempotently, and then commits through the last
  /// one it wrote. Write, then commit: a kill in between leaves the cursor where it was, and the
  /// next drain writes the same entries again; an entry published meanwhile is not committed,
  /// because it was not written.
  ///
  /// ```swift
  /// let cursor = try consumer.record().cursor
  /// let batch = try consumer.outbox.drain(after: cursor)
  /// try journal.insert(batch.entries)              // idempotent: a set, or keyed by number
  /// if let last = batch.entries.last {
  ///   try consumer.drain(through: last.number) { state, entry in state.observe(entry) }
  /// }
  /// ```
  ///
  /// When `number` is no longer among the entries after the stored cursor — another drain
  /// committed it, the outbox evicted it, or the outbox started a new epoch — nothing is written
  /// and the result is an empty batch at the stored cursor; drain again.
  ///
  /// - Parameters:
  ///   - number: The last entry to apply.
  ///   - apply: Applies one entry to the state. It must not use the record's store.
  /// - Returns: The batch applied, with what was lost or reset before it.
  /// - Throws: Like ``drain(_:)``.
  /// - Complexity: Like ``drain(_:)``.
  @discardableResult
  public func drain(
    through number: SequenceNumber,
    _ apply: (inout State, SequencedEntry<Payload>) -> Void
  ) throws(SequenceTrackingError) -> OutboxBatch<Payload> {
    try consume(passingOver: nil, through: number, applying: apply)
  }

  /// Applies the entries after the stored cursor and before `number`, passes over `number`
  /// without applying it, and stores the cursor just after it, all in one atomic write: the way
  /// past an entry that can never be decoded.
  ///
  /// Call it with the number a drain reported in
  /// ``SequenceTrackingError/payloadDecoding(key:number:type:description:)``, and drain again
  /// afterwards. No entry but `number` is passed over: the ones before it are applied, the ones
  /// after it are left for the next drain.
  ///
  /// ```swift
  /// func drainAll() throws(SequenceTrackingError) {
  ///   do {
  ///     try consumer.drain(apply)
  ///   } catch .payloadDecoding(_, let number, _, let description) {
  ///     log("passing over \(number): \(description)")
  ///     try consumer.skip(through: number, apply)
  ///     try consumer.drain(apply)
  ///   }
  /// }
  /// ```
  ///
  /// Catch the error in a function that throws ``SequenceTrackingError``, as above: Swift 6.3's
  /// compiler crashes on some `catch SequenceTrackingError.payloadDecoding(…)` clauses in
  /// closures that throw `any Error`.
  ///
  /// It is safe with concurrent drains and skips, from threads or processes: when `number` is
  /// no longer among the entries after the stored cursor — another drain or skip passed it, the
  /// outbox evicted it, or the outbox started a new epoch — nothing is written and the result is
  /// an empty batch at the stored cursor.
  ///
  /// - Parameters:
  ///   - number: The entry to pass over.
  ///   - apply: Applies one of the entries before `number`. It must not use the record's store.
  /// - Returns: The batch applied: the entries before `number`, what was lost or reset, and the
  ///   cursor, just after `number` when it was passed over.
  /// - Throws: Like ``drain(_:)``, including `payloadDecoding` for an entry before `number` (pass
  ///   over that one first) and ``SequenceTrackingError/notDurable(committed:key:path:errno:)``
  ///   when the skip was stored but not flushed.
  /// - Complexity: Like ``drain(_:)``.
  @discardableResult
  public func skip(
    through number: SequenceNumber,
    _ apply: (inout State, SequencedEntry<Payload>) -> Void
  ) throws(SequenceTrackingError) -> OutboxBatch<Payload> {
    try consume(passingOver: number, applying: apply)
  }

  /// Changes the stored state in one atomic write, leaving the cursor where it is: for what the
  /// consumer keeps besides the entries it applies (a transaction of the app's own, say).
  ///
  /// The same exclusion as a drain: a drain and an update of the same record, from threads or
  /// processes, happen one after the other, and neither loses the other's change. When `change`
  /// throws, nothing is written.
  ///
  /// ```swift
  /// let outcome = try consumer.updateState { totals throws(LimitError) in
  ///   try totals.reset(app)
  /// }
  /// try outcome.get()  // a LimitError, as `change` threw it
  /// ```
  ///
  /// - Parameter change: The change. It must not use the record's store.
  /// - Returns: What `change` returned, or the error it threw (then nothing was written).
  /// - Throws: ``SequenceTrackingError/store(_:)`` from the store, including a record that does
  ///   not decode; ``SequenceTrackingError/notDurable(committed:key:path:errno:)`` when the change
  ///   is in place but was not flushed.
  public func updateState<Result, Failure: Error>(
    _ change: (inout State) throws(Failure) -> Result
  ) throws(SequenceTrackingError) -> Swift.Result<Result, Failure> {
    var committed: CommittedChange?
    do throws(SharedStoreError) {
      return try store.updateCapturingFailure(storeKey) { record throws(Failure) -> Result in
        committed = .updatedState(cursor: record.cursor)
        return try change(&record.state)
      }
    } catch {
      throw SequenceTrackingError(error, committed: committed)
    }
  }

  /// Returns the stored cursor and state, or the initial ones when nothing was applied yet.
  ///
  /// The record is kept as versions, and its key remembers the version it decoded or stored
  /// last: when the stored bytes are the same, it is returned without decoding them again.
  ///
  /// - Returns: The record.
  /// - Throws: ``SequenceTrackingError/store(_:)``, including a record that does not decode
  ///   (it is never replaced by the initial state behind your back).
  /// - Complexity: O(*n*) in the record's size: reading its newest version, and comparing or
  ///   decoding it.
  public func record() throws(SequenceTrackingError) -> OutboxConsumerRecord<State> {
    do {
      return try store.value(for: storeKey)
    } catch {
      throw .store(error)
    }
  }

  /// Decodes `bytes`, a version of the record read from its log (`readLog(key)`), as
  /// ``record()`` decodes the newest one — for a caller that read the whole log itself.
  ///
  /// - Parameter bytes: One version's bytes.
  /// - Returns: The record.
  /// - Throws: ``SequenceTrackingError/store(_:)`` with the store's `decoding` error.
  /// - Complexity: O(*n*) in the size of `bytes`.
  package func record(decoding bytes: Data) throws(SequenceTrackingError)
    -> OutboxConsumerRecord<State>
  {
    do {
      return try storeKey.codec.decode(bytes, key: key)
    } catch {
      throw .store(error)
    }
  }
}
