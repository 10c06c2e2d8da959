import Foundation
import SharedStore
import SignalValues

// An outbox that heals: its high-water mark, its recoveries, and the quarantine of an outbox
// that cannot be read. <doc:/ScreenTimeKit/SequenceTracking-OutboxFormat> describes the keys.
extension SequencedOutbox {
  /// The most recoveries the recovery log keeps.
  static var recoveriesCapacity: Int { 32 }

  /// The key of the high-water mark of the outbox on `key`.
  static func markKey(of key: String) -> String { key + ".mark" }

  /// The key of the recovery log of the outbox on `key`.
  static func recoveriesKey(of key: String) -> String { key + ".recoveries" }

  /// Whether this outbox's producer may carry its mark in a record of its own
  /// (``init(store:key:capacity:markStore:carriedMark:)``).
  package var carriesMark: Bool { carriedMark != nil }

  /// The key of the outbox's high-water mark in its mark store, or `nil` for an outbox without
  /// one: the outbox's key followed by `.mark`.
  public var markKey: String? { mark?.key }

  /// The key of the outbox's recovery log in its store (see ``recoveries()``), or `nil` for an
  /// outbox without a mark: the outbox's key followed by `.recoveries`.
  public var recoveriesKey: String? { mark == nil ? nil : Self.recoveriesKey(of: key) }

  // MARK: - Healing

  /// Publishes `payload` as ``publish(_:)`` does, first moving the outbox aside when it cannot
  /// be read, so that a producer that runs unattended never stays stuck.
  ///
  /// When the publish fails because the outbox is damaged
  /// (``SequenceTrackingError/corruptedOutbox(key:reason:)``, a store error saying the log is
  /// corrupted), written by a newer version of this library
  /// (``SequenceTrackingError/unsupportedOutboxFormat(key:found:supported:)``, the store's
  /// unsupported format version) or went back further than a capacity, or to an epoch whose
  /// end is recorded (``SequenceTrackingError/rolledBack(key:epoch:newest:handedOut:)``), the
  /// outbox is moved aside with ``quarantine(because:)`` — its bytes are kept — and the payload
  /// is published in a new epoch. A torn tail left by a killed writer is not damage: the store repairs it.
  ///
  /// - Parameter payload: The entry to publish.
  /// - Returns: The entry's number and the recovery, if one was needed.
  /// - Throws: The errors of ``publish(_:then:)`` other than the ones healed; the errors of
  ///   ``quarantine(because:)`` but its `notDurable` — a move or a record that may not survive a
  ///   power cut does not stop the publish, whose new file's directory flush carries the move,
  ///   and a record not flushed is thrown after the publish as
  ///   ``SequenceTrackingError/notDurable(committed:key:path:errno:)`` with
  ///   ``CommittedChange/published(_:)``; or the error of the publish after the quarantine,
  ///   after which the recovery is recorded in ``recoveries()`` all the same.
  /// - Complexity: Like ``publish(_:then:)``; a quarantine renames one file.
  public func publishHealing(_ payload: Payload) throws(SequenceTrackingError)
    -> OutboxPublication
  {
    let record = try OutboxLayout.record(payload, key: key, canonical: canonicalPayload)
    guard let publication = try heal([record]) else {
      preconditionFailure("one record is published under one number")
    }
    return publication
  }

  /// Publishes `payloads` under consecutive numbers in one atomic write, as
  /// ``publish(contentsOf:then:)`` does, first moving the outbox aside when it cannot be read,
  /// as ``publishHealing(_:)`` does.
  ///
  /// - Parameter payloads: The entries to publish, in order. When empty, nothing is written.
  /// - Returns: The entries' numbers and the recovery, if one was needed; `nil` when `payloads`
  ///   is empty.
  /// - Throws: Like ``publishHealing(_:)``.
  /// - Complexity: O(*k*) in the size of the *k* new entries, amortised.
  public func publishHealing(contentsOf payloads: some Sequence<Payload>)
    throws(SequenceTrackingError) -> OutboxPublication?
  {
    try publishHealing(contentsOf: payloads, carryingMark: false)
  }

