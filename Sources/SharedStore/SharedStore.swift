import Foundation

/// A small key-value store that an app and its extensions share.
///
/// Values are raw bytes under validated string keys (see ``StoreKeyRules``). Every operation
/// either completes or throws and changes nothing. ``update(_:_:)`` is an atomic
/// read-modify-write: in ``FileStore`` it excludes other threads *and other processes* using the
/// same directory, so two extensions incrementing one counter never hand out the same number.
///
/// Typed access sits on top, through ``StoreKey``:
///
/// ```swift
/// let launches = StoreKey("launch-count", default: 0)
/// let store = try FileStore(directory: containerURL)
/// let count = try store.update(launches) { value in
///   value += 1
///   return value
/// }
/// ```
///
/// A key may instead hold an **append-only log** of records, for histories that grow by small
/// additions: ``appendToLog(_:capacity:examiningNewest:_:)`` writes only the new records,
/// atomically across processes, and keeps the newest `capacity` of them; ``readLog(_:newest:)``
/// reads them back, and ``compactLog(_:keeping:)`` removes some on purpose. A key holds a value or
/// a log (``StoredKind``), never both.
///
/// Conformers must be safe to call from any thread. The closure passed to ``update(_:_:)`` runs
/// while the store is locked: it must be short and must not call back into the same store.
///
/// **Naming this module's types.** The module and this protocol are both named ``/SharedStore``, so
/// `SharedStore.FileStore` does not compile: it looks for a member ``FileStore`` of the protocol.
/// Plain names are enough until another imported module declares a type of the same name (an
/// app's own `FileStore`, the System framework's ``Errno``). Then import the declarations you mean,
/// by kind — this works from Swift 6.0 — and in that file their plain names are SharedStore's:
///
/// ```swift
/// import SharedStore
/// import class SharedStore.FileStore
/// import struct SharedStore.StoreKey
/// import struct SharedStore.Errno
/// ```
///
/// From Swift 6.3 the module selector names one directly as well: `SharedStore::FileStore`.
public protocol SharedStore: Sendable {
  /// Returns the bytes stored under `key`, or `nil` when nothing is stored.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The stored bytes, or `nil`.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``, or for file-backed stores
  ///   ``SharedStoreError/corrupted(key:path:reason:)``,
  ///   ``SharedStoreError/unsupportedFormatVersion(key:path:found:supported:)``,
  ///   ``SharedStoreError/notARegularFile(key:path:kind:)``,
  ///   ``SharedStoreError/tooLarge(key:path:size:limit:)`` and
  ///   ``SharedStoreError/io(operation:path:errno:)``.
  func read(_ key: String) throws(SharedStoreError) -> Data?

  /// Stores `data` under `key`, replacing whatever was there, and advances the key's change token.
  ///
  /// - Parameters:
  ///   - data: The bytes to store; may be empty.
  ///   - key: A valid store key.
  /// - Throws: ``SharedStoreError``; on failure the previous value is still in place, except
  ///   after ``SharedStoreError/notDurable(key:path:errno:)``.
  func write(_ data: Data, for key: String) throws(SharedStoreError)

  /// Removes the value under `key`; removing a missing key does nothing.
  ///
  /// - Parameter key: A valid store key.
  /// - Throws: ``SharedStoreError``.
  func remove(_ key: String) throws(SharedStoreError)

  /// Returns every key that has a value, sorted in ascending order.
  ///
  /// - Returns: The stored keys.
  /// - Throws: ``SharedStoreError/io(operation:path:errno:)`` for file-backed stores.
  func keys() throws(SharedStoreError) -> [String]

