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
    try key.value(decoding: read(key.name))
  }

  /// Stores `value` under `key`.
  ///
  /// - Parameters:
  ///   - value: The value to store.
  ///   - key: The typed key.
  /// - Throws: ``SharedStoreError/encoding(key:type:description:)`` and any error of
  ///   ``write(_:for:)``; on failure the previous value is still in place.
  public func set<Value>(_ value: Value, for key: StoreKey<Value>) throws(SharedStoreError) {
    try write(key.codec.encode(value, key: key.name), for: key.name)
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
  /// value is written even if `body` left the default unchanged.
  ///
  /// ```swift
  /// let ticket = try store.update(.counter) { value -> Int in
  ///   value += 1
  ///   return value
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The typed key.
  ///   - body: The change to make. It must not call back into this store.
  /// - Returns: What `body` returned.
  /// - Throws: ``SharedStoreError`` (including `decoding` for a stored value that does not
  ///   decode, and `defaultValueFailed` when nothing is stored and the key's default cannot be
  ///   built), or whatever `body` throws; either way nothing is written.
  public func update<Value, Result>(
    _ key: StoreKey<Value>,
    _ body: (inout Value) throws -> Result
  ) throws -> Result {
    try update(key.name) { (data: inout Data?) throws -> Result in
      var value = try key.value(decoding: data)
      let result = try body(&value)
      let encoded = try key.codec.encode(value, key: key.name)
      if encoded != data { data = encoded }
      return result
    }
  }
}

extension StoreKey {
  /// Decodes `data`, or returns the default value when `data` is `nil`.
  func value(decoding data: Data?) throws(SharedStoreError) -> Value {
    guard let data else { return try defaultValue }
    return try codec.decode(data, key: name)
  }
}
