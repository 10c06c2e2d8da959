import Foundation
import SharedStore
import Testing

/// A store that runs a hook just before a change of a given key takes the lock — an `update`,
/// or an append to its log (a consumer keeps its record as versions), the first `times` such
/// changes — to interleave another process's work at the worst moment, deterministically.
///
/// A hook that throws fails the test; the update then goes ahead.
final class InterleavingStore: SharedStore {
  let base: any SharedStore
  private let key: String
  private let hook: @Sendable () throws -> Void
  private let remaining: LockedValue<Int>

  init(
    _ base: any SharedStore, beforeUpdateOf key: String, times: Int = 1,
    _ hook: @escaping @Sendable () throws -> Void
  ) {
    self.base = base
    self.key = key
    self.hook = hook
    self.remaining = LockedValue(times)
  }

  func read(_ key: String) throws(SharedStoreError) -> Data? { try base.read(key) }
  func write(_ data: Data, for key: String) throws(SharedStoreError) {
    try base.write(data, for: key)
  }
  func remove(_ key: String) throws(SharedStoreError) { try base.remove(key) }
  func keys() throws(SharedStoreError) -> [String] { try base.keys() }
  func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    try base.changeToken(for: key)
  }
  func quarantine(_ key: String) throws(SharedStoreError) -> String? { try base.quarantine(key) }
  func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    try base.readLog(key, newest: newest)
  }
  @discardableResult
  func compactLog(
    _ key: String, keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int {
    try base.compactLog(key, keeping: isKept)
  }
  @discardableResult
  func appendToLog(
    _ key: String, capacity: Int, examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    runHookIfDue(for: key)
    return try base.appendToLog(
      key, capacity: capacity, examiningNewest: examiningNewest, makeRecords)
  }

  func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    runHookIfDue(for: key)
    return try base.update(key, body)
  }

  private func runHookIfDue(for key: String) {
    let due =
      key == self.key
      && remaining.withLock { remaining in
        guard remaining > 0 else { return false }
        remaining -= 1
        return true
      }
    guard due else { return }
    do {
      try hook()
    } catch {
      Issue.record(error, "the interleaved work failed")
    }
  }
}
