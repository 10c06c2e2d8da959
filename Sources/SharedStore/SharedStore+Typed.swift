import Foundation

extension SharedStore {
  /// Returns the value stored under `key`, or the key's default value when nothing is stored.
  ///
  /// - Parameter key: The typed key.
  /// - Returns: The decoded value, or `key.defaultValue` when the key has no value.
  /// - Throws: ``SharedStoreError/decoding(key:type:description:)`` when a stored value does not
  ///   decode — it never falls back to the default —,
  ///   ``SharedStoreError/defaultValueFailed(key:type:description:)`` when nothing is stored and
  ///   the key's default cannot be built, and any error of ``read(_:)``.
  public func value<Value>(for key: StoreKey<Value>) throws(SharedStoreError) -> Value {
    try key.value(decoding: storedBytes(of: key))
  }

  /// Stores `value` under `key`.
  ///
  /// - Parameters:
  ///   - value: The value to store.
  ///   - key: The typed key.
  /// - Throws: ``SharedStoreError/encoding(key:type:description:)`` and any error of
  ///   ``write(_:for:)``; on failure the previous value is still in place.
  public func set<Value>(_ value: Value, for key: StoreKey<Value>) throws(SharedStoreError) {
    let encoded = try key.codec.encode(value, key: key.name)
    switch key.storage {
    case .replaced:
      try write(encoded, for: key.name)
    case .versions(let keeping):
      try appendToLog(key.name, capacity: keeping, examiningNewest: 0) { _ in [encoded] }
    }
  }

  /// Removes the value stored under `key`, so that reads return its default again.
  ///
  /// - Parameter key: The typed key.
  /// - Throws: Any error of ``remove(_:)``.
  public func removeValue<Value>(for key: StoreKey<Value>) throws(SharedStoreError) {
    try remove(key.name)
  }

  /// Atomically reads, changes and writes the value under `key`.
  ///
  /// `body` receives the stored value, or the key's default when nothing is stored. Nothing is
  /// written when the re-encoded value equals the stored bytes; when nothing was stored, the
  /// value is written even if `body` left the default unchanged. The result may be ignored, and
  /// every error is the store's:
  ///
  /// ```swift
  /// let ticket = try store.update(.counter) { value -> Int in
  ///   value += 1
  ///   return value
  /// }
  /// try store.update(trackerKey) { $0.observeHead(head) }
  /// ```
  ///
  /// A `body` that throws goes to the overload for throwing bodies instead, which Swift picks
  /// when the closure throws.
  ///
  /// - Parameters:
  ///   - key: The typed key.
  ///   - body: The change to make. It must not call back into this store.
  /// - Returns: What `body` returned.
  /// - Throws: ``SharedStoreError`` (including `decoding` for a stored value that does not
  ///   decode, and `defaultValueFailed` when nothing is stored and the key's default cannot be
  ///   built); nothing is written — except after ``SharedStoreError/notDurable(key:path:errno:)``,
  ///   which says the change is in place but may not survive a power cut.
  @discardableResult
  public func update<Value, Result>(
    _ key: StoreKey<Value>,
    _ body: (inout Value) -> Result
  ) throws(SharedStoreError) -> Result {
    try changeStored(key) { (data: inout Data?) throws(SharedStoreError) -> Result in
      var value = try key.value(decoding: data)
      let result = body(&value)
      let encoded = try key.codec.encode(value, key: key.name)
      key.remember(encoded, as: value)
      if encoded != data { data = encoded }
      return result
    }
  }

  /// Atomically reads, changes and writes the value under `key`, with a `body` that may throw
  /// errors of its own.
  ///
  /// The same atomic read-modify-write as the overload for bodies that cannot fail; Swift
  /// chooses this one when the closure throws. When `body` throws, its error is rethrown
  /// unchanged and nothing is written, not even the default of a key that had no value.
  ///
  /// ```swift
  /// try store.update(settingsKey) { settings in
  ///   try settings.setDailyLimit(minutes)  // a ValidationError reaches the caller as is
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The typed key.
  ///   - body: The change to make. It must not call back into this store.
  /// - Returns: What `body` returned.
  /// - Throws: ``SharedStoreError`` from the store (as for the other overload), or the `Failure`
  ///   that `body` threw; either way nothing is written — except after
  ///   ``SharedStoreError/notDurable(key:path:errno:)``, which says the change is in place.
  @discardableResult
  public func update<Value, Result, Failure: Error>(
    _ key: StoreKey<Value>,
    _ body: (inout Value) throws(Failure) -> Result
  ) throws -> Result {
    try updateCapturingFailure(key, body).get()
  }