  /// Publishes `payloads` as ``publishHealing(contentsOf:)`` does; with `carryingMark`, the
  /// caller records the last number handed out in the record that ``carriedMark`` reads (see
  /// ``init(store:key:capacity:markStore:carriedMark:)``), in the same hold of the lock, and
  /// the mark log is not appended to.
  ///
  /// - Parameters:
  ///   - payloads: The entries to publish, in order. When empty, nothing is written.
  ///   - carryingMark: Whether the caller carries the mark. Pass `true` only for an outbox
  ///     opened with a carried mark, and record the number even when this throws
  ///     ``SequenceTrackingError/notDurable(committed:key:path:errno:)``; when the caller's
  ///     record cannot be written, ``markHandedOut(through:)`` keeps the number in the mark log.
  /// - Returns: The entries' numbers and the recovery, if one was needed; `nil` when `payloads`
  ///   is empty.
  /// - Throws: Like ``publishHealing(_:)``.
  /// - Complexity: O(*k*) in the size of the *k* new entries, amortised.
  package func publishHealing(contentsOf payloads: some Sequence<Payload>, carryingMark: Bool)
    throws(SequenceTrackingError) -> OutboxPublication?
  {
    var records: [Data] = []
    for payload in payloads {
      records.append(try OutboxLayout.record(payload, key: key, canonical: canonicalPayload))
    }
    return try heal(records, advancingMark: !(carryingMark && carriedMark != nil))
  }

  /// Appends `records`, quarantining an outbox that cannot be read first; `nil` for no record.
  private func heal(_ records: [Data], advancingMark: Bool = true) throws(SequenceTrackingError)
    -> OutboxPublication?
  {
    guard !records.isEmpty else { return nil }
    var failure: SequenceTrackingError?
    // Twice before quarantining: another producer may have moved the outbox aside and started
    // a new epoch in between, which a quarantine would move aside again.
    for _ in 0..<2 {
      do throws(SequenceTrackingError) {
        return OutboxPublication(
          numbers: try append(records, advancingMark: advancingMark) { _ in }, recovery: nil)
      } catch {
        guard isUnreadable(error) else { throw error }
        failure = error
      }
    }
    guard let failure else { preconditionFailure("a failed publish leaves its error") }
    // A move or a record that may not survive a power cut goes on all the same: both were made,
    // and thrown here, the fact was lost. The publish creates the new file by a rename and a
    // flush of the directory, which carries the move too (or fails, and says so); a record not
    // flushed is said after the publish.
    let (recovery, unflushed) = try moveAside(because: failure)
    let numbers = try append(records, advancingMark: advancingMark) { _ in }
    if case .notDurable(let key, let path, let errno)? = unflushed.record {
      throw .notDurable(committed: .published(numbers), key: key, path: path, errno: errno)
    }
    return OutboxPublication(numbers: numbers, recovery: recovery)
  }

  /// Whether `error` says that this outbox cannot be read or numbered: what
  /// ``publishHealing(_:)`` and a consumer's recovery heal by quarantining it.
  ///
  /// - Parameter error: An error thrown by this outbox.
  /// - Returns: `true` for damage, a newer layout or format version, and an outbox that went
  ///   back further than a capacity.
  public func isUnreadable(_ error: SequenceTrackingError) -> Bool {
    switch error {
    case .corruptedOutbox(let key, _), .unsupportedOutboxFormat(let key, _, _),
      .rolledBack(let key, _, _, _):
      return key == self.key
    case .store(.corrupted(let key, _, _)), .store(.unsupportedFormatVersion(let key, _, _, _)):
      return key == self.key
    default:
      return false
    }
  }

