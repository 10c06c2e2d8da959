import Foundation
import SharedStore
import TestSupport

/// Reads, runs the body, then writes, with nothing held in between: two threads can read the
/// same value, and one of their increments is lost.
final class NonAtomicUpdateStore: ForwardingStore {
  let base: any SharedStore = InMemoryStore()

  func update<Result>(
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
final class StaleChangeTokenStore: ForwardingStore {
  let base: any SharedStore = InMemoryStore()

  private let first = LockedValue<[String: ChangeToken]>([:])

  func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    guard let token = try base.changeToken(for: key) else { return nil }
    return first.withLock { first in
      if let stale = first[key] { return stale }
      first[key] = token
      return token
    }
  }
}

/// Writes a key it should refuse under a "cleaned" name, as a backend that escapes keys might.
final class LaxKeyStore: ForwardingStore {
  let base: any SharedStore = InMemoryStore()

  func write(_ data: Data, for key: String) throws(SharedStoreError) {
    let cleaned = String(key.unicodeScalars.filter { StoreKeyRules.violation(in: "\($0)") == nil })
    try base.write(data, for: cleaned.isEmpty ? "empty" : cleaned)
  }
}

/// Writes the value again after every update, changed or not, advancing the token for nothing.
final class AlwaysWritingUpdateStore: ForwardingStore {
  let base: any SharedStore = InMemoryStore()

  func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    let result = try base.update(key, body)
    if let data = try base.read(key) { try base.write(data, for: key) }
    return result
  }
}

/// Lists keys in the order they were first written, as a dictionary-backed store might.
final class UnsortedKeysStore: ForwardingStore {
  let base: any SharedStore = InMemoryStore()

  func keys() throws(SharedStoreError) -> [String] { try base.keys().reversed() }
}
