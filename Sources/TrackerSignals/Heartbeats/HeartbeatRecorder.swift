import Foundation
import SequenceTracking
import SharedStore
import SignalValues

/// Keeps the latest heartbeat and a bounded history of one source in a ``/SharedStore``.
///
/// The monitor extension records a heartbeat every ~30 seconds; the app reads ``latest()`` to
/// judge health and ``history()`` to find gaps. The history is an append-only log of binary
/// records under one key (`stk.heartbeats.<source>`), so recording appends one record of at most
/// 42 bytes to it — whatever the history holds — after reading and comparing the newest one: no
/// JSON, no array of 2,880 values, no rewrite of the day on the extension's hot path (6 MB memory
/// limit). The store compacts the log once every `capacity` heartbeats.
/// <doc:/ScreenTimeKit/Performance> has measured costs.
///
/// **Durability.** Heartbeats are ephemeral: one lost to a power cut is replaced 30 seconds
/// later. Record them through a ``/SharedStore/FileStore`` opened with `.processCrashSafe`, which
/// skips the flushes that make a write survive a power cut but still never tears a value.
/// Durability is a property of the store instance, so either open a second `FileStore` on the
/// app-group directory for heartbeats (two instances on one directory exclude each other
/// correctly), or let ``init(directory:source:capacity:)`` do it for you:
///
/// ```swift
/// // In the monitor extension:
/// let recorder = try HeartbeatRecorder(directory: storeDirectory, source: .monitorExtension)
/// try recorder.record(at: Date(), sequence: counter, memoryBytes: residentBytes())
///
/// // In the app:
/// let health = HealthPolicy.standard.health(of: try recorder.latest(), at: Date())
/// ```
///
/// Recording the same heartbeat twice (a retried write) stores it once. The store's append is
/// atomic across processes, so two writers never lose each other's heartbeats.
public struct HeartbeatRecorder: Sendable {
  /// A day of heartbeats at a 30-second cadence: 2,880.
  public static let defaultCapacity = 2_880
  /// The largest capacity accepted: a week at a 30-second cadence, 20,160 records.
  ///
  /// Recording reads the end of the history only, but once every `capacity` heartbeats the store
  /// compacts it: it reads the file in 64 KiB pieces and builds the new one in memory, which
  /// raised the peak resident size by about 0.5 MiB at the default capacity and 1 MiB at this
  /// maximum when measured; ``history()`` reads the whole file, up to twice the capacity. Mind
  /// the monitor extension's 6 MB. <doc:/ScreenTimeKit/Performance> has the measured figures.
  public static let maximumCapacity = 20_160

  /// Whose heartbeats this recorder keeps.
  public let source: HeartbeatSource
  /// The most heartbeats kept; older ones are evicted and counted.
  public let capacity: Int
  /// The store key of the history: `stk.heartbeats.<source>`.
  public let key: String
  private let store: any SharedStore
  /// The store the history is kept in.
  package var backingStore: any SharedStore { store }

  /// Creates a recorder on `store` with the default capacity, a day at 30 s; nothing is
  /// written until the first heartbeat.
  ///
  /// ```swift
  /// let recorder = HeartbeatRecorder(store: heartbeatStore, source: .monitorExtension)
  /// ```
  ///
  /// - Parameters:
  /// - store: The shared store; for heartbeats, a ``/SharedStore/FileStore`` opened with
  ///     `.processCrashSafe`.
  ///   - source: Whose heartbeats to keep.
  public init(store: any SharedStore, source: HeartbeatSource) {
    self.init(unchecked: store, source: source, capacity: Self.defaultCapacity)
  }

