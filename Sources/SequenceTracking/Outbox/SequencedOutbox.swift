import Foundation
import SharedStore
import SignalValues

/// A bounded, numbered outbox on one ``/SharedStore`` key: producers publish entries, then notify;
/// consumers drain everything after their persisted cursor, so a dropped or coalesced
/// notification loses nothing.
///
/// ``publish(_:then:)`` appends the entry to the key's append-only log, which assigns its number,
/// in one atomic step — a single write, exclusive across processes, and durable with a `.durable`
/// ``/SharedStore/FileStore`` — and only after that write has returned does it call your notify
/// closure (write, then notify: a notification posted before the write lets the app read stale
/// data). A consumer that receives the notification, or a later one, or only its 30-second poll,
/// drains with ``drain(after:)`` and finds the entry.
///
/// Use an outbox when every payload must reach the consumer; to number notifications whose
/// payload lives elsewhere, or that have none, a ``SequenceCounter`` is enough (its
/// documentation says when to use which).
///
/// ```swift
/// // Extension (producer):
/// let outbox = try SequencedOutbox<UsageEvent>(store: store, key: "usage-outbox", capacity: 512)
/// try outbox.publish(event) { _ in
///   CFNotificationCenterPostNotification(center, name, nil, nil, true)
/// }
///
/// // App (consumer), on a notification or a poll:
/// let batch = try outbox.drain(after: cursor)
/// ```
///
/// **Bounded.** The outbox keeps the newest ``capacity`` entries; a publish beyond that evicts
/// the oldest. A consumer whose cursor is behind the oldest kept entry is told exactly which
/// numbers it lost (``OutboxBatch/lost``). Every producer of one key should use the same
/// capacity; a publish with a smaller one trims to it.
///
/// **Epochs.** The first publish on an absent key draws a fresh ``/SignalValues/SequenceEpoch`` and
/// numbers from 1, so a reinstall or a wiped container is reported to consumers as a reset, never
/// mistaken for old entries.
///
/// **Costs.** A publish appends one record — the entry — to the key's log after reading the
/// log's newest record: O(*m*) in the size of the entry, whatever the outbox holds. Once every
/// ``capacity`` publishes the store compacts the log, reading and rewriting the entries it keeps
/// (and holding them in memory: in a DeviceActivity monitor extension, with its 6 MB limit, keep
/// capacity × entry size to a few hundred kilobytes). A drain reads the whole log and decodes
/// only the entries it delivers. ``head(reusing:)`` reads only the change token when nothing has
/// changed, and otherwise the newest entry. The stored layout is described in
/// <doc:/ScreenTimeKit/SequenceTracking-OutboxFormat>.
public struct SequencedOutbox<Payload: Codable & Sendable>: Sendable {
  /// The store key holding the outbox.
  public let key: String
  /// The most entries kept; publishing beyond it evicts the oldest.
  public let capacity: Int
  let store: any SharedStore

  /// Creates an outbox on `key` of `store`; nothing is written until the first publish.
  ///
  /// - Parameters:
  ///   - store: The store shared by the producers and the consumers.
  ///   - key: A valid store key.
  ///   - capacity: The most entries kept, at least 1. Choose it to cover the longest time the
  ///     consumer may not drain (for example a day of events while the app is not opened).
  /// - Throws: ``SequenceTrackingError/store(_:)`` for an invalid key, or
  ///   ``SequenceTrackingError/invalidCapacity(key:capacity:)``.
  public init(store: any SharedStore, key: String, capacity: Int) throws(SequenceTrackingError) {
    do {
      try StoreKeyRules.validate(key)
    } catch {
      throw .store(error)
    }
    guard capacity >= 1 else { throw .invalidCapacity(key: key, capacity: capacity) }
    self.store = store
    self.key = key
    self.capacity = capacity
  }

  // MARK: - Publishing

  /// Appends `payload` under the next number in one atomic write, then calls `notify`.
  ///
  /// `notify` runs only after the entry is stored and the store's lock is released, so a consumer
  /// woken by it always finds the entry. It runs exactly when the entry is stored: not when the
  /// publish fails, and also when the store could not flush the stored entry (see below).
  ///
  /// - Parameters:
  ///   - payload: The entry to publish.
  ///   - notify: Called once with the entry's number after it is stored; on iOS, post the Darwin
  ///     notification here.
  /// - Returns: The entry's number.
  /// - Throws: ``SequenceTrackingError`` — `payloadEncoding`, `store`, `corruptedOutbox`,
  ///   `unsupportedOutboxFormat` or `exhausted`, after which nothing is published and `notify`
  ///   was not called; or ``SequenceTrackingError/notDurable(committed:key:path:errno:)``, after
  ///   which the entry *is* published under the number ``CommittedChange/published(_:)`` names,
  ///   `notify` was called, and the write may not survive a power cut. Do not publish it again.
  /// - Complexity: O(*m*) in the size of the entry, amortised: the entry is appended to the
  ///   stored log, which is compacted once every ``capacity`` publishes.
  @discardableResult
  public func publish(
    _ payload: Payload,
    then notify: (SequenceNumber) -> Void
  ) throws(SequenceTrackingError) -> SequenceNumber {
    let record = try OutboxLayout.record(payload, key: key)
    return try append([record]) { notify($0.last) }.last
  }

