extension FileStore {
  /// Takes the in-process lock and then the `flock` on the lock file; pair with
  /// ``releaseExclusiveAccess()``.
  ///
  /// The in-process lock comes first: a `flock` belongs to the open file description, so threads
  /// sharing this store's descriptor would not exclude each other through it alone. Two
  /// `FileStore` instances on one directory open the lock file separately and so exclude each
  /// other through `flock` even within one process.
  func acquireExclusiveAccess() throws(SharedStoreError) {
    processLock.lock()
    do {
      try fileSystem.lockExclusively(lockDescriptor)
    } catch {
      processLock.unlock()
      throw .io(
        operation: error.operation, path: directoryPath + "/" + FileName.lock, errno: error.code)
    }
  }

  /// Releases what ``acquireExclusiveAccess()`` took.
  func releaseExclusiveAccess() {
    do {
      try fileSystem.unlock(lockDescriptor)
    } catch {
      // flock(LOCK_UN) fails only for a descriptor that is not open (EBADF, EINVAL); EINTR is
      // retried. This descriptor lives as long as the store, so a failure is a broken invariant,
      // and carrying on would leave every other process waiting forever.
      preconditionFailure("releasing the store lock failed: \(error)")
    }
    processLock.unlock()
  }
}