  /// Creates a recorder on `store` that keeps `capacity` heartbeats; nothing is written until
  /// the first heartbeat.
  ///
  /// - Parameters:
  /// - store: The shared store; for heartbeats, a ``/SharedStore/FileStore`` opened with
  ///     `.processCrashSafe`.
  ///   - source: Whose heartbeats to keep.
  ///   - capacity: The most heartbeats kept, 1...``maximumCapacity`` (see its memory note).
  ///     A history stored with another capacity is rewritten with this one on the next record,
  ///     keeping the newest heartbeats.
  /// - Throws: ``TrackerSignalsError/invalidValue(field:value:requirement:)`` for a capacity out of
  ///   range.
  public init(
    store: any SharedStore, source: HeartbeatSource, capacity: Int
  ) throws(TrackerSignalsError) {
    guard (1...Self.maximumCapacity).contains(capacity) else {
      throw .invalidValue(
        field: "capacity", value: "\(capacity)", requirement: "1...\(Self.maximumCapacity)")
    }
    self.init(unchecked: store, source: source, capacity: capacity)
  }

  /// A recorder whose capacity the caller has checked.
  init(unchecked store: any SharedStore, source: HeartbeatSource, capacity: Int) {
    self.store = store
    self.source = source
    self.capacity = capacity
    self.key = Self.key(of: source)
  }

  /// Creates a recorder on its own ``/SharedStore/FileStore`` in `directory`, opened with
  /// `.processCrashSafe`.
  ///
  /// Other `FileStore`s on the same directory — the app's `.durable` one — keep their own
  /// durability and exclude this one correctly.
  ///
  /// - Parameters:
  ///   - directory: The shared store's directory, for example in the app-group container.
  ///   - source: Whose heartbeats to keep.
  ///   - capacity: The most heartbeats kept, 1...``maximumCapacity``; a day at 30 s unless you
  ///     choose otherwise.
  /// - Throws: ``TrackerSignalsError/store(_:)`` when the store cannot be opened, and
  ///   ``TrackerSignalsError/invalidValue(field:value:requirement:)`` for a capacity out of
  ///   range.
  public init(
    directory: URL, source: HeartbeatSource, capacity: Int = defaultCapacity
  ) throws(TrackerSignalsError) {
    let store: FileStore
    do {
      store = try FileStore(directory: directory, durability: .processCrashSafe)
    } catch {
      throw .store(error)
    }
    try self.init(store: store, source: source, capacity: capacity)
  }

  /// Records a heartbeat of this recorder's source.
  ///
  /// - Parameter heartbeat: The heartbeat; its source must be ``source``.
  /// - Returns: Whether it was stored, or was equal to the latest and changed nothing.
  /// - Throws: ``TrackerSignalsError/sourceMismatch(recorder:heartbeat:)``,
  ///   ``TrackerSignalsError/corruptedHeartbeatHistory(key:reason:)`` for a newest record that
  ///   does not decode (nothing is written) and ``TrackerSignalsError/store(_:)``.
  /// - Complexity: O(1): one record appended after the newest is read; O(*n*) once every
  ///   ``capacity`` records, and once when the capacity changed, when the store compacts.
  @discardableResult
  public func record(_ heartbeat: Heartbeat) throws(TrackerSignalsError) -> HeartbeatRecordOutcome {
    try recordReturningPrevious(heartbeat).outcome
  }

