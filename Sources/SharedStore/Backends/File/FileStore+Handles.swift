extension FileStore {
  /// The descriptors a store keeps open: the directory (for flushing it), and the lock file once
  /// a change has needed it.
  ///
  /// They are read and replaced only while the store's in-process lock is held, which is what
  /// makes the unchecked `Sendable` conformance sound.
  final class Handles: @unchecked Sendable {
    /// The lock file `.lock`, opened by the first change; `nil` until then, and after it was
    /// closed to release a lock that `flock(LOCK_UN)` could not.
    var lock: Int32?
    /// The identity of the file `lock` refers to, taken when it was opened: an open descriptor
    /// keeps its file, so it never changes, and checking that the lock is current needs only
    /// the `lstat` of the lock file's path.
    var lockIdentity: FileIdentity?
    /// The log file the store appended to last, kept open for its next append; see
    /// ``OpenLog``.
    var openLog: OpenLog?
    private(set) var directory: Int32

    /// Creates the directory with its parents if needed, then opens it.
    init(directory path: String, fileSystem: any FileSystem) throws(SharedStoreError) {
      directory = try Self.openDirectory(path, fileSystem: fileSystem)
    }

    /// Opens the directory afresh and closes both old descriptors.
    ///
    /// Used when the directory was removed or replaced after the store opened it. The lock file
    /// is opened again by the next change.
    func reopen(directory path: String, fileSystem: any FileSystem) throws(SharedStoreError) {
      let fresh = try Self.openDirectory(path, fileSystem: fileSystem)
      close(fileSystem)
      directory = fresh
    }

    /// Closes the lock file, which releases any `flock` held through it.
    func closeLock(_ fileSystem: any FileSystem) {
      guard let lock else { return }
      FileStore.closeQuietly(lock, fileSystem)
      self.lock = nil
      lockIdentity = nil
    }

    /// Closes the log file kept open for appending, if any.
    func closeOpenLog(_ fileSystem: any FileSystem) {
      guard let openLog else { return }
      FileStore.closeQuietly(openLog.descriptor, fileSystem)
      self.openLog = nil
    }

    /// Closes every descriptor.
    ///
    /// The directory and the lock file had nothing written through them; a kept log file was
    /// flushed by each durable append, and a store that does not flush promises nothing a close
    /// would add.
    func close(_ fileSystem: any FileSystem) {
      closeLock(fileSystem)
      closeOpenLog(fileSystem)
      FileStore.closeQuietly(directory, fileSystem)
    }

    private static func openDirectory(_ path: String, fileSystem: any FileSystem)
      throws(SharedStoreError) -> Int32
    {
      do {
        try fileSystem.createDirectory(path)
        // Metadata only: this works before the first unlock too, and new files inherit it.
        fileSystem.protectUntilFirstUserAuthentication(path)
        return try fileSystem.open(path, mode: .directory)
      } catch {
        throw error.ioError(path: path)
      }
    }
  }
}