  /// Atomically reads, changes and writes the value under `key`.
  ///
  /// `body` receives the current bytes (`nil` when absent) and may replace them, or set them to
  /// `nil` to remove the key. Nothing is written when `body` leaves the bytes as they were, so an
  /// update that changes nothing does not advance the change token. No other `update` or `write`
  /// on the same key — from this process or another — runs between the read and the write.
  ///
  /// This requirement's `body` throws nothing or a ``SharedStoreError`` (from decoding the bytes,
  /// say), so its errors are typed. A body that throws errors of its own is passed to the
  /// extension overload of the same name instead, which returns them unchanged; Swift picks it for
  /// you when the closure throws something else.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - body: The change to make. It must not call back into this store.
  /// - Returns: What `body` returned.
  /// - Throws: ``SharedStoreError`` from the store or from `body`; either way nothing is written —
  ///   except ``SharedStoreError/notDurable(key:path:errno:)``, which says the change is in place
  ///   but may not survive a power cut.
  @discardableResult
  func update<Result>(
    _ key: String,
    _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result

  /// Returns a token that changes whenever the value under `key` is written or removed.
  ///
  /// Reading the token is cheaper than reading the value (``FileStore`` reads the file's
  /// 32-byte header only), so a poller can ask "did the extension write since I last looked?"
  /// without decoding anything. Read the token *before* the value: a change that lands between
  /// the two reads is then seen again on the next poll rather than missed.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The current token, or `nil` when nothing is stored under `key`.
  /// - Throws: ``SharedStoreError``.
  func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken?

  /// Moves the value under `key` aside, keeping its bytes, so that the key can start afresh.
  ///
  /// This is the explicit recovery step for a value that is corrupted or no longer decodes:
  /// nothing in this library ever replaces such a value with a default behind your back.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: Where the bytes were kept (for ``FileStore``, the quarantined file's path), or
  ///   `nil` when nothing was stored under `key`.
  /// - Throws: ``SharedStoreError``; ``SharedStoreError/notDurable(key:path:errno:)`` when the
  ///   bytes were moved aside but the move may not survive a power cut, its `path` naming where
  ///   they were kept.
  func quarantine(_ key: String) throws(SharedStoreError) -> String?

  // MARK: Append-only logs

  /// Appends records to the append-only log under `key` in one atomic step, after showing
  /// `makeRecords` the log's newest records; creates the log when it does not exist.
  ///
  /// The records get the next positions of the log (see ``LogRecord/position``) and the log
  /// keeps the newest `capacity` of them, counting the others as evicted. No other append,
  /// compaction or update of the key — from this process or another — runs between the moment
  /// `makeRecords` looks at the log and the moment its records are stored, so it can refuse a
  /// duplicate or number its records from what it sees:
  ///
  /// ```swift
  /// try store.appendToLog("events", capacity: 1_000, examiningNewest: 1) { log in
  ///   log.records.last?.bytes == event ? [] : [event]   // a retried append is stored once
  /// }
  /// ```
  ///
  /// ``FileStore`` writes only the new records — one frame with its own checksum — at the end of
  /// the log's file, and flushes that file once with ``FileStore/Durability/durable``. It
  /// rewrites the file (into a new file renamed over the old one) only when the file would hold
  /// more than twice the capacity, when `capacity` differs from the log's, and after a writer
  /// was killed in the middle of an append. <doc:/ScreenTimeKit/FileFormat> describes the file.
  ///
  /// A conformer of your own gets an implementation built on ``update(_:_:)`` that keeps the log
  /// in the key's value and so rewrites it whole on every append; implement this requirement,
  /// ``readLog(_:newest:)`` and ``compactLog(_:keeping:)`` together to append in place.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - capacity: The most records the log keeps, at least 1. Every writer of a log should use
  ///     the same; an append with another capacity changes the log's to it, keeping the newest
  ///     records.
  ///   - examiningNewest: How many of the newest records `makeRecords` sees: 0 when it needs
  ///     none, 1 to compare with the latest, `Int.max` for all of them. Reading the newest few is
  ///     cheap; reading all of them costs a read of the whole log.
  ///   - makeRecords: Returns the records to append, oldest first, given the log — an empty log
  ///     with a freshly drawn identity when the key holds none, which is created only if records
  ///     are returned. Returning none writes nothing. It runs while the store is locked and must
  ///     not call back into the store.
  /// - Returns: What was appended, or `nil` when `makeRecords` returned no record.
  /// - Throws: ``SharedStoreError`` — `invalidKey`, `invalidCapacity`, `kindMismatch` when the
  ///   key holds a value, `corrupted` when the log's header or newest frame is damaged, `io`, or
  ///   what `makeRecords` threw — and then nothing was appended. The exception is
  ///   ``SharedStoreError/notDurable(key:path:errno:)``: the records are in place, but flushing
  ///   them failed; do not append them again.
  /// - Complexity: O(*k*) in the bytes appended, plus reading the newest records examined; O(*n*)
  ///   once per *capacity* appends, when the log is compacted.
  @discardableResult
  func appendToLog(
    _ key: String,
    capacity: Int,
    examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend?

  /// Reads the append-only log under `key`: its counts, and its newest `newest` records or all of
  /// them.
  ///
  /// Reading never waits for a lock and never changes the log. A frame cut short by a writer that was
  /// killed (or that is still writing) is not a record: it is left out, and the records before
  /// it are returned. A damaged frame among the ones read — one whose checksum does not match —
  /// is reported, never skipped.
  ///
  /// Read the ``changeToken(for:)`` first when polling, as for values: an append that lands
  /// between the two reads is then seen again on the next poll.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - newest: How many of the newest records to return, or `nil` for all of them. For a few,
  ///     ``FileStore`` reads the header and the end of the file only, and checks only the
  ///     frames it reads.
  /// - Returns: The log, or `nil` when nothing is stored under `key`.
  /// - Throws: ``SharedStoreError`` — `invalidKey`, `kindMismatch` when the key holds a value,
  ///   `corrupted`, `unsupportedFormatVersion` or `io`.
  /// - Complexity: O(*n*) in the size of the log for all records; for the newest few, O(*m*) in
  ///   the size of the frames holding them.
  func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot?

  /// Rewrites the append-only log under `key` keeping only the records `isKept` returns `true`
  /// for, atomically: a reader sees the old log or the new one.
  ///
  /// Removed records are removed on purpose and are not counted as evicted; their positions are
  /// not handed out again. When every record is kept, nothing is written.
  ///
  /// ```swift
  /// let removed = try store.compactLog("events") { record in decodedDate(record) >= cutoff }
  /// ```
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - isKept: Whether to keep a record. It runs while the store is locked and must not call
  ///     back into the store; when it throws, nothing is written.
  /// - Returns: How many records were removed; 0 when the log does not exist.
  /// - Throws: ``SharedStoreError`` — including `corrupted` for any damaged frame, since every
  ///   record is read — and then nothing was changed; or
  ///   ``SharedStoreError/notDurable(key:path:errno:)`` after the new log was put in place.
  /// - Complexity: O(*n*) in the size of the log.
  @discardableResult
  func compactLog(
    _ key: String,
    keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int
}

// MARK: - Bodies that throw their own errors

extension SharedStore {
  /// Atomically reads, changes and writes the value under `key`, with a `body` that may throw
  /// errors of its own.
  ///
  /// The same atomic read-modify-write as the requirement of the same name, for a `body` that
  /// throws something other than ``SharedStoreError`` — Swift chooses this overload when the
  /// closure does. When `body` throws, its error is rethrown unchanged and nothing is written.
  ///
  /// ```swift
  /// let version = try store.update("schema") { (data: inout Data?) throws(MigrationError) in
  ///   try Migration.upgrade(&data)  // a MigrationError reaches the caller as is
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - body: The change to make. It must not call back into this store.
  /// - Returns: What `body` returned.
  /// - Throws: ``SharedStoreError`` from the store, or the `Failure` that `body` threw; either
  ///   way nothing is written — except ``SharedStoreError/notDurable(key:path:errno:)``, which
  ///   says the change is in place but may not survive a power cut.
  @discardableResult
  public func update<Result, Failure: Error>(
    _ key: String,
    _ body: (inout Data?) throws(Failure) -> Result
  ) throws -> Result {
    try updateCapturingFailure(key, body).get()
  }

  /// Runs the store's `update(_:_:)` with a `body` that may throw, and returns `body`'s error as
  /// a value, so that both errors stay typed.
  ///
  /// When `body` throws, its bytes are put back as they were, so the store writes nothing.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - body: The change to make. It must not call back into this store.
  /// - Returns: What `body` returned, or what it threw.
  /// - Throws: ``SharedStoreError`` from the store.
  package func updateCapturingFailure<Result, Failure: Error>(
    _ key: String,
    _ body: (inout Data?) throws(Failure) -> Result
  ) throws(SharedStoreError) -> Swift.Result<Result, Failure> {
    try update(key) { (data: inout Data?) -> Swift.Result<Result, Failure> in
      let original = data
      do throws(Failure) {
        return .success(try body(&data))
      } catch {
        data = original
        return .failure(error)
      }
    }
  }
}
