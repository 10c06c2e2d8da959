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
  /// ``FileStore`` instances on one directory open the lock file separately and so exclude each
  /// other through `flock` even within one process.
  ///
  /// The lock file is opened (and created, mode 0600) the first time, without following a
  /// symbolic link, and must be a regular file. After taking the `flock`, it checks that the
  /// locked file is still the directory's `.lock`. If the directory was removed or replaced since
  /// the store opened it (an app's "reset data", a wiped container), a store that kept locking the
  /// old file would exclude nobody: the store then opens the new directory and lock file and
  /// locks again.
  ///
  /// A thread that holds exclusive access already — inside ``exclusively(_:)``, on this store or
  /// a sibling — takes it again at no cost: the `flock` stays as it was. From inside a change's
  /// body it is refused with ``Errno/resourceDeadlockAvoided``: the outer change would write over
  /// what the inner one wrote (before the lock was recursive, that call waited forever).
  func acquireExclusiveAccess() throws(SharedStoreError) {
    processLock.lock()
    guard handles.exclusiveDepth == 0 else {
      guard !handles.inChangeBody else {
        processLock.unlock()
        throw .io(
          operation: "flock (a change made from inside another change's body)", path: lockPath,
          errno: .resourceDeadlockAvoided)
      }
      handles.exclusiveDepth += 1
      return
    }
    do throws(SharedStoreError) {
      for _ in 0..<3 {
        guard let lock = try openedLockFile() else {
          // The directory is gone: make it again, then its lock file.
          try handles.reopen(directory: directoryPath, fileSystem: fileSystem)
          continue
        }
        try lockFile(lock)
        if try lockFileIsCurrent(lock) {
          handles.exclusiveDepth = 1
          handles.forgetChecks()
          return
        }
        releaseFileLock(lock)
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

  /// Releases what ``acquireExclusiveAccess()`` took: the `flock` with the last release.
  func releaseExclusiveAccess() {
    handles.exclusiveDepth -= 1
    if handles.exclusiveDepth == 0, let lock = handles.lock { releaseFileLock(lock) }
    processLock.unlock()
  }

  /// Runs `body` holding the store's lock, so that the changes it makes through this store and
  /// its siblings (``withDurability(_:)``) happen in one hold of it — exclusive across
  /// processes, as each change is — and cost one `flock` and its check instead of one each.
  ///
  /// ```swift
  /// let facts = try FileStore(directory: folder)
  /// let beats = facts.withDurability(.processCrashSafe)
  /// try facts.exclusively {
  ///   try facts.append([fact], toLog: "facts", capacity: 1_024)
  ///   try beats.append([beat], toLog: "beats", capacity: 2_880)
  /// }
  /// ```
  ///
  /// Each change inside still succeeds or fails on its own, with its own durability; a change
  /// that throws does not undo the ones before it. Another process's change waits for the whole
  /// of `body`, so keep it short; on iOS a process suspended while it holds a lock in a shared
  /// container is terminated. Readers take no lock and are not held up. That the lock file is
  /// still the directory's is checked when the hold begins, not at each change inside it: a
  /// directory replaced during `body` is seen by the next hold. A change — or a hold — begun
  /// from inside another change's body (an `update` body, an append's closure) is refused with
  /// ``Errno/resourceDeadlockAvoided``, inside a hold or not. Do not make a monitor recorder's
  /// callback (TrackerSignals) inside a hold: it takes a lock of its own before this one, and a
  /// callback on another thread would then wait for this hold while this one waits for it.
  ///
  /// - Parameter body: The changes to make. It must not use a store on this directory that is
  ///   not this one or a sibling: that store's lock would wait for this one forever.
  /// - Returns: What `body` returned.
  /// - Throws: ``SharedStoreError`` when the lock cannot be taken, and then `body` did not run
  ///   (``SharedStoreError/protectedDataUnavailable(key:path:)`` before the first unlock, for
  ///   one); otherwise the `Failure` that `body` threw, unchanged.
  @discardableResult
  public func exclusively<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws
    -> Result
  {
    try acquireExclusiveAccess()
    defer { releaseExclusiveAccess() }
    return try body()
  }

  /// The lock file's descriptor, opening or creating the file first when needed; `nil` when the
  /// store's directory is gone (`O_CREAT` makes a missing file, not a missing directory).
  private func openedLockFile() throws(SharedStoreError) -> Int32? {
    if let lock = handles.lock { return lock }
    guard let (lock, status) = try openRegularFile(lockPath, mode: .readWriteCreate, key: nil)
    else {
      return nil
    }
    // Once per process: a lock file created under another class would otherwise keep every
    // change out whenever the device is locked.
    fileSystem.protectUntilFirstUserAuthentication(lockPath)
    handles.lock = lock
    handles.lockIdentity = status.identity
    return lock
  }

  private func lockFile(_ lock: Int32) throws(SharedStoreError) {
    do {
      try fileSystem.lockExclusively(lock)
    } catch {
      throw error.ioError(path: lockPath)
    }
  }

  /// Whether the descriptor this store locks is the file now at `.lock` in its directory; a
  /// symbolic link put there since is not (`lstat`).
  ///
  /// The locked file's identity was taken by the `fstat` that checked it when it was opened (an
  /// open descriptor's file never changes), so this costs one `lstat`.
  private func lockFileIsCurrent(_ lock: Int32) throws(SharedStoreError) -> Bool {
    do {
      // Taken whenever the lock file is opened; were it missing, the store would open the
      // lock file again, as after a replaced one.
      guard let locked = handles.lockIdentity else { return false }
      return try fileSystem.status(atPath: lockPath)?.identity == locked
    } catch {
      releaseFileLock(lock)
      throw error.ioError(path: lockPath)
    }
  }

  /// Releases the `flock`; when `flock(LOCK_UN)` fails, closes the lock file instead, which
  /// releases it too, so that no other process waits forever.
  ///
  /// `flock(LOCK_UN)` fails only for a descriptor that is not open (`EBADF`, `EINVAL`; `EINTR` is
  /// retried), which the store never closes while it is in use — or through a seam that injects
  /// a fault. Closing is the release that cannot fail: the store opens the lock file again for
  /// its next change.
  private func releaseFileLock(_ lock: Int32) {
    do {
      try fileSystem.unlock(lock)
    } catch {
      handles.closeLock(fileSystem)
    }
  }
}
