import Foundation

// MARK: - Conveniences

extension SharedStore {
  /// Appends `records` to the append-only log under `key` in one atomic step, creating the log
  /// when it does not exist.
  ///
  /// ```swift
  /// try store.append([Data(line.utf8)], toLog: "events", capacity: 1_000)
  /// ```
  ///
  /// - Parameters:
  ///   - records: The records to append, oldest first.
  ///   - key: A valid store key.
  ///   - capacity: The most records the log keeps, at least 1.
  /// - Returns: What was appended, or `nil` when `records` is empty.
  /// - Throws: The errors of ``appendToLog(_:capacity:examiningNewest:_:)``.
  /// - Complexity: O(*k*) in the bytes appended, amortised.
  @discardableResult
  public func append(
    _ records: some Sequence<Data>, toLog key: String, capacity: Int
  ) throws(SharedStoreError) -> LogAppend? {
    let records = Array(records)
    return try appendToLog(key, capacity: capacity, examiningNewest: 0) { _ in records }
  }

  /// Reads every record of the append-only log under `key`.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The log with all of its records, or `nil` when nothing is stored under `key`.
  /// - Throws: The errors of ``readLog(_:newest:)``.
  /// - Complexity: O(*n*) in the size of the log.
  public func readLog(_ key: String) throws(SharedStoreError) -> LogSnapshot? {
    try readLog(key, newest: nil)
  }
}

// MARK: - Default implementations, on a value

extension SharedStore {
  /// Appends to a log kept, in the log file format, as the value of `key`: every append rewrites
  /// the whole value through ``update(_:_:)``.
  ///
  /// The implementation for stores that do not implement logs themselves; ``FileStore`` and
  /// ``InMemoryStore`` append in place instead.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - capacity: The most records the log keeps, at least 1.
  ///   - examiningNewest: How many of the newest records `makeRecords` sees.
  ///   - makeRecords: Returns the records to append.
  /// - Returns: What was appended, or `nil` when `makeRecords` returned no record.
  /// - Throws: The errors of the requirement; `corrupted` for a value that is not a log.
  @discardableResult
  public func appendToLog(
    _ key: String,
    capacity: Int,
    examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    try StoreKeyRules.validate(key)
    return try update(key) { (data: inout Data?) throws(SharedStoreError) -> LogAppend? in
      var engine = LogEngine(bytes: data, key: key, path: "\(Self.self)")
      let appended = try engine.append(
        capacity: capacity, examining: examiningNewest, makeRecords)
      if engine.medium.changed { data = engine.medium.bytes }
      return appended
    }
  }

  /// Reads a log kept as the value of `key`.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - newest: How many of the newest records to return, or `nil` for all.
  /// - Returns: The log, or `nil` when nothing is stored.
  /// - Throws: The errors of ``read(_:)``; `corrupted` for a value that is not a log.
  public func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    let engine = LogEngine(bytes: try read(key), key: key, path: "\(Self.self)")
    return try engine.view(newest: newest)?.snapshot(newest: newest ?? .max)
  }

  /// Compacts a log kept as the value of `key`.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - isKept: Whether to keep a record.
  /// - Returns: How many records were removed.
  /// - Throws: The errors of ``update(_:_:)``; `corrupted` for a value that is not a log.
  @discardableResult
  public func compactLog(
    _ key: String,
    keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int {
    try StoreKeyRules.validate(key)
    return try update(key) { (data: inout Data?) throws(SharedStoreError) -> Int in
      var engine = LogEngine(bytes: data, key: key, path: "\(Self.self)")
      let removed = try engine.compact(keeping: isKept)
      if engine.medium.changed { data = engine.medium.bytes }
      return removed
    }
  }
}
