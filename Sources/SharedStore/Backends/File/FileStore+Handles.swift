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
    /// How many times the thread holding the store's in-process lock has taken exclusive access
    /// without releasing it: the `flock` is taken at the first and released at the last.
    var exclusiveDepth = 0
    /// Changes at each outermost hold of exclusive access and whenever the store renames or
    /// unlinks a file, so that a kept log file checked under the current serial
    /// (``OpenLog/checkedAt``) is not checked again: in one hold, no other writer can replace
    /// it, and this store's own replacements change the serial.
    private(set) var checkSerial: UInt64 = 0

    /// Starts a new ``checkSerial``: the kept log files are checked again at their next use.
    func forgetChecks() {
      checkSerial &+= 1
    }
    /// Whether a change's body is running — an `update` body, an append's or a compaction's
    /// closure — so that a change it makes on this store or a sibling is refused, not nested.
    var inChangeBody = false

    /// Runs `body`, a change's closure, with ``inChangeBody`` set; the caller holds exclusive
    /// access.
    func runningChangeBody<Result>(_ body: () throws(SharedStoreError) -> Result)
      throws(SharedStoreError) -> Result
    {
      let outer = inChangeBody
      inChangeBody = true
      defer { inChangeBody = outer }
      return try body()
    }
    /// The identity of the file `lock` refers to, taken when it was opened: an open descriptor
    /// keeps its file, so it never changes, and checking that the lock is current needs only
    /// the `lstat` of the lock file's path.
    var lockIdentity: FileIdentity?
    /// The log files the store appended to last, the most recent last, each kept open for its
    /// next append; see ``OpenLog``.
    private(set) var openLogs: [OpenLog] = []
    /// The most log files kept open: 4.
    ///
    /// A writer that appends to a few logs in turn — a wake's day log, record and ledger — finds
    /// each open. Each holds one descriptor and at most twice ``LogWindow/capacity`` bytes
    /// (the file's end, and its newest record decoded).
    static let keptLogs = 4
    private(set) var directory: Int32
    /// The calls that close the descriptors when the last store sharing them goes.
    private let fileSystem: any FileSystem

    /// Creates the directory with its parents if needed, then opens it.
    init(directory path: String, fileSystem: any FileSystem) throws(SharedStoreError) {
      directory = try Self.openDirectory(path, fileSystem: fileSystem)
      self.fileSystem = fileSystem
    }

    deinit {
      close(fileSystem)
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

    /// Takes the log file kept open for `key` out of the kept ones, if there is one.
    func takeOpenLog(forKey key: String) -> OpenLog? {
      guard let index = openLogs.lastIndex(where: { $0.key == key }) else { return nil }
      return openLogs.remove(at: index)
    }

    /// The log file kept open for `key`, left among the kept ones, if there is one.
    func openLog(forKey key: String) -> OpenLog? {
      openLogs.last { $0.key == key }
    }

    /// Keeps `log` open for its next append, closing the least recently used one past
    /// ``keptLogs``.
    func keep(_ log: OpenLog, _ fileSystem: any FileSystem) {
      // One kept file a key: an older one of the same key holds an end that is no longer true.
      if let stale = openLogs.firstIndex(where: { $0.key == log.key && $0 !== log }) {
        FileStore.closeQuietly(openLogs.remove(at: stale).descriptor, fileSystem)
      }
      openLogs.append(log)
      while openLogs.count > Self.keptLogs {
        FileStore.closeQuietly(openLogs.removeFirst().descriptor, fileSystem)
      }
    }

    /// Closes the log files kept open for appending.
    func closeOpenLogs(_ fileSystem: any FileSystem) {
      for log in openLogs { FileStore.closeQuietly(log.descriptor, fileSystem) }
      openLogs = []
    }

    /// Closes every descriptor.
    ///
    /// The directory and the lock file had nothing written through them; a kept log file was
    /// flushed by each durable append, and a store that does not flush promises nothing a close
    /// would add.
    func close(_ fileSystem: any FileSystem) {
      closeLock(fileSystem)
      closeOpenLogs(fileSystem)
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