  /// Moves the outbox aside, keeping its bytes, and records why in the recovery log; the next
  /// publish starts a new epoch.
  ///
  /// The recovery names the epoch and the last number the high-water mark recorded, so that a
  /// consumer knows which numbers it will never receive (``OutboxRecovery/lost(after:)``). Call
  /// it only for an outbox that cannot be read: it moves whatever is stored, also an outbox
  /// another process healed a moment ago (then its consumers are told of the numbers it held,
  /// as lost). The marks are read before the move: the numbers a producer publishes in between
  /// go aside past the recorded end. Read the outbox again and call this in one hold of the
  /// store's lock when producers run in other processes, as ``/AppPipeline/UsagePipeline``
  /// does on a ``/SharedStore/FileStore``.
  ///
  /// - Parameter error: Why the outbox cannot be read; its description is the recovery's
  ///   reason.
  /// - Returns: The recovery, also recorded in ``recoveries()`` when the outbox has a mark.
  /// - Throws: ``SequenceTrackingError/store(_:)`` when the outbox cannot be moved aside, or
  ///   the recovery cannot be recorded (the outbox was moved aside then);
  ///   ``SequenceTrackingError/notDurable(committed:key:path:errno:)`` with
  ///   ``CommittedChange/movedAside(_:)`` when the move or the record may not survive a power
  ///   cut: both were made (the error's path is the moved file's after a move).
  @discardableResult
  public func quarantine(because error: SequenceTrackingError) throws(SequenceTrackingError)
    -> OutboxRecovery
  {
    let (recovery, unflushed) = try moveAside(because: error)
    if case .notDurable(let key, let path, let errno)? = unflushed.move ?? unflushed.record {
      throw .notDurable(committed: .movedAside(recovery), key: key, path: path, errno: errno)
    }
    return recovery
  }

  /// Moves the outbox aside and records the recovery, as ``quarantine(because:)`` does; returns
  /// the store's `notDurable` of the move and of the record instead of throwing them, when they
  /// may not survive a power cut.
  private func moveAside(because error: SequenceTrackingError) throws(SequenceTrackingError)
    -> (OutboxRecovery, unflushed: (move: SharedStoreError?, record: SharedStoreError?))
  {
    let last: SequenceNumber?
    if case .rolledBack(_, let epoch, _, let handedOut) = error {
      last = SequenceNumber(epoch: epoch, value: handedOut)
    } else {
      let marks = readMarks()
      // A recovery log that cannot be read leaves the guess to the carried record, written
      // last; the recovery then cannot be recorded either, and this throws after the move.
      last = (try? lastNumber(of: marks)) ?? marks.byEpoch.first?.number
    }
    let path: String?
    var unflushed: (move: SharedStoreError?, record: SharedStoreError?) = (nil, nil)
    do throws(SharedStoreError) {
      path = try store.quarantine(key)
    } catch {
      // Moved aside, but perhaps not past a power cut: the epoch ended all the same, and its
      // consumers must learn which numbers it took with it.
      guard case .notDurable(_, let kept, _) = error else { throw .store(error) }
      path = kept
      unflushed.move = error
    }
    let recovery = OutboxRecovery(
      epoch: last?.epoch, lastNumber: last?.value, quarantinedTo: path,
      reason: error.description)
    do throws(SequenceTrackingError) {
      try record(recovery)
    } catch {
      // Appended, not flushed: recorded.
      guard case .store(let stored) = error, case .notDurable = stored else { throw error }
      unflushed.record = stored
    }
    return (recovery, unflushed)
  }

  /// Returns the recoveries recorded for this outbox, oldest first: the epochs that ended
  /// before their consumers could reach their ends; empty for an outbox without a mark.
  ///
  /// - Returns: The newest recoveries, at most 32.
  /// - Throws: ``SequenceTrackingError/store(_:)``, also when the log does not decode.
  public func recoveries() throws(SequenceTrackingError) -> [OutboxRecovery] {
    guard let log = try recoveryLog() else { return [] }
    do {
      return try log.entries()
    } catch {
      throw .store(error)
    }
  }

  /// Records that every number up to `number` was handed out, for a consumer that applied
  /// entries up to it and finds the outbox behind: the producers then number on after it
  /// instead of handing those numbers out again.
  ///
  /// Call it when a drain reports ``SequenceResetReason/wentBackwards(from:)``: the outbox and
  /// its mark went back together (a folder restored from an older backup), and only the
  /// consumer remembers how far the numbering had gone. ``/AppPipeline/UsagePipeline`` does.
  /// It does nothing for an outbox without a mark, or when the mark is already there or
  /// beyond.
  ///
  /// - Parameter number: The last number the consumer applied.
  public func markHandedOut(through number: SequenceNumber) {
    advanceMark(to: SequenceRange(epoch: number.epoch, values: number.value...number.value))
  }

  // MARK: - The mark

