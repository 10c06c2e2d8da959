import Foundation
import SharedStore
import TestSupport

/// A store whose writes to one key fail with `ENOSPC` while ``isFull`` is set, as a full disk
/// makes them; reads, and writes to other keys, go through.
final class FullDiskStore: ForwardingStore {
  let base: any SharedStore = InMemoryStore()
  let key: String
  private let full = LockedValue(false)

  init(failing key: String) {
    self.key = key
  }

  /// Whether writes to ``key`` fail.
  var isFull: Bool {
    get { full.withLock { $0 } }
    set { full.withLock { $0 = newValue } }
  }

  private func check(_ key: String) throws(SharedStoreError) {
    if key == self.key, isFull { throw .io(operation: "write", path: key, errno: .noSpace) }
  }

  func write(_ data: Data, for key: String) throws(SharedStoreError) {
    try check(key)
    try base.write(data, for: key)
  }

  func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    try check(key)
    return try base.update(key, body)
  }
}

/// A store that runs a hook once, just before the next update of one key takes its lock: another
/// process's work, placed at the worst moment.
final class InterleavedStore: ForwardingStore {
  let base: any SharedStore = InMemoryStore()
  let key: String
  private let hook = LockedValue<(@Sendable () -> Void)?>(nil)

  init(interleaving key: String) {
    self.key = key
  }

  /// Runs `action` before the next update of ``key``.
  func beforeNextUpdate(_ action: @escaping @Sendable () -> Void) {
    hook.withLock { $0 = action }
  }

  func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    if key == self.key {
      let action = hook.withLock { hook in
        defer { hook = nil }
        return hook
      }
      action?()
    }
    return try base.update(key, body)
  }
}