  /// Appends `payload` under the next number in one atomic write, for a producer that notifies
  /// the consumers itself once this returns.
  ///
  /// The entry is stored when this returns, so a consumer woken after it always finds the entry:
  /// post the notification with the number returned.
  ///
  /// - Parameter payload: The entry to publish.
  /// - Returns: The entry's number.
  /// - Throws: Like ``publish(_:then:)``.
  /// - Complexity: Like ``publish(_:then:)``.
  @discardableResult
  public func publish(_ payload: Payload) throws(SequenceTrackingError) -> SequenceNumber {
    try publish(payload) { _ in }
  }

  /// Appends `payloads` under consecutive numbers in one atomic write, then calls `notify` once.
  ///
  /// - Parameters:
  ///   - payloads: The entries to publish, in order. When empty, nothing is written and `notify`
  ///     is not called.
  ///   - notify: Called once with the entries' numbers after they are stored.
  /// - Returns: The entries' numbers, or `nil` when `payloads` is empty.
  /// - Throws: Like ``publish(_:then:)``: nothing is published and `notify` is not called, except
  ///   after ``SequenceTrackingError/notDurable(committed:key:path:errno:)``, when every entry is
  ///   published and `notify` was called.
  /// - Complexity: O(*k*) in the size of the *k* new entries, amortised.
  @discardableResult
  public func publish(
    contentsOf payloads: some Sequence<Payload>,
    then notify: (SequenceRange) -> Void
  ) throws(SequenceTrackingError) -> SequenceRange? {
    var records: [Data] = []
    for payload in payloads {
      records.append(try OutboxLayout.record(payload, key: key))
    }
    guard !records.isEmpty else { return nil }
    return try append(records, then: notify)
  }

  /// Appends `records` to the outbox's log in one store append, which numbers them, and calls
  /// `notify` once they are stored — also when the store could not flush them, since readers
  /// can already see them.
  private func append(
    _ records: [Data],
    then notify: (SequenceRange) -> Void
  ) throws(SequenceTrackingError) -> SequenceRange {
    let key = key
    var refusal: SequenceTrackingError?
    var assigned: SequenceRange?
    do {
      try store.appendToLog(key, capacity: capacity, examiningNewest: 1) { log in
        do throws(SequenceTrackingError) {
          _ = try OutboxLayout.header(of: log, key: key)
          guard log.nextPosition <= UInt64.max - UInt64(records.count) else {
            throw .exhausted(key: key)
          }
          let first = log.nextPosition
          assigned = SequenceRange(
            epoch: SequenceEpoch(rawValue: log.identity),
            values: first...(first + UInt64(records.count) - 1))
          return records
        } catch {
          refusal = error
          return []
        }
      }
    } catch {
      let error = reported(error, committed: assigned.map(CommittedChange.published))
      if case .notDurable(.published(let stored), _, _, _) = error { notify(stored) }
      throw error
    }
    if let refusal { throw refusal }
    guard let assigned else { preconditionFailure("an append numbers its records") }
    notify(assigned)
    return assigned
  }

  // MARK: - Reading

  /// Returns the outbox's newest and oldest numbers, reading as little as possible.
  ///
  /// Pass the head this method returned last time: when the store's change token is unchanged,
  /// it is returned as is after reading only the key's change token (for
  /// ``/SharedStore/FileStore``, the header of the outbox's file and its size). Otherwise the
  /// newest entry is read (for `FileStore`, the end of the file, whose checksum is verified); no
  /// entry is decoded.
  ///
  /// - Parameter cached: The head returned by the previous call, if any.
  /// - Returns: The head, or `nil` when nothing has been published (or the key was removed).
  /// - Throws: ``SequenceTrackingError/store(_:)``, `corruptedOutbox` or
  ///   `unsupportedOutboxFormat`.
  public func head(reusing cached: OutboxHead? = nil) throws(SequenceTrackingError) -> OutboxHead? {
    let token: ChangeToken?
    let log: LogSnapshot?
    do {
      // The token first: a write landing between the two reads makes the token stale, so the
      // next call reads again rather than missing the write.
      token = try store.changeToken(for: key)
      guard let token else { return nil }
      if let cached, cached.token == token { return cached }
      log = try store.readLog(key, newest: 1)
    } catch {
      throw reported(error)
    }
    guard let token, let log, let header = try OutboxLayout.header(of: log, key: key) else {
      return nil
    }
    return OutboxHead(
      number: SequenceNumber(epoch: header.epoch, value: header.head), oldest: header.oldest,
      token: token)
  }

