import Foundation

/// A thread-safe ``SharedStore`` held in memory, for tests, previews and examples.
///
/// It follows the same contract as ``FileStore`` — key validation, atomic ``update(_:_:)``,
/// append-only logs, change tokens, quarantine — within one process. Change tokens come from a
/// counter shared by all keys of the store, so they never repeat. A log is kept as the bytes a
/// ``FileStore`` would write to its file, and appended to in place.
public final class InMemoryStore: SharedStore {
  struct Entry {
    var data: Data
    var generation: UInt64
    /// Whether `data` is an append-only log rather than a value.
    var isLog = false
  }

  struct State {
    var entries: [String: Entry] = [:]
    var quarantined: [String: Data] = [:]
    var lastGeneration: UInt64 = 0

    mutating func nextGeneration() -> UInt64 {
      lastGeneration += 1
      return lastGeneration
    }
  }

  let state = LockedValue(State())

  /// Creates an empty store.
  public init() {}

  /// Creates a store holding `values`.
  ///
  /// - Parameter values: Initial bytes by key.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)`` for the first invalid key.
  public convenience init(_ values: [String: Data]) throws(SharedStoreError) {
    self.init()
    for (key, data) in values.sorted(by: { $0.key < $1.key }) {
      try write(data, for: key)
    }
  }

  /// Returns the bytes stored under `key`, or `nil`.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The stored bytes, or `nil`.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``.
  public func read(_ key: String) throws(SharedStoreError) -> Data? {
    try StoreKeyRules.validate(key)
    return try state.withLock { state throws(SharedStoreError) -> Data? in
      try state.value(of: key)
    }
  }

  /// Stores `data` under `key`.
  ///
  /// - Parameters:
  ///   - data: The bytes to store.
  ///   - key: A valid store key.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``, or
  ///   ``SharedStoreError/kindMismatch(key:holds:)`` when the key holds an append-only log.
  public func write(_ data: Data, for key: String) throws(SharedStoreError) {
    try StoreKeyRules.validate(key)
    try state.withLock { state throws(SharedStoreError) in
      _ = try state.value(of: key)
      state.entries[key] = Entry(data: data, generation: state.nextGeneration())
    }
  }

  /// Removes the value under `key`, if any.
  ///
  /// - Parameter key: A valid store key.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``.
  public func remove(_ key: String) throws(SharedStoreError) {
    try StoreKeyRules.validate(key)
    state.withLock { _ = $0.entries.removeValue(forKey: key) }
  }

  /// Returns the stored keys in ascending order.
  ///
  /// - Returns: The keys.
  /// - Complexity: O(*n* log *n*) in the number of keys.
  public func keys() -> [String] {
    state.withLock { $0.entries.keys.sorted() }
  }

  /// Atomically reads, changes and writes the value under `key`.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - body: The change to make; it runs under the store's lock and must not use this store.
  /// - Returns: What `body` returned.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``,
  ///   ``SharedStoreError/kindMismatch(key:holds:)`` for a key holding an append-only log (`body`
  ///   is not called), or what `body` throws; either way nothing is written.
  @discardableResult
  public func update<Result>(
    _ key: String,
    _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    try StoreKeyRules.validate(key)
    return try state.withLock { state throws(SharedStoreError) -> Result in
      let old = try state.value(of: key)
      var new = old
      let result = try body(&new)
      if new != old {
        if let new {
          state.entries[key] = Entry(data: new, generation: state.nextGeneration())
        } else {
          state.entries[key] = nil
        }
      }
      return result
    }
  }

  /// Returns the current change token of `key`, or `nil` when nothing is stored.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The token.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``.
  public func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    try StoreKeyRules.validate(key)
    return state.withLock { $0.entries[key].map { ChangeToken(generation: $0.generation) } }
  }

  /// Moves the value under `key` aside; ``quarantinedValues`` keeps it.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The name the bytes are kept under, `"<key>.quarantined.<n>"`, or `nil`.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``.
  public func quarantine(_ key: String) throws(SharedStoreError) -> String? {
    try StoreKeyRules.validate(key)
    return state.withLock { state -> String? in
      guard let entry = state.entries.removeValue(forKey: key) else { return nil }
      var index = 1
      while state.quarantined["\(key).quarantined.\(index)"] != nil { index += 1 }
      let name = "\(key).quarantined.\(index)"
      state.quarantined[name] = entry.data
      return name
    }
  }

  /// The bytes moved aside by ``quarantine(_:)``, by the name it returned.
  public var quarantinedValues: [String: Data] {
    state.withLock { $0.quarantined }
  }
}

extension InMemoryStore.State {
  /// The value under `key`, `nil` when there is none.
  ///
  /// - Throws: ``SharedStoreError/kindMismatch(key:holds:)`` when the key holds a log.
  func value(of key: String) throws(SharedStoreError) -> Data? {
    guard let entry = entries[key] else { return nil }
    guard !entry.isLog else { throw .kindMismatch(key: key, holds: .log) }
    return entry.data
  }
}
