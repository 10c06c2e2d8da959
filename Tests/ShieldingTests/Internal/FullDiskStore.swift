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
