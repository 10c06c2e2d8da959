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
    let store = try FileStore(directory: directory.url, durability: .durable, fileSystem: device)
    let heartbeatStore = try FileStore(
      directory: directory.url, durability: .processCrashSafe, fileSystem: device)
    folder = try SharedFolder(store: store, heartbeatStore: heartbeatStore, layout: layout)
  }
}
