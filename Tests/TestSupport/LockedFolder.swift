import Foundation
import SharedStore
import TrackerSignals

/// A shared folder on disk whose files a ``LockedDevice`` can keep closed, as data protection
/// does before the first unlock after a restart.
package struct LockedFolder: Sendable {
  /// Where the folder is; removed when the last copy is released.
  package let directory: TemporaryDirectory
  /// The device: ``LockedDevice/lock(refusingWith:)`` closes the folder's files.
  package let device = LockedDevice()
  /// The folder, opened through ``device`` with the standard layout's stores.
  package let folder: SharedFolder

  /// Opens a new, empty folder on an unlocked device.
  ///
  /// - Parameter layout: Where everything lives; the standard layout unless you choose otherwise.
  /// - Throws: When the directory or a store cannot be created.
  package init(layout: SharedFolderLayout = .standard) throws {
    directory = try TemporaryDirectory(prefix: "stk-locked", preferringMemory: true)
    folder = try Self.open(directory, device: device, layout: layout)
  }

  /// The folder as a new process opens it — after a restart, say — with stores that hold no
  /// file open yet.
  ///
  /// A store keeps the log it appended to last open, and an open descriptor is not refused
  /// again; but no process can have opened a file before the first unlock after a restart, so a
  /// test of that window opens the folder afresh once it has locked the device.
  ///
  /// - Throws: When a store cannot be opened.
  package func openedByANewProcess() throws -> SharedFolder {
    try Self.open(directory, device: device, layout: folder.layout)
  }

  private static func open(
    _ directory: TemporaryDirectory, device: LockedDevice, layout: SharedFolderLayout
  ) throws -> SharedFolder {
    // As `SharedFolder(directory:)` opens them: a durable store and its sibling without
    // flushes, sharing one lock.
    let store = try FileStore(directory: directory.url, durability: .durable, fileSystem: device)
    return try SharedFolder(
      store: store, heartbeatStore: store.withDurability(.processCrashSafe), layout: layout)
  }
}
