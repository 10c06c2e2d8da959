extension FileStore {
  /// The two descriptors a store keeps open: the lock file and the directory (for flushing it).
  ///
  /// They are read and replaced only while the store's in-process lock is held, which is what
  /// makes the unchecked `Sendable` conformance sound.
  final class Handles: @unchecked Sendable {
    private(set) var lock: Int32
    private(set) var directory: Int32

    /// Creates the directory with its parents if needed, then opens the lock file (creating it)
    /// and the directory.
    init(directory path: String, fileSystem: any FileSystem) throws(SharedStoreError) {
      (lock, directory) = try Self.open(directory: path, fileSystem: fileSystem)
    }

    /// Opens fresh descriptors, then closes the old ones: used when the directory was removed
    /// or replaced after the store opened it.
    func reopen(directory path: String, fileSystem: any FileSystem) throws(SharedStoreError) {
      let fresh = try Self.open(directory: path, fileSystem: fileSystem)
      close(fileSystem)
      (lock, directory) = fresh
    }

    /// Closes both descriptors; nothing was written through them, so no data depends on it.
    func close(_ fileSystem: any FileSystem) {
      FileStore.closeQuietly(lock, fileSystem)
      FileStore.closeQuietly(directory, fileSystem)
    }

    private static func open(directory path: String, fileSystem: any FileSystem)
      throws(SharedStoreError) -> (lock: Int32, directory: Int32)
    {
      do {
        try fileSystem.createDirectory(path)
      } catch {
        throw error.ioError(path: path)
      }
      let lockPath = path + "/" + FileName.lock
      let lock: Int32
      do {
        lock = try fileSystem.open(lockPath, mode: .readWriteCreate)
      } catch {
        throw error.ioError(path: lockPath)
      }
      do {
        return (lock, try fileSystem.open(path, mode: .directory))
      } catch {
        FileStore.closeQuietly(lock, fileSystem)
        throw error.ioError(path: path)
      }
    }
  }
}
