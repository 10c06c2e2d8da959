import Foundation
import SharedStore

/// A store that forwards to another and counts the calls that touch values, so that tests can
/// check what an operation read or wrote.
final class CountingStore: SharedStore {
  struct Counts: Equatable {
    var reads = 0
    var writes = 0
    var updates = 0
    var tokens = 0
  }

  let base: any SharedStore
  private let counts = LockedValue(Counts())

  init(_ base: any SharedStore = InMemoryStore()) {
    self.base = base
  }

  var calls: Counts { counts.withLock { $0 } }

  func read(_ key: String) throws(SharedStoreError) -> Data? {
    counts.withLock { $0.reads += 1 }
    return try base.read(key)
  }

  func write(_ data: Data, for key: String) throws(SharedStoreError) {
    counts.withLock { $0.writes += 1 }
    try base.write(data, for: key)
  }

  func remove(_ key: String) throws(SharedStoreError) { try base.remove(key) }

  func keys() throws(SharedStoreError) -> [String] { try base.keys() }

  func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    counts.withLock { $0.updates += 1 }
    return try base.update(key, body)
  }

  func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    counts.withLock { $0.tokens += 1 }
    return try base.changeToken(for: key)
  }

  func quarantine(_ key: String) throws(SharedStoreError) -> String? { try base.quarantine(key) }

  @discardableResult

  func appendToLog(
    _ key: String, capacity: Int, examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    counts.withLock { $0.updates += 1 }
    return try base.appendToLog(
      key, capacity: capacity, examiningNewest: examiningNewest, makeRecords)
  }

  func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    counts.withLock { $0.reads += 1 }
    return try base.readLog(key, newest: newest)
  }

  @discardableResult

  func compactLog(
    _ key: String, keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int {
    counts.withLock { $0.updates += 1 }
    return try base.compactLog(key, keeping: isKept)
  }
}
