#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

extension FileStore {
  /// Takes the in-process lock and then the `flock` on the lock file; pair with
  /// ``releaseExclusiveAccess()``.
  ///
  /// The in-process lock comes first: a `flock` belongs to the open file description, so threads
  /// sharing this store's descriptor would not exclude each other through it alone. Two
  /// `FileStore` instances on one directory open the lock file separately and so exclude each
  /// other through `flock` even within one process.
  ///
  /// After taking the `flock`, it checks that the locked file is still the directory's `.lock`.
  /// If the directory was removed or replaced since the store opened it (an app's "reset data",
  /// a wiped container), a store that kept locking the old file would exclude nobody: the store
  /// then opens the new directory and lock file and locks again.
  func acquireExclusiveAccess() throws(SharedStoreError) {
    processLock.lock()
    do throws(SharedStoreError) {
      for _ in 0..<3 {
        try lockFile()
        if try lockFileIsCurrent() { return }
        releaseFileLock()
        try handles.reopen(directory: directoryPath, fileSystem: fileSystem)
      }
      throw .io(
        operation: "flock (the lock file was replaced three times in a row)", path: lockPath,
        errno: .staleFileHandle)
    } catch {
      processLock.unlock()
      throw error
    }
  }

  /// Releases what ``acquireExclusiveAccess()`` took.
  func releaseExclusiveAccess() {
    releaseFileLock()
    processLock.unlock()
  }

  var lockPath: String { directoryPath + "/" + FileName.lock }

  private func lockFile() throws(SharedStoreError) {
    do {
      try fileSystem.lockExclusively(handles.lock)
    } catch {
      throw error.ioError(path: lockPath)
    }
  }

  /// Whether the descriptor this store locks is the file now at `.lock` in its directory.
  private func lockFileIsCurrent() throws(SharedStoreError) -> Bool {
    do {
      let locked = try fileSystem.identity(of: handles.lock)
      return try fileSystem.identity(atPath: lockPath) == locked
    } catch {
      releaseFileLock()
      throw error.ioError(path: lockPath)
    }
  }

  private func releaseFileLock() {
    do {
      try fileSystem.unlock(handles.lock)
    } catch {
      // flock(LOCK_UN) fails only for a descriptor that is not open (EBADF, EINVAL); EINTR is
      // retried. This descriptor lives as long as the store, so a failure is a broken invariant,
      // and carrying on would leave every other process waiting forever.
      preconditionFailure("releasing the store lock failed: \(error)")
    }
  }
}