  /// Records `heartbeat` and returns the latest heartbeat before it, read in the same atomic
  /// append (the newest record, which recording reads anyway).
  ///
  /// The record carries the outbox's high-water mark (``carriedMark()``): `mark` recorded over
  /// the previous record's (`SequenceNumber.highWaterMark(recording:over:)`), so that a
  /// heartbeat without a new number keeps the one before it.
  package func recordReturningPrevious(_ heartbeat: Heartbeat, mark: SequenceNumber? = nil)
    throws(TrackerSignalsError) -> (outcome: HeartbeatRecordOutcome, previous: Heartbeat?)
  {
    guard heartbeat.source == source else {
      throw .sourceMismatch(recorder: source.rawValue, heartbeat: heartbeat.source.rawValue)
    }
    var record = HeartbeatRecordFormat.Record(
      instant: heartbeat.instant, sequence: heartbeat.sequence,
      memoryBytes: heartbeat.memoryBytes, mark: mark)
    var previous: HeartbeatRecordFormat.Record?
    var damage: HeartbeatRecordFormat.Damage?
    let appended: LogAppend?
    do {
      appended = try store.appendToLog(key, capacity: capacity, examiningNewest: 1) {
        log throws(SharedStoreError) -> [Data] in
        guard let newest = log.records.last else { return [HeartbeatRecordFormat.encode(record)] }
        do throws(HeartbeatRecordFormat.Damage) {
          previous = try HeartbeatRecordFormat.decode(newest)
        } catch {
          damage = error
          return []
        }
        // The outbox's mark rides on every record: one without a new number carries the
        // previous record's forward, so that the newest record always holds it.
        record.mark = SequenceNumber.highWaterMark(recording: mark, over: previous?.mark)
        return previous == record ? [] : [HeartbeatRecordFormat.encode(record)]
      }
    } catch {
      throw mapped(error)
    }
    if let damage { throw .corruptedHeartbeatHistory(key: key, reason: damage.reason) }
    return (appended == nil ? .duplicate : .recorded, previous.map(self.heartbeat))
  }

  /// The outbox's high-water mark the newest heartbeat carries (see ``SharedFolder/outbox``).
  ///
  /// It is `nil` when there is none or the history cannot be read: a mark that cannot be read
  /// protects nothing. That is not silent: the callback's own
  /// heartbeat then fails on the same history, reports it, and writes its number to the
  /// outbox's mark log instead — though the publish before it ran without the carried mark, and
  /// would have numbered on from the outbox and its mark log alone had the outbox also gone back.
  ///
  /// - Returns: The last number the monitor extension handed out, as its heartbeats carry it.
  /// - Complexity: O(1): the newest record is read, from memory after one `fstatat` when the
  ///   calling thread holds the folder's lock and appended to the history last (see
  ///   ``/SharedStore/FileStore/readLog(_:newest:)``).
  package func carriedMark() -> SequenceNumber? {
    guard let newest = try? store.readLog(key, newest: 1)?.records.last else { return nil }
    return (try? HeartbeatRecordFormat.decode(newest))?.mark
  }

  /// Records a heartbeat of this recorder's source at `at`.
  ///
  /// - Parameters:
  ///   - at: When it was written; rounded to the millisecond.
  ///   - sequence: The producer's notification counter, if any.
  ///   - memoryBytes: The writer's resident memory in bytes, if measured.
  /// - Returns: Whether it was stored, or was equal to the latest and changed nothing.
  /// - Throws: The errors of `Heartbeat.init(at:source:sequence:memoryBytes:)` and
  ///   ``record(_:)``.
  @discardableResult
  public func record(
    at: Date, sequence: UInt64? = nil, memoryBytes: UInt64? = nil
  ) throws(TrackerSignalsError) -> HeartbeatRecordOutcome {
    try record(
      TrackerSignalsError.checking(
        Heartbeat(at: at, source: source, sequence: sequence, memoryBytes: memoryBytes)))
  }

  /// The most recently recorded heartbeat, or `nil` when none was ever recorded.
  ///
  /// - Returns: The latest heartbeat.
  /// - Throws: ``TrackerSignalsError/corruptedHeartbeatHistory(key:reason:)`` or
  ///   ``TrackerSignalsError/store(_:)``.
  public func latest() throws(TrackerSignalsError) -> Heartbeat? {
    guard let newest = try read(newest: 1)?.records.last else { return nil }
    do {
      return heartbeat(try HeartbeatRecordFormat.decode(newest))
    } catch {
      throw .corruptedHeartbeatHistory(key: key, reason: error.reason)
    }
  }

