import Foundation
import SharedStore

/// A store that runs a hook once, just before the first `update` of a given key takes the lock,
/// to interleave another process's work at the worst moment deterministically.
final class InterleavingStore: SharedStore {
  let base: any SharedStore
  private let key: String
  private let hook: LockedValue<(@Sendable () throws -> Void)?>

  init(
    _ base: any SharedStore, beforeUpdateOf key: String,
    _ hook: @escaping @Sendable () throws -> Void
  ) {
    self.base = base
    self.key = key
    self.hook = LockedValue(hook)
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

  func update<Result>(_ key: String, _ body: (inout Data?) throws -> Result) throws -> Result {
    if key == self.key,
      let once = hook.withLock({ hook in
        defer { hook = nil }
        return hook
      })
    {
      try once()
    }
    return try base.update(key, body)
  }
}
