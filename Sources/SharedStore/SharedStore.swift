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
/// Conformers must be safe to call from any thread. The closure passed to ``update(_:_:)`` runs
/// while the store is locked: it must be short and must not call back into the same store.
///
/// **Naming this module's types.** The module and this protocol are both named `SharedStore`, so
/// `SharedStore.FileStore` does not compile: it looks for a member `FileStore` of the protocol.
/// Plain names are enough until another imported module declares a type of the same name (an
/// app's own `FileStore`, the System framework's `Errno`). Then import the declarations you mean,
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
  ///   ``SharedStoreError/unsupportedFormatVersion(key:path:found:supported:)`` and
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
  /// - Throws: ``SharedStoreError``.
  func quarantine(_ key: String) throws(SharedStoreError) -> String?
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
