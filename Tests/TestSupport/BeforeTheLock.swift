import Foundation
import SharedStore
import TrackerSignals

/// The real file system, which runs an action once, just before the store next takes its lock
/// after opening a file of a given name: another process's work placed between a read and the
/// hold that follows it, with no thread and no timing.
///
/// A store that reads a file outside its lock and then takes the lock to act on what it read
/// (an app that found the outbox damaged and moves it aside) gets the action between the two,
/// as if another process had run then.
package final class BeforeTheLock: ForwardingFileSystem, @unchecked Sendable {
  package let base: any FileSystem = POSIXFileSystem()
  private let name: String
  private let state = LockedValue<(action: (@Sendable () -> Void)?, opened: Bool, skip: Int)>(
    (nil, false, 0))

  /// A file system that watches for an open of the file named `name` in any directory.
  package init(afterOpening name: String) {
    self.name = "/" + name
  }

  /// The shared folder at `directory` on this file system, opened as
  /// `SharedFolder(directory:)` opens it — a durable store and its sibling without flushes —
  /// and its durable store.
  package func folder(at directory: URL) throws -> (folder: SharedFolder, store: FileStore) {
    let store = try FileStore(directory: directory, durability: .durable, fileSystem: self)
    let folder = try SharedFolder(
      store: store, heartbeatStore: store.withDurability(.processCrashSafe))
    return (folder, store)
  }

  /// Runs `action` when the lock is next taken after the file is opened — or, with
  /// `skippingLocks`, after that many more locks — and then no more.
  package func arm(skippingLocks: Int = 0, _ action: @escaping @Sendable () -> Void) {
    state.withLock { $0 = (action, false, skippingLocks) }
  }

  package func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    if path.hasSuffix(name) { state.withLock { $0.opened = true } }
    return try base.open(path, mode: mode)
  }

  package func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
    let run = state.withLock { state -> (@Sendable () -> Void)? in
      guard state.opened, let action = state.action else { return nil }
      guard state.skip == 0 else {
        state.skip -= 1
        return nil
      }
      state = (nil, false, 0)
      return action
    }
    run?()
    try base.lockExclusively(descriptor)
  }
}