  /// How many numbers the outbox whose log is `log` is behind `floor`, the mark of its epoch read
  /// before the append: 0 without one, or when it is not ahead.
  ///
  /// - Throws: ``SequenceTrackingError/rolledBack(key:epoch:newest:handedOut:)`` when the outbox
  ///   is more than `capacity` numbers behind: writing that many vanished numbers is not
  ///   worth it, since a consumer would be told of them as evicted ones anyway.
  static func vanishedCount(
    in log: LogSnapshot, below floor: OutboxMark?, capacity: Int, key: String
  ) throws(SequenceTrackingError) -> UInt64 {
    let newest = log.nextPosition - 1
    guard let floor, floor.number.epoch.rawValue == log.identity, floor.number.value > newest
    else { return 0 }
    let behind = floor.number.value - newest
    guard behind <= UInt64(capacity) else {
      throw .rolledBack(
        key: key, epoch: floor.number.epoch, newest: newest, handedOut: floor.number.value)
    }
    return behind
  }

  /// Returns the last number the outbox's producers handed out, as its high-water mark keeps
  /// it: at least the outbox's newest number, unless a producer was killed between the two
  /// writes or a power cut took the mark's (it is not flushed).
  ///
  /// For an outbox whose producer carries the mark in a record of its own (the folder's
  /// outbox in TrackerSignals, whose mark the monitor extension's heartbeat carries), it is
  /// that record's number, or the mark log's when that is higher in the same epoch; when the
  /// two name different epochs (for a while after another writer began a new one), the one of
  /// the stored outbox's epoch, or, when its header cannot be read, the one whose end
  /// ``recoveries()`` does not hold.
  ///
  /// - Returns: The number, or `nil` for an outbox without a mark or before its first publish.
  /// - Throws: ``SequenceTrackingError/store(_:)`` when the mark log cannot be read, or the
  ///   recovery log when it is needed (two epochs, and an outbox whose header cannot be read);
  ///   ``SequenceTrackingError/corruptedOutbox(key:reason:)`` (with the mark's key) for a record
  ///   that is not a mark's.
  public func lastHandedOut() throws(SequenceTrackingError) -> SequenceNumber? {
    try lastNumber(
      of: OutboxMarks(
        logged: try loggedMark().map(OutboxMark.init),
        carried: carriedMark?().map(OutboxMark.init)))
  }

  /// The last number handed out according to `marks`: the mark of the one epoch they name, or,
  /// when they name two, the mark of the stored outbox's epoch when its header reads, else of
  /// the first epoch whose end is not recorded in ``recoveries()`` (the other ended before it
  /// began), else the carried one.
  ///
  /// - Throws: ``SequenceTrackingError/store(_:)`` when the recovery log, needed only for two
  ///   epochs and an outbox whose header does not read, cannot be read.
  private func lastNumber(of marks: OutboxMarks) throws(SequenceTrackingError) -> SequenceNumber? {
    let candidates = marks.byEpoch
    guard candidates.count > 1 else { return candidates.first?.number }
    if let identity = try? store.readLog(key, newest: 0)?.identity,
      let current = marks.current(inEpoch: identity)
    {
      return current.number
    }
    // A stored outbox that cannot be read (the quarantine's case) leaves the recovery log.
    let recorded = Set(try recoveries().compactMap(\.epoch))
    return (candidates.first { !recorded.contains($0.number.epoch) } ?? candidates[0]).number
  }

  /// The newest record of the mark log alone, or `nil` for an outbox without a mark or before
  /// its first mark; ``lastHandedOut()`` weighs it with the carried mark.
  ///
  /// - Returns: The number the mark log holds.
  /// - Throws: Like ``lastHandedOut()``.
  package func loggedMark() throws(SequenceTrackingError) -> SequenceNumber? {
    guard let mark else { return nil }
    let log: LogSnapshot?
    do {
      log = try mark.store.readLog(mark.key, newest: 1)
    } catch {
      throw .store(error)
    }
    guard let newest = log?.records.last else { return nil }
    guard let stored = OutboxMark(record: newest.bytes) else {
      throw .corruptedOutbox(
        key: mark.key,
        reason: "the mark's record has \(newest.bytes.count) bytes, not \(OutboxMark.recordSize)")
    }
    return stored.number
  }