  /// Every kept heartbeat, oldest first, with the number evicted.
  ///
  /// - Returns: The history; empty when nothing was recorded.
  /// - Throws: ``TrackerSignalsError/corruptedHeartbeatHistory(key:reason:)`` or
  ///   ``TrackerSignalsError/store(_:)``.
  /// - Complexity: O(*n*) in the number of kept heartbeats.
  public func history() throws(TrackerSignalsError) -> HeartbeatHistory {
    guard let log = try read(newest: nil) else {
      return HeartbeatHistory(source: source, capacity: capacity, evictedCount: 0, heartbeats: [])
    }
    return try history(of: log, after: [])
  }

  /// The newest heartbeats back to the last one recorded before `instant` (milliseconds since
  /// 1970), oldest first: a history whose heartbeats are that suffix of the kept ones, or all of
  /// them when none is older.
  ///
  /// For a reader of one window (an app's dashboard for a day), which needs the heartbeats in
  /// it and the last one before it: it reads from the end of the history, 64 heartbeats and then
  /// four times as many each time, instead of the whole history. ``history(updating:)`` extends
  /// such a history with what was recorded since. Heartbeats are kept in the order they were
  /// recorded: after a clock was set back, heartbeats before that are not read even when their
  /// instants fall in the window, and the window shows less life, never more.
  ///
  /// - Parameter instant: The window's start, in milliseconds since 1970.
  /// - Returns: The suffix of the history, with the log's position and counts.
  /// - Throws: Like ``history()``.
  /// - Complexity: O(*k*) in the heartbeats recorded since `instant`.
  package func history(since instant: Int64) throws(TrackerSignalsError) -> HeartbeatHistory {
    var wanted = 64
    while true {
      guard let log = try read(newest: wanted) else {
        return HeartbeatHistory(source: source, capacity: capacity, evictedCount: 0, heartbeats: [])
      }
      let history = try history(of: log, after: [])
      if let before = history.heartbeats.lastIndex(where: { $0.instant < instant }) {
        return history.droppingFirst(before)
      }
      if log.records.count >= log.count { return history }
      wanted = wanted < log.count / 4 ? wanted * 4 : log.count
    }
  }

  /// The history, reading only the heartbeats recorded since `cached` was read.
  ///
  /// For a reader that asks again and again (an app's dashboard): a history as long as the
  /// capacity costs its decoding once, then only what was recorded since. When the log is not
  /// the one `cached` was read from (removed, quarantined, rewritten) or `cached` was not read
  /// by a recorder, it reads the whole history.
  ///
  /// - Parameter cached: A history this recorder's ``history()`` or ``history(updating:)``
  ///   returned before, or `nil`.
  /// - Returns: The history, equal to what ``history()`` returns now.
  /// - Throws: Like ``history()``.
  /// - Complexity: O(*k*) in the heartbeats recorded since `cached`, O(*n*) in the kept ones
  ///   when it reads the whole history.
  public func history(updating cached: HeartbeatHistory?) throws(TrackerSignalsError)
    -> HeartbeatHistory
  {
    guard let cached, let position = cached.position, let tail = try read(newest: 1) else {
      return try history()
    }
    guard tail.identity == position.identity, tail.nextPosition >= position.next,
      tail.evictedCount >= cached.evictedCount
    else {
      return try history()
    }
    let added = tail.nextPosition - position.next
    // Only appends and evictions of the oldest since: anything else (a compaction) reads whole.
    guard
      UInt64(position.count) + added == UInt64(tail.count)
        + (tail.evictedCount - cached.evictedCount)
    else {
      return try history()
    }
    if added == 0 { return cached }
    guard added <= UInt64(tail.capacity), let newer = try read(newest: Int(added)),
      newer.identity == position.identity,
      newer.records.first.map({ $0.position == position.next }) ?? (added == 0)
    else {
      return try history()
    }
    // What the log evicted meanwhile leaves from the front: it holds `newer.count` records.
    let evicted = max(0, cached.heartbeats.count + newer.records.count - newer.count)
    return try history(of: newer, after: Array(cached.heartbeats.dropFirst(evicted)))
  }

