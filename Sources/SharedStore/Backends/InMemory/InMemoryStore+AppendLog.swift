import Foundation

extension InMemoryStore {
  /// Appends records to the append-only log under `key`, after showing `makeRecords` its newest
  /// records; see ``SharedStore/appendToLog(_:capacity:examiningNewest:_:)``.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - capacity: The most records the log keeps, at least 1.
  ///   - examiningNewest: How many of the newest records `makeRecords` sees.
  ///   - makeRecords: Returns the records to append; it runs under the store's lock.
  /// - Returns: What was appended, or `nil` when `makeRecords` returned no record.
  /// - Throws: ``SharedStoreError`` — `invalidKey`, `invalidCapacity`, `kindMismatch`,
  ///   `corrupted`, or what `makeRecords` threw; nothing is appended then.
  @discardableResult
  public func appendToLog(
    _ key: String,
    capacity: Int,
    examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    try StoreKeyRules.validate(key)
    return try state.withLock { state throws(SharedStoreError) -> LogAppend? in
      var engine = LogEngine(bytes: try state.log(of: key), key: key, path: Self.path(key))
      let appended = try engine.append(
        capacity: capacity, examining: examiningNewest, makeRecords)
      state.store(engine.medium, for: key)
      return appended
    }
  }

  /// Reads the append-only log under `key`; see ``SharedStore/readLog(_:newest:)``.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - newest: How many of the newest records to return, or `nil` for all.
  /// - Returns: The log, or `nil` when nothing is stored under `key`.
  /// - Throws: ``SharedStoreError`` — `invalidKey`, `kindMismatch` or `corrupted`.
  public func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    try StoreKeyRules.validate(key)
    let bytes = try state.withLock { state throws(SharedStoreError) in try state.log(of: key) }
    let engine = LogEngine(bytes: bytes, key: key, path: Self.path(key))
    return try engine.view(newest: newest)?.snapshot(newest: newest ?? .max)
  }

  /// Rewrites the append-only log under `key` with the records `isKept` keeps; see
  /// ``SharedStore/compactLog(_:keeping:)``.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - isKept: Whether to keep a record; it runs under the store's lock.
  /// - Returns: How many records were removed.
  /// - Throws: ``SharedStoreError``; nothing is changed then.
  @discardableResult
  public func compactLog(
    _ key: String,
    keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int {
    try StoreKeyRules.validate(key)
    return try state.withLock { state throws(SharedStoreError) -> Int in
      var engine = LogEngine(bytes: try state.log(of: key), key: key, path: Self.path(key))
      let removed = try engine.compact(keeping: isKept)
      state.store(engine.medium, for: key)
      return removed
    }
  }

  // MARK: - Raw bytes, for tests

  /// The bytes of the log under `key`, in the format of a log file; `nil` when there is none.
  package func logBytes(for key: String) -> Data? {
    state.withLock { state in state.entries[key].flatMap { $0.isLog ? $0.data : nil } }
  }

  /// Stores `bytes` as the log under `key`, as a restored backup or a damaged file would be.
  package func setLogBytes(_ bytes: Data, for key: String) {
    state.withLock { state in
      state.entries[key] = Entry(data: bytes, generation: state.nextGeneration(), isLog: true)
    }
  }

  /// What errors name as the path of a log held in memory.
  private static func path(_ key: String) -> String { "memory:" + key }
}

extension InMemoryStore.State {
  /// The log under `key`, `nil` when there is none.
  ///
  /// - Throws: ``SharedStoreError/kindMismatch(key:holds:)`` when the key holds a value.
  func log(of key: String) throws(SharedStoreError) -> Data? {
    guard let entry = entries[key] else { return nil }
    guard entry.isLog else { throw .kindMismatch(key: key, holds: .value) }
    return entry.data
  }

  /// Keeps what `medium` holds under `key` when it changed, with a new generation.
  mutating func store(_ medium: MemoryLogMedium, for key: String) {
    guard medium.changed, let bytes = medium.bytes else { return }
    entries[key] = InMemoryStore.Entry(data: bytes, generation: nextGeneration(), isLog: true)
  }
}