  /// Both records of the mark, each `nil` when there is none or it cannot be read: a mark that
  /// cannot be read protects nothing, and the next publish writes a new one.
  ///
  /// With `healing` — a publish that carries the mark, which rarely writes the mark log and so
  /// would read a damaged one, and fail, at every publish — a log the store cannot read as a
  /// log is moved aside, as ``markHandedOut(through:)`` does before it writes. Its producer
  /// makes that publish inside the folder's hold of the lock, so that no other writer can have
  /// written the log since it was read. A log whose newest record is not a mark's is left: the
  /// next record appended to it is.
  ///
  /// - Parameter healing: Whether to move a damaged mark log aside.
  /// - Returns: The records.
  func readMarks(healing: Bool = false) -> OutboxMarks {
    guard let mark else { return OutboxMarks() }
    var logged: OutboxMark?
    do {
      logged = try loggedMark().map(OutboxMark.init)
    } catch {
      switch error {
      case .store(.corrupted), .store(.unsupportedFormatVersion), .store(.kindMismatch):
        // A move that fails leaves the log for the next publish to try again; meanwhile it
        // protects nothing, as any mark that cannot be read.
        if healing { _ = try? mark.store.quarantine(mark.key) }
      default:
        break
      }
    }
    return OutboxMarks(logged: logged, carried: carriedMark?().map(OutboxMark.init))
  }

  /// The last number ``recoveries()`` records for `epoch`, or `nil` when it records no end of
  /// it — or cannot be read: an end that cannot be read cannot be told from one never
  /// recorded, and the publish then goes on as it would without one.
  func recordedEnd(of epoch: SequenceEpoch) -> UInt64? {
    let recorded: [OutboxRecovery]
    do {
      recorded = try recoveries()
    } catch {
      return nil
    }
    return recorded.last { $0.epoch == epoch }.map { $0.lastNumber ?? 0 }
  }

  /// Records the end of the epoch `mark` numbered last, which is gone, unless a quarantine
  /// recorded it already.
  ///
  /// A failure is not the publish's: the recovery log is the outbox's store's, whose failure
  /// the publish reports next.
  func recordEnd(of mark: OutboxMark) {
    try? record(
      OutboxRecovery(
        epoch: mark.number.epoch, lastNumber: mark.number.value, quarantinedTo: nil,
        reason:
          "the outbox of epoch \(mark.number.epoch) vanished: it was removed, or replaced by "
          + "another epoch's"))
  }

  /// Records `numbers` in the mark, unless it is already there or beyond.
  ///
  /// Failures are not the publish's: the entries are published. A mark that cannot be written
  /// protects the next publishes less, and the store it is kept in (on a `SharedFolder`, the
  /// heartbeats') reports its failure at its next write; a mark that is damaged is moved aside
  /// and written anew.
  func advanceMark(to numbers: SequenceRange) {
    guard let mark else { return }
    let newest = OutboxMark(SequenceNumber(epoch: numbers.epoch, value: numbers.values.upperBound))
    let append = { () throws(SharedStoreError) -> Void in
      try mark.store.appendToLog(
        mark.key, capacity: OutboxMark.capacity, examiningNewest: 1
      ) { log in
        if let stored = log.records.last.flatMap({ OutboxMark(record: $0.bytes) }),
          stored.number.epoch == newest.number.epoch, stored.number.value >= newest.number.value
        {
          return []
        }
        return [newest.record]
      }
    }
    do {
      try append()
    } catch {
      switch error {
      case .corrupted, .unsupportedFormatVersion, .kindMismatch:
        _ = try? mark.store.quarantine(mark.key)
        try? append()
      default:
        return
      }
    }
  }

  /// Appends `recovery` to the recovery log, unless a recovery of its epoch is there already.
  private func record(_ recovery: OutboxRecovery) throws(SequenceTrackingError) {
    guard let log = try recoveryLog() else { return }
    do {
      if let epoch = recovery.epoch, try log.entries().contains(where: { $0.epoch == epoch }) {
        return
      }
      try log.append(recovery)
    } catch {
      throw .store(error)
    }
  }

  private func recoveryLog() throws(SequenceTrackingError) -> BoundedLog<OutboxRecovery>? {
    guard mark != nil else { return nil }
    do {
      return try BoundedLog(
        store: store, key: Self.recoveriesKey(of: key), capacity: Self.recoveriesCapacity)
    } catch {
      throw .store(error)
    }
  }
}
