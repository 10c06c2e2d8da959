import Foundation
import SharedStore

/// A store that forwards everything to an `InMemoryStore`; each broken store overrides one thing.
class ForwardingStore: SharedStore, @unchecked Sendable {
  let base = InMemoryStore()

  func read(_ key: String) throws(SharedStoreError) -> Data? { try base.read(key) }
  func write(_ data: Data, for key: String) throws(SharedStoreError) {
    try base.write(data, for: key)
  }
  func remove(_ key: String) throws(SharedStoreError) { try base.remove(key) }
  func keys() throws(SharedStoreError) -> [String] { base.keys() }
  func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    try base.update(key, body)
  }
  func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    try base.changeToken(for: key)
  }
  func quarantine(_ key: String) throws(SharedStoreError) -> String? { try base.quarantine(key) }
  func appendToLog(
    _ key: String, capacity: Int, examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    try base.appendToLog(key, capacity: capacity, examiningNewest: examiningNewest, makeRecords)
  }
  func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    try base.readLog(key, newest: newest)
  }
  func compactLog(
    _ key: String, keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int {
    try base.compactLog(key, keeping: isKept)
  }
}

/// Reads, runs the body, then writes, with nothing held in between: two threads can read the
/// same value, and one of their increments is lost.
final class NonAtomicUpdateStore: ForwardingStore, @unchecked Sendable {
  override func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    let original = try base.read(key)
    var data = original
    let result = try body(&data)
    usleep(50)  // the window a real backend's round trip to its storage opens
    guard data != original else { return result }
    if let data { try base.write(data, for: key) } else { try base.remove(key) }
    return result
  }
}

/// Hands out the first token it saw for a key for ever after, as a cache never invalidated would.
final class StaleChangeTokenStore: ForwardingStore, @unchecked Sendable {
  private let first = LockedValue<[String: ChangeToken]>([:])

  override func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    guard let token = try base.changeToken(for: key) else { return nil }
    return first.withLock { first in
      if let stale = first[key] { return stale }
      first[key] = token
      return token
    }
  }
}

/// Writes a key it should refuse under a "cleaned" name, as a backend that escapes keys might.
final class LaxKeyStore: ForwardingStore, @unchecked Sendable {
  override func write(_ data: Data, for key: String) throws(SharedStoreError) {
    let cleaned = String(key.unicodeScalars.filter { StoreKeyRules.violation(in: "\($0)") == nil })
    try base.write(data, for: cleaned.isEmpty ? "empty" : cleaned)
  }
}

/// Writes the value again after every update, changed or not, advancing the token for nothing.
final class AlwaysWritingUpdateStore: ForwardingStore, @unchecked Sendable {
  override func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    let result = try base.update(key, body)
    if let data = try base.read(key) { try base.write(data, for: key) }
    return result
  }
}

/// Lists keys in the order they were first written, as a dictionary-backed store might.
final class UnsortedKeysStore: ForwardingStore, @unchecked Sendable {
  override func keys() throws(SharedStoreError) -> [String] { base.keys().reversed() }
}
