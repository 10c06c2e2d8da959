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
/// **Healing.** An outbox opened with a mark store (``init(store:key:capacity:markStore:)``)
/// keeps the last number handed out beside it, so that an outbox that went back (truncated,
/// restored from an older copy) never hands a number out twice in its epoch: a publish numbers
/// on after the mark and the numbers between are delivered as ``OutboxBatch/vanished`` (the
/// folder's outbox in TrackerSignals keeps its mark in the monitor extension's heartbeats). A
/// producer that runs unattended publishes with ``publishHealing(_:)``, which moves an outbox it
/// cannot read aside and starts a new epoch; every epoch that ends that way, or because the key
/// was removed, is recorded with its last number in ``recoveries()``.
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
  /// Where the high-water mark and its key live, or `nil` for an outbox without one.
  let mark: (store: any SharedStore, key: String)?
  /// Reads the mark its producer carries in records of its own, for an outbox whose producer
  /// does (``init(store:key:capacity:markStore:carriedMark:)``).
  let carriedMark: (@Sendable () -> SequenceNumber?)?
  /// `Payload` when it writes its own JSON, found once here: asked at every publish, the
  /// runtime's conformance lookup cost more than a fact's whole encoding.
  let canonicalPayload: (any CanonicalJSONEncodable.Type)?
  /// The stores a publish writes: the outbox's, and the mark's when there is one.
  package var backingStores: [any SharedStore] { [store] + (mark.map { [$0.store] } ?? []) }

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
    self.init(store: store, key: key, capacity: capacity, mark: nil, carriedMark: nil)
  }

  private init(
    store: any SharedStore, key: String, capacity: Int, mark: (any SharedStore, String)?,
    carriedMark: (@Sendable () -> SequenceNumber?)?
  ) {
    self.store = store
    self.key = key
    self.capacity = capacity
    self.mark = mark
    self.carriedMark = carriedMark
    canonicalPayload = Payload.self as? any CanonicalJSONEncodable.Type
  }

  /// Creates an outbox on `key` of `store` that keeps a high-water mark in `markStore`, so that
  /// it heals: no number is handed out twice in an epoch even when the outbox goes back, and
  /// every epoch that ends before its consumers reach its end is recorded with its last number.
  ///
  /// The mark is a small log under ``markKey`` in `markStore`, appended after each publish: use
  /// a store without flushes (`FileStore.Durability.processCrashSafe`) so that it adds no flush
  /// to a publish. A publish reads it first and, when the outbox holds fewer numbers than were
  /// handed out (truncated, restored from an older copy), continues after the mark, writing the
  /// numbers between as vanished (``OutboxBatch/vanished``). What ended an epoch is kept in the
  /// outbox's store under ``recoveriesKey`` (``recoveries()``). Every producer and consumer of
  /// the outbox should open it with the same mark store. The folder's outbox in TrackerSignals,
  /// whose mark the monitor extension's heartbeat carries, is opened with
  /// ``/TrackerSignals/SharedFolder`` (``/TrackerSignals/SharedFolder/outbox``): an outbox
  /// opened on its key with this initializer does not read that mark, and may hand a number
  /// out again after the outbox goes back.
  ///
  /// - Parameters:
  ///   - store: The store shared by the producers and the consumers.
  ///   - key: A valid store key of at most 89 characters: the mark's and the recoveries' keys
  ///     add a suffix of up to 11 to it.
  ///   - capacity: The most entries kept, at least 1.
  ///   - markStore: The store of the high-water mark; it may be `store` itself (for a store
  ///     in memory), at the cost of its flushes.
  /// - Throws: ``SequenceTrackingError/store(_:)`` for an invalid key, or
  ///   ``SequenceTrackingError/invalidCapacity(key:capacity:)``.
  public init(store: any SharedStore, key: String, capacity: Int, markStore: any SharedStore)
    throws(SequenceTrackingError)
  {
    try self.init(
      store: store, key: key, capacity: capacity, markStore: markStore, carriedMark: nil)
  }

  /// Creates an outbox that heals, as ``init(store:key:capacity:markStore:)`` does, whose
  /// producer may carry the high-water mark in a record of its own instead of the mark log.
  ///
  /// A publish that carries the mark (``publishHealing(contentsOf:carryingMark:)``) does not
  /// append to the mark log; its producer writes the number handed out in its own record, in
  /// the same hold of the lock, and `carriedMark` reads it back. The mark of the outbox's epoch
  /// is then the higher of the two records of that epoch (the mark log still holds what other
  /// writers put there). The monitor extension's heartbeat carries it: one append fewer per
  /// callback (`SharedFolder`, TrackerSignals).
  ///
  /// - Parameters:
  ///   - store: The store shared by the producers and the consumers.
  ///   - key: A valid store key of at most 89 characters.
  ///   - capacity: The most entries kept, at least 1.
  ///   - markStore: The store of the mark log.
  ///   - carriedMark: Reads the newest carried mark; `nil` when there is none, or it cannot be
  ///     read (a mark that cannot be read protects nothing). `nil` for an outbox whose
  ///     producers all write the mark log.
  /// - Throws: Like ``init(store:key:capacity:markStore:)``.
  package init(
    store: any SharedStore, key: String, capacity: Int, markStore: any SharedStore,
    carriedMark: (@Sendable () -> SequenceNumber?)?
  ) throws(SequenceTrackingError) {
    let plain = try SequencedOutbox(store: store, key: key, capacity: capacity)
    do {
      try StoreKeyRules.validate(Self.markKey(of: key))
      try StoreKeyRules.validate(Self.recoveriesKey(of: key))
    } catch {
      throw .store(error)
    }
    self.init(
      store: plain.store, key: key, capacity: capacity, mark: (markStore, Self.markKey(of: key)),
      carriedMark: carriedMark)
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
    let record = try OutboxLayout.record(payload, key: key, canonical: canonicalPayload)
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
      records.append(try OutboxLayout.record(payload, key: key, canonical: canonicalPayload))
    }
    guard !records.isEmpty else { return nil }
    return try append(records, then: notify)
  }

  /// Appends `records` to the outbox's log in one store append, which numbers them, and calls
  /// `notify` once they are stored — also when the store could not flush them, since readers
  /// can already see them.
  ///
  /// With a mark, the records are numbered after the mark when the outbox holds fewer numbers
  /// (the numbers between are written as vanished), and the mark log is advanced afterwards
  /// unless the producer carries the mark (`advancingMark` false) and the log names the
  /// outbox's epoch (or holds no mark). Every other epoch a mark names is recorded as ended
  /// before the records are appended (see ``othersHaveEnded(in:marks:)``). An outbox that holds
  /// entries of an epoch whose end is recorded already — found when a mark names another epoch,
  /// or when the outbox is behind its own mark — was restored from a copy older than that end:
  /// it is refused with ``SequenceTrackingError/rolledBack(key:epoch:newest:handedOut:)``,
  /// which ``publishHealing(_:)`` heals with a new epoch, after the other epochs' ends are
  /// recorded. `checkedEpochs` says that this publish did both already (its second pass).
  func append(
    _ records: [Data],
    checkedEpochs: Bool = false,
    advancingMark: Bool = true,
    then notify: (SequenceRange) -> Void
  ) throws(SequenceTrackingError) -> SequenceRange {
    let key = key
    let capacity = capacity
    let marks = readMarks(healing: !advancingMark)
    var refusal: SequenceTrackingError?
    var assigned: SequenceRange?
    var ended: [OutboxMark] = []
    // The outbox's epoch and newest number, to look up in the recovery log: when it holds
    // entries and a mark names another epoch, or when it is behind its own mark.
    var held: SequenceNumber?
    var staleLog = false
    do {
      try store.appendToLog(key, capacity: capacity, examiningNewest: 1) { log in
        do throws(SequenceTrackingError) {
          _ = try OutboxLayout.header(of: log, key: key)
          let newest = SequenceNumber(
            epoch: SequenceEpoch(rawValue: log.identity), value: log.nextPosition - 1)
          if !checkedEpochs, Self.othersHaveEnded(in: log, marks: marks) {
            // An epoch a mark numbered is gone (removed, moved aside, or replaced by an older
            // copy of another): record its end before this epoch's next entry, so that a
            // consumer crossing to this epoch finds it.
            ended = marks.ended(inEpoch: log.identity)
            if log.nextPosition > 1 { held = newest }
            return []
          }
          staleLog = marks.logIsStale(inEpoch: log.identity)
          let vanished = try Self.vanishedCount(
            in: log, below: marks.current(inEpoch: log.identity), capacity: capacity, key: key)
          if !checkedEpochs, vanished > 0 {
            // Behind its own mark, the outbox went back: to a copy of an epoch that ended, if
            // the recovery log says so (a consumer's `markHandedOut` can have written that mark
            // after the copy came back). Only after the outbox went back: no cost otherwise.
            held = newest
            return []
          }
          let count = UInt64(records.count) + vanished
          guard log.nextPosition <= UInt64.max - count else { throw .exhausted(key: key) }
          let first = log.nextPosition + vanished
          assigned = SequenceRange(
            epoch: SequenceEpoch(rawValue: log.identity),
            values: first...(first + UInt64(records.count) - 1))
          guard vanished > 0 else { return records }
          return Array(repeating: Data(), count: Int(vanished)) + records
        } catch {
          refusal = error
          return []
        }
      }
    } catch {
      let error = reported(error, committed: assigned.map(CommittedChange.published))
      if case .notDurable(.published(let stored), _, _, _) = error {
        if advancingMark || staleLog { advanceMark(to: stored) }
        notify(stored)
      }
      throw error
    }
    if let refusal { throw refusal }
    if !ended.isEmpty || held != nil {
      if let held, let end = recordedEnd(of: held.epoch) {
        // The outbox holds an epoch that ended: numbering on in it would hand its numbers out
        // again, and a consumer already past its end would never receive them. The epochs the
        // marks name besides it ended too (the copy replaced them): recorded first, so that a
        // consumer that drains before the outbox is healed is told of them.
        for mark in marks.ended(inEpoch: held.epoch.rawValue) { recordEnd(of: mark) }
        throw .rolledBack(
          key: key, epoch: held.epoch, newest: held.value, handedOut: max(end, held.value))
      }
      for mark in ended { recordEnd(of: mark) }
      return try append(records, checkedEpochs: true, advancingMark: advancingMark, then: notify)
    }
    guard let assigned else { preconditionFailure("an append numbers its records") }
    // A producer that carries the mark writes the log too when it names another epoch: once,
    // so that the ended epoch is not found again at every publish.
    if advancingMark || staleLog { advanceMark(to: assigned) }
    notify(assigned)
    return assigned
  }

  /// Whether the epochs other than the outbox's that `marks` name have ended, so that a
  /// publish records their ends first.
  ///
  /// Before an epoch's first entry, every other epoch a mark names is gone. Once the epoch
  /// holds entries, so is one named by the mark log, which every publish in this epoch writes
  /// (a producer that carries the mark, once), or by the only record there is: the outbox was
  /// replaced since they were written. A carried record of another epoch beside a logged one of
  /// this epoch is only one its producer has not written since another producer began this
  /// epoch, and not news: looked up at every publish until then, it would cost the recovery
  /// log's read.
  static func othersHaveEnded(in log: LogSnapshot, marks: OutboxMarks) -> Bool {
    guard marks.namesOtherEpoch(than: log.identity) else { return false }
    return log.nextPosition == 1 || marks.logIsStale(inEpoch: log.identity)
      || marks.current(inEpoch: log.identity) == nil
  }

  /// The error to report for a store error: a key holding a value is not an outbox; anything
  /// else is the store's (see ``SequenceTrackingError/init(_:committed:)``).
  func reported(_ error: SharedStoreError, committed: CommittedChange? = nil)
    -> SequenceTrackingError
  {
    guard case .kindMismatch = error else {
      return SequenceTrackingError(error, committed: committed)
    }
    return .corruptedOutbox(key: key, reason: "the key holds a value, not an outbox's log")
  }
}
