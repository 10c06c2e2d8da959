import Foundation
import SharedStore

/// A file system that forwards to the real one and, once armed, fails the next flush after a
/// change is visible.
///
/// That is a flush of a directory (the step a durable `FileStore` takes after renaming a new
/// value into place) or of a file opened to append to it (the step after an append is written).
/// The store then reports `SharedStoreError.notDurable`.
package final class DirectoryFlushFailure: ForwardingFileSystem {
  private struct State {
    var directories: Set<Int32> = []
    var appended: Set<Int32> = []
    /// How many flushes of a change are still to fail.
    var armed = 0
    /// How many flushes of a change pass before those fail.
    var skipped = 0
  }

  package let base: any FileSystem = POSIXFileSystem()
  private let state = LockedValue(State())

  /// A file system that fails nothing until it is armed.
  package init() {}

  /// Makes the next flush of a directory, or of a file appended to — after `skipping` more of
  /// them — fail with `EIO`.
  package func failNextFlushOfAChange(skipping: Int = 0) {
    state.withLock {
      $0.armed = 1
      $0.skipped = skipping
    }
  }

  /// Makes every later flush of a directory, or of a file appended to, fail with `EIO`: a
  /// device whose flushes keep failing.
  package func failEveryFlushOfAChange() {
    state.withLock { $0.armed = .max }
  }

  package func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    let descriptor = try base.open(path, mode: mode)
    if mode == .directory { state.withLock { _ = $0.directories.insert(descriptor) } }
    if mode == .readWrite { state.withLock { _ = $0.appended.insert(descriptor) } }
    return descriptor
  }

  package func close(_ descriptor: Int32) throws(SystemCallError) {
    state.withLock {
      $0.directories.remove(descriptor)
      $0.appended.remove(descriptor)
    }
    try base.close(descriptor)
  }

  package func synchronize(_ descriptor: Int32) throws(SystemCallError) {
    let fail = state.withLock { state -> Bool in
      guard state.armed > 0,
        state.directories.contains(descriptor) || state.appended.contains(descriptor)
      else { return false }
      guard state.skipped == 0 else {
        state.skipped -= 1
        return false
      }
      state.armed -= 1
      return true
    }
    if fail { throw SystemCallError("injected directory fsync", EIO) }
    try base.synchronize(descriptor)
  }
}
