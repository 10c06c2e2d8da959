import Foundation
import SharedStore

/// A store that forwards every requirement of `SharedStore` to ``base``; a conformer implements
/// only the requirements it changes (a deliberately broken backend, a store that owns its folder).
///
/// ```swift
/// final class UnsortedKeysStore: ForwardingStore {
///   let base: any SharedStore = InMemoryStore()
///   func keys() throws(SharedStoreError) -> [String] { try base.keys().reversed() }
/// }
/// ```
package protocol ForwardingStore: SharedStore {
  /// The store every call goes to.
  var base: any SharedStore { get }
}

extension ForwardingStore {
  package func read(_ key: String) throws(SharedStoreError) -> Data? { try base.read(key) }
  package func write(_ data: Data, for key: String) throws(SharedStoreError) {
    try base.write(data, for: key)
  }
  package func remove(_ key: String) throws(SharedStoreError) { try base.remove(key) }
  package func keys() throws(SharedStoreError) -> [String] { try base.keys() }
  package func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    try base.update(key, body)
  }
  package func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    try base.changeToken(for: key)
  }
  package func quarantine(_ key: String) throws(SharedStoreError) -> String? {
    try base.quarantine(key)
  }
  @discardableResult
  package func appendToLog(
    _ key: String, capacity: Int, examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    try base.appendToLog(key, capacity: capacity, examiningNewest: examiningNewest, makeRecords)
  }
  package func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    try base.readLog(key, newest: newest)
  }
  @discardableResult
  package func compactLog(
    _ key: String, keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int {
    try base.compactLog(key, keeping: isKept)
  }
}