  /// Returns every entry after `cursor`, in sequence order, with what was lost or reset; it
  /// changes nothing.
  ///
  /// Apply the entries, then persist ``OutboxBatch/cursor``. That is at-least-once: a consumer
  /// that dies in between receives the entries again. For exactly-once, drain through an
  /// ``OutboxConsumer``.
  ///
  /// - Parameter cursor: The consumer's cursor.
  /// - Returns: The batch; empty when the consumer is up to date or nothing was published.
  /// - Throws: ``SequenceTrackingError`` — `store`, `corruptedOutbox`, `unsupportedOutboxFormat`,
  ///   or `payloadDecoding` for an entry that does not decode.
  /// - Complexity: O(*n*) in the stored size to read the log, plus one decode per delivered
  ///   entry.
  public func drain(after cursor: OutboxCursor) throws(SequenceTrackingError)
    -> OutboxBatch<Payload>
  {
    let layout = try snapshot(after: cursor)
    let plan = DeliveryPlan(cursor: cursor, layout: layout)
    guard let layout else { return plan.batch([]) }
    return plan.batch(try plan.entries(from: layout, as: Payload.self, key: key))
  }

  /// Returns the entries after `cursor` and before `number`, and a cursor just after `number`:
  /// the way past an entry that can never be decoded, for a consumer that keeps its own cursor.
  ///
  /// Call it with the number of a
  /// ``SequenceTrackingError/payloadDecoding(key:number:type:description:)`` error. Apply the
  /// entries, then persist ``OutboxBatch/cursor``, as after ``drain(after:)``: `number` is passed
  /// over and no other entry is. An ``OutboxConsumer`` does this in one atomic write with
  /// ``OutboxConsumer/skip(through:_:)``.
  ///
  /// - Parameters:
  ///   - cursor: The consumer's cursor.
  ///   - number: The entry to pass over.
  /// - Returns: The batch up to `number`, with `number` not among its entries; or, when `number`
  ///   is not among the entries after `cursor` (it was passed already, was evicted, or belongs to
  ///   another epoch than the outbox's), an empty batch at `cursor`.
  /// - Throws: Like ``drain(after:)``, including `payloadDecoding` for an entry before `number`.
  /// - Complexity: Like ``drain(after:)``.
  public func drain(after cursor: OutboxCursor, passingOver number: SequenceNumber)
    throws(SequenceTrackingError) -> OutboxBatch<Payload>
  {
    let layout = try snapshot(after: cursor)
    guard let layout,
      let plan = DeliveryPlan(cursor: cursor, layout: layout).passingOver(number, in: layout)
    else {
      return OutboxBatch(
        entries: [], lost: nil, reset: nil, cursor: cursor,
        head: layout.map { SequenceNumber(epoch: $0.header.epoch, value: $0.header.head) })
    }
    return plan.batch(try plan.entries(from: layout, as: Payload.self, key: key))
  }

  /// Reads and checks what a consumer at `cursor` needs of the outbox — the entry at the cursor
  /// and those after it, when the cursor is within the outbox's current epoch and numbers —
  /// or the whole outbox otherwise; `nil` when it holds no entry.
  ///
  /// A drain after a cursor near the head reads the outbox's newest few records, not all of
  /// them: its cost is the news. Every plan ``DeliveryPlan`` makes for `cursor` delivers only
  /// numbers from the cursor's on, which such a layout holds.
  ///
  /// - Complexity: O(*k*) in the entries from the cursor's on; O(*n*) in the outbox when it
  ///   reads all of it.
  func snapshot(after cursor: OutboxCursor) throws(SequenceTrackingError) -> OutboxLayout? {
    guard let last = cursor.last else { return try snapshot() }
    let tail: LogSnapshot?
    do {
      tail = try store.readLog(key, newest: 1)
    } catch {
      throw reported(error)
    }
    guard let tail, let header = try OutboxLayout.header(of: tail, key: key),
      last.epoch == header.epoch, (header.oldest...header.head).contains(last.value),
      header.head - last.value < UInt64(Int.max)
    else { return try snapshot() }
    let newest: LogSnapshot?
    do {
      newest = try store.readLog(key, newest: Int(header.head - last.value) + 1)
    } catch {
      throw reported(error)
    }
    // Published between the two reads: the newest records may no longer reach back to the
    // cursor's; the whole outbox does.
    guard let newest, newest.identity == tail.identity,
      newest.records.first?.position == last.value
    else { return try snapshot() }
    return try OutboxLayout(parsingNewest: newest, key: key)
  }

  /// Reads and checks the whole outbox, or returns `nil` when it holds no entry.
  func snapshot() throws(SequenceTrackingError) -> OutboxLayout? {
    let log: LogSnapshot?
    do {
      log = try store.readLog(key)
    } catch {
      throw reported(error)
    }
    guard let log else { return nil }
    return try OutboxLayout(parsing: log, key: key)
  }

  /// The error to report for a store error: a key holding a value is not an outbox; anything
  /// else is the store's (see ``SequenceTrackingError/init(_:committed:)``).
  private func reported(_ error: SharedStoreError, committed: CommittedChange? = nil)
    -> SequenceTrackingError
  {
    guard case .kindMismatch = error else {
      return SequenceTrackingError(error, committed: committed)
    }
    return .corruptedOutbox(key: key, reason: "the key holds a value, not an outbox's log")
  }
}