  /// Runs a typed update with a `body` that may throw, and returns `body`'s error as a value, so
  /// that both errors stay typed.
  ///
  /// When `body` throws, the stored bytes are left untouched, so the store writes nothing — not
  /// even the default of a key that had no value.
  ///
  /// - Parameters:
  ///   - key: The typed key.
  ///   - body: The change to make. It must not call back into this store.
  /// - Returns: What `body` returned, or what it threw.
  /// - Throws: ``SharedStoreError`` from the store, as for the non-throwing overload.
  package func updateCapturingFailure<Value, Result, Failure: Error>(
    _ key: StoreKey<Value>,
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(SharedStoreError) -> Swift.Result<Result, Failure> {
    try changeStored(key) {
      (data: inout Data?) throws(SharedStoreError) -> Swift.Result<Result, Failure> in
      var value = try key.value(decoding: data)
      let result: Result
      do throws(Failure) {
        result = try body(&value)
      } catch {
        return .failure(error)
      }
      let encoded = try key.codec.encode(value, key: key.name)
      key.remember(encoded, as: value)
      if encoded != data { data = encoded }
      return .success(result)
    }
  }
}

// MARK: - Where a typed key's bytes live

extension SharedStore {
  /// The bytes of `key`'s value: the value's file, or the newest version of its log.
  func storedBytes<Value>(of key: StoreKey<Value>) throws(SharedStoreError) -> Data? {
    switch key.storage {
    case .replaced: return try read(key.name)
    case .versions: return try readLog(key.name, newest: 1)?.records.last?.bytes
    }
  }

  /// Reads, changes and stores `key`'s bytes atomically.
  ///
  /// A replaced value goes through ``update(_:_:)``; versions, through one conditional append
  /// of the new version, only when it differs from the newest (or nothing was stored). A `body`
  /// that leaves no bytes stores nothing.
  func changeStored<Value, Result>(
    _ key: StoreKey<Value>,
    _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    guard case .versions(let keeping) = key.storage else { return try update(key.name, body) }
    var outcome: Result?
    try appendToLog(key.name, capacity: keeping, examiningNewest: 1) {
      (log: LogSnapshot) throws(SharedStoreError) -> [Data] in
      let newest = log.records.last?.bytes
      var data = newest
      outcome = try body(&data)
      guard let data, data != newest else { return [] }
      return [data]
    }
    guard let outcome else {
      // Only a conformer that breaks `appendToLog`'s contract returns without calling its body.
      throw .io(
        operation: "appendToLog returned without calling its body", path: key.name,
        errno: .invalidArgument)
    }
    return outcome
  }
}

extension StoreKey {
  /// Decodes `data`, or returns the default value when `data` is `nil`.
  ///
  /// A key kept as versions returns the version it decoded or stored last when `data` is the
  /// same bytes, without decoding them again.
  func value(decoding data: Data?) throws(SharedStoreError) -> Value {
    guard let data else { return try defaultValue }
    guard case .versions = storage else { return try codec.decode(data, key: name) }
    if let last = lastVersion.withLock({ $0 }), last.bytes == data { return last.value }
    let value = try codec.decode(data, key: name)
    remember(data, as: value)
    return value
  }

  /// Notes that `bytes` encode `value`, for the next read of the same bytes; only a key kept
  /// as versions keeps it.
  ///
  /// Bytes that never reach the store are harmless: a read compares the bytes it finds.
  func remember(_ bytes: Data, as value: Value) {
    guard case .versions = storage else { return }
    lastVersion.withLock { $0 = (bytes, value) }
  }
}