  /// The history of `log`'s records after `earlier`.
  private func history(of log: LogSnapshot, after earlier: [Heartbeat]) throws(TrackerSignalsError)
    -> HeartbeatHistory
  {
    var heartbeats = earlier
    heartbeats.reserveCapacity(earlier.count + log.records.count)
    do {
      for record in log.records {
        heartbeats.append(heartbeat(try HeartbeatRecordFormat.decode(record)))
      }
    } catch {
      throw .corruptedHeartbeatHistory(key: key, reason: error.reason)
    }
    return HeartbeatHistory(
      source: source, capacity: log.capacity, evictedCount: log.evictedCount,
      heartbeats: heartbeats,
      position: HeartbeatHistory.LogPosition(
        identity: log.identity, next: log.nextPosition, count: log.count))
  }

  /// Moves a history that is not readable aside, keeping its bytes, so that recording can start
  /// afresh.
  ///
  /// The recovery step for ``TrackerSignalsError/corruptedHeartbeatHistory(key:reason:)``: nothing
  /// in this library replaces a damaged history by itself. The store keeps the bytes (for
  /// ``/SharedStore/FileStore``, a quarantined file next to the others).
  ///
  /// ```swift
  /// do {
  ///   try recorder.record(at: now)
  /// } catch TrackerSignalsError.corruptedHeartbeatHistory(let key, let reason) {
  ///   log("heartbeat history \(key) damaged: \(reason)")
  ///   try recorder.quarantine()
  ///   try recorder.record(at: now)
  /// }
  /// ```
  ///
  /// - Returns: Where the store kept the bytes, or `nil` when nothing was stored.
  /// - Throws: ``TrackerSignalsError/store(_:)``.
  @discardableResult
  public func quarantine() throws(TrackerSignalsError) -> String? {
    do {
      return try store.quarantine(key)
    } catch {
      throw .store(error)
    }
  }

  /// Removes the whole history.
  ///
  /// The monitor extension's history on a ``SharedFolder`` also carries the outbox's
  /// high-water mark (see ``SharedFolder/outbox``), which goes with it: until the extension's
  /// next callback records a heartbeat, an outbox that goes back numbers on after its mark log
  /// and its own newest number only, and may hand out again a number the mark alone remembered.
  ///
  /// - Throws: ``TrackerSignalsError/store(_:)``.
  public func clear() throws(TrackerSignalsError) {
    do {
      try store.remove(key)
    } catch {
      throw .store(error)
    }
  }

  private func read(newest: Int?) throws(TrackerSignalsError) -> LogSnapshot? {
    do {
      return try store.readLog(key, newest: newest)
    } catch {
      throw mapped(error)
    }
  }

  /// The error to report for a store error: a key holding something other than a history is a
  /// history in another format; anything else is the store's.
  private func mapped(_ error: SharedStoreError) -> TrackerSignalsError {
    guard case .kindMismatch = error else { return .store(error) }
    return .corruptedHeartbeatHistory(
      key: key, reason: "the key holds a value, not a heartbeat history's append-only log")
  }

  private func heartbeat(_ record: HeartbeatRecordFormat.Record) -> Heartbeat {
    Heartbeat(
      instant: record.instant, source: source, sequence: record.sequence,
      memoryBytes: record.memoryBytes)
  }
}

/// What ``HeartbeatRecorder/record(_:)`` did with a heartbeat.
///
/// JSON form: the raw value, `"recorded"` or `"duplicate"`.
public enum HeartbeatRecordOutcome: String, Sendable, Hashable, Codable {
  /// The heartbeat was stored, evicting the oldest when the history was full.
  case recorded
  /// The heartbeat equals the latest one stored; nothing was written.
  case duplicate
}
