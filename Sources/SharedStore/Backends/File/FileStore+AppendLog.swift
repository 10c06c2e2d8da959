import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

extension FileStore {
  /// Appends records to the end of the log file of `key` under the store's lock, after showing
  /// `makeRecords` its newest records; see
  /// ``SharedStore/appendToLog(_:capacity:examiningNewest:_:)``.
  ///
  /// The records are written as one frame at the end of the file (`pwrite`), and with
  /// ``Durability/durable`` the file is flushed once: no rename, no directory flush. A new log,
  /// and a log compacted because it would hold more than twice its capacity (or because its
  /// capacity changes, or a killed writer left a torn frame at its end), is written to a
  /// temporary file renamed into place, as a value is.
  ///
  /// After an append that wrote a frame, the store keeps the file open, with its header and
  /// end, for its next append to the same log, which then checks the file with one `fstatat`
  /// (same device and inode, same size; once per hold of the lock, ``exclusively(_:)``) instead
  /// of opening and reading it; a store keeps the four log files it appended to last open, and
  /// anything that changed a file since makes it open or read the file again
  /// (<doc:/ScreenTimeKit/FileFormat>, "How an append happens").
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - capacity: The most records the log keeps, at least 1.
  ///   - examiningNewest: How many of the newest records `makeRecords` sees.
  ///   - makeRecords: Returns the records to append. It runs while the directory is locked and
  ///     must make no change through this store or a sibling (refused with
  ///     ``Errno/resourceDeadlockAvoided``), nor through another ``FileStore`` on the same
  ///     directory (that would wait forever).
  /// - Returns: What was appended, or `nil` when `makeRecords` returned no record.
  /// The log file must be a regular file of at most ``FileStore/maximumFileSize`` bytes; an
  /// append that would make it larger compacts it to its newest `capacity` records instead, and
  /// throws ``SharedStoreError/tooLarge(key:path:size:limit:)`` if even those do not fit.
  ///
  /// - Throws: ``SharedStoreError`` — `notARegularFile` and `tooLarge` included — and then
  ///   nothing was appended — a write that failed part
  ///   way leaves a torn frame that readers ignore and the next append removes — except
  ///   ``SharedStoreError/notDurable(key:path:errno:)``: the records are in place, but flushing
  ///   the file, or the directory after a rename, failed.
  /// - Complexity: O(*k*) in the bytes appended plus the newest frame read; O(*n*) once per
  ///   *capacity* appends, when the log is compacted.
  @discardableResult
  public func appendToLog(
    _ key: String,
    capacity: Int,
    examiningNewest: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    try StoreKeyRules.validate(key)
    try acquireExclusiveAccess()
    defer { releaseExclusiveAccess() }
    var engine = try appendingEngine(key)
    let appended: LogAppend?
    do {
      appended = try handles.runningChangeBody { () throws(SharedStoreError) in
        try engine.append(capacity: capacity, examining: examiningNewest, makeRecords)
      }
    } catch {
      engine.medium.closeQuietly()
      throw error
    }
    try engine.medium.finishAppend()
    return appended
  }

  /// Reads the log of `key` without taking the lock; see ``SharedStore/readLog(_:newest:)``.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - newest: How many of the newest records to return, or `nil` for all. For a few, only
  ///     the header and the end of the file are read — and, when the calling thread holds the
  ///     store's lock (inside ``exclusively(_:)``, or a change's body), from memory after at
  ///     most one `fstatat` (none when the hold checked the file already) when this store or a
  ///     sibling appended to or read the log last and no store has changed the file since; a log
  ///     with no file then costs one `fstatat` too, and one read in a hold (outside a change's
  ///     body) is kept open for the next. A read never waits for the lock.
  /// - Returns: The log, or `nil` when the key has no file.
  /// - Throws: ``SharedStoreError`` — `invalidKey`, `kindMismatch`, `corrupted`,
  ///   `unsupportedFormatVersion`, `notARegularFile`, `tooLarge` (a file over
  ///   ``FileStore/maximumFileSize`` is not read) or `io`.
  public func readLog(_ key: String, newest: Int?) throws(SharedStoreError) -> LogSnapshot? {
    try StoreKeyRules.validate(key)
    if let newest, case .read(let snapshot) = try heldLogSnapshot(key, newest: newest) {
      return snapshot
    }
    let engine = try logEngine(key, mode: .readOnly)
    defer { engine.medium.closeQuietly() }
    return try engine.view(newest: newest)?.snapshot(newest: newest ?? .max)
  }

  /// Rewrites the log of `key` with the records `isKept` keeps, under the store's lock; see
  /// ``SharedStore/compactLog(_:keeping:)``.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - isKept: Whether to keep a record. It runs while the directory is locked.
  /// - Returns: How many records were removed.
  /// - Throws: ``SharedStoreError``; nothing is changed then, except after
  ///   ``SharedStoreError/notDurable(key:path:errno:)``.
  @discardableResult
  public func compactLog(
    _ key: String,
    keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int {
    try StoreKeyRules.validate(key)
    try acquireExclusiveAccess()
    defer { releaseExclusiveAccess() }
    var engine = try logEngine(key, mode: .readOnly)
    defer { engine.medium.closeQuietly() }
    return try handles.runningChangeBody { () throws(SharedStoreError) in
      try engine.compact(keeping: isKept)
    }
  }

  /// What a read of the newest records inside a hold found without opening the log's file.
  private enum HeldLogRead {
    /// The log as the kept file holds it, or `nil` when the key has no file.
    case read(LogSnapshot?)
    /// The file must be opened and read.
    case fileNeeded
  }

  /// The newest records of the log of `key` read through the file this store keeps open for
  /// its appends, when the calling thread holds the store's lock (``exclusively(_:)``);
  /// `fileNeeded` when it does not.
  ///
  /// When no file is kept for `key` (or the kept one is no longer the key's), one `fstatat` of
  /// its name tells a log with no file (`nil`) from one whose file is then opened, read and
  /// kept open as an append keeps it: a log read before every change of another — an outbox's
  /// mark, which its producer rarely writes — costs one `fstatat` from then on, not an `open`,
  /// which looks the whole path up (and, for a name with no file, fails).
  ///
  /// A producer that reads a log it then appends to in the same hold of the lock (the monitor
  /// extension's heartbeats, which carry the outbox's mark and are read before each publish)
  /// pays one `fstatat` instead of an `open`, an
  /// `fstat`, two reads and a `close`. The rule is the append's (``OpenLog``): the same regular
  /// file of the size the store last knew holds the bytes the store holds, and any other size
  /// is read again through the kept descriptor. Like the append that follows, such a read does
  /// not see a byte changed in place by something other than a store; a read outside a hold
  /// reads the file, and so reports that damage.
  private func heldLogSnapshot(_ key: String, newest: Int) throws(SharedStoreError)
    -> HeldLogRead
  {
    // A reader takes no lock: when another thread holds this one, the read goes to the file.
    // The in-process lock is recursive, so the thread that holds it takes it again, and a depth
    // above zero is then its own hold.
    guard processLock.tryLock() else { return .fileNeeded }
    defer { processLock.unlock() }
    guard handles.exclusiveDepth > 0 else { return .fileNeeded }
    if let kept = handles.openLog(forKey: key), isCurrent(kept) {
      let engine = LogEngine(
        medium: FileLogMedium(store: self, kept: kept), key: key, path: kept.path,
        random: { UInt64.random(in: 1...UInt64.max) })
      // The descriptor stays open: it is the kept one, which the next append uses.
      return .read(try engine.view(newest: newest)?.snapshot(newest: newest))
    }
    // Anything but "no such file" (a file, a failed call) is for the open to report.
    let name = FileName.forKey(key)
    do {
      let found = try fileSystem.status(
        named: name, inDirectory: handles.directory, path: path(forName: name))
      guard found != nil else { return .read(nil) }
    } catch {
      return .fileNeeded
    }
    // Inside a change's body the log may be the one being changed, whose kept file is taken
    // out meanwhile: a second one kept now would hold its end as it was. Read the file.
    guard !handles.inChangeBody else { return .fileNeeded }
    // Opened for appending, so that the file is kept as an append keeps it (a kept file that is
    // no longer the key's is let go first); a file this process may read but not write is read.
    let engine: LogEngine<FileLogMedium>
    do {
      engine = try appendingEngine(key)
    } catch {
      guard case .io(_, _, let errno) = error,
        [.permissionDenied, .operationNotPermitted, .readOnlyFileSystem].contains(errno)
      else { throw error }
      return .fileNeeded
    }
    do {
      let snapshot = try engine.view(newest: newest)?.snapshot(newest: newest)
      try engine.medium.finishAppend()
      return .read(snapshot)
    } catch {
      engine.medium.closeQuietly()
      throw error
    }
  }

  /// An engine over the file of `key`, opened with `mode` when it exists.
  private func logEngine(_ key: String, mode: OpenMode) throws(SharedStoreError)
    -> LogEngine<FileLogMedium>
  {
    let path = path(forKey: key)
    let file = try openKeyFile(key: key, path: path, mode: mode)
    return LogEngine(
      medium: FileLogMedium(
        store: self, key: key, path: path, descriptor: file?.descriptor, size: file?.size ?? 0),
      key: key, path: path, random: { UInt64.random(in: 1...UInt64.max) })
  }

  /// An engine for appending to the log of `key`, on the file kept open when it still is the
  /// key's.
  ///
  /// The file an earlier append kept open is used when the key's path still names it (one
  /// `fstatat`; see ``OpenLog``); otherwise the file is opened afresh. The caller holds exclusive
  /// access.
  private func appendingEngine(_ key: String) throws(SharedStoreError)
    -> LogEngine<FileLogMedium>
  {
    let random = { UInt64.random(in: 1...UInt64.max) }
    if let kept = handles.takeOpenLog(forKey: key) {
      let path = kept.path
      if isCurrent(kept) {
        return LogEngine(
          medium: FileLogMedium(store: self, kept: kept), key: key, path: path, random: random)
      }
      Self.closeQuietly(kept.descriptor, fileSystem)
    }
    let name = FileName.forKey(key)
    let path = path(forName: name)
    let file = try openKeyFile(key: key, path: path, mode: .readWrite)
    return LogEngine(
      medium: FileLogMedium(
        store: self, key: key, path: path, name: name, descriptor: file?.descriptor,
        identity: file?.identity, window: file.map { LogWindow(size: $0.size) }),
      key: key, path: path, random: random)
  }

  /// Whether the key's path still names `kept`, a regular file within the size limit, and
  /// the window then knows the file's size; the caller holds exclusive access.
  ///
  /// One `fstatat` of the file's name in the directory the store keeps open — an `lstat` that
  /// looks up the last component only, since the lock's check at the start of the hold found
  /// that directory at the store's path — except when the file was checked or written in this
  /// hold already (an outbox's mark, read and then appended to) and the store renamed or
  /// unlinked no file since (``Handles/checkSerial``): no other writer can have replaced it
  /// meanwhile. A failure of the `fstatat` is not reported and loses nothing: the kept
  /// descriptor is let go and the log is opened afresh, whose errors are reported.
  private func isCurrent(_ kept: OpenLog) -> Bool {
    if kept.checkedAt == handles.checkSerial { return true }
    let found: FileStatus?
    do {
      found = try fileSystem.status(
        named: kept.name, inDirectory: handles.directory, path: kept.path)
    } catch {
      return false
    }
    guard let status = found, status.kind == .regularFile, status.identity == kept.identity,
      status.size <= Self.maximumFileSize
    else { return false }
    kept.window.resize(to: status.size)
    kept.checkedAt = handles.checkSerial
    return true
  }

  /// The change token of a log file: its header's token base plus the bytes after the header.
  func logToken(_ prefix: Data, descriptor: Int32, key: String, path: String)
    throws(SharedStoreError) -> ChangeToken
  {
    let header: LogFileFormat.Header
    switch LogFileFormat.decodeHeader(prefix) {
    case .success(let valid): header = valid
    case .failure(let damage): throw Self.error(for: damage, key: key, path: path)
    }
    let size: Int
    do {
      size = try fileSystem.size(of: descriptor)
    } catch {
      throw error.ioError(path: path)
    }
    return ChangeToken(generation: header.tokenBase &+ UInt64(size - LogFileFormat.headerSize))
  }
}

/// A log file of a ``FileStore``, through its file-system seam.
struct FileLogMedium: LogMedium {
  let store: FileStore
  let key: String
  let path: String
  /// For an append: the file's name in the store's directory, the last component of `path`.
  private let name: String?
  /// The open file, or `nil` when the log does not exist.
  let descriptor: Int32?
  /// The file's size when it was opened, which the `fstat` of the open checked against
  /// ``FileStore/maximumFileSize``; a reader reads the log as it was then.
  private let openedSize: Int
  /// For an append: the file's device and inode, and what the store knows of its bytes, so that
  /// the file can be kept open for the next append (``FileStore/OpenLog``); `nil` for a reader.
  private let identity: FileIdentity?
  private let window: FileStore.LogWindow?
  /// For an append to the file an earlier append kept open: its `OpenLog`, taken out of the
  /// kept ones, which ``finishAppend()`` keeps again rather than making a new one at every
  /// append.
  private let kept: FileStore.OpenLog?
  /// Whether bytes were written through `descriptor`, so that closing it must succeed.
  private var wrote = false
  /// Whether the log was replaced by a new file, so that `descriptor` is the old one.
  private var replaced = false

  /// A medium for reading the log: nothing is kept.
  init(store: FileStore, key: String, path: String, descriptor: Int32?, size: Int) {
    self.store = store
    self.key = key
    self.path = path
    self.descriptor = descriptor
    self.openedSize = size
    self.name = nil
    self.identity = nil
    self.window = nil
    self.kept = nil
  }

  /// A medium for appending to the log, whose file ``finishAppend()`` keeps open.
  init(
    store: FileStore, key: String, path: String, name: String, descriptor: Int32?,
    identity: FileIdentity?, window: FileStore.LogWindow?
  ) {
    self.store = store
    self.key = key
    self.path = path
    self.name = name
    self.descriptor = descriptor
    self.openedSize = window?.size ?? 0
    self.identity = identity
    self.window = window
    self.kept = nil
  }

  /// A medium for appending to (or, inside a hold, reading) a file an earlier append kept open.
  ///
  /// An appender takes `kept` out of the kept ones first (`Handles.takeOpenLog(forKey:)`), since
  /// ``finishAppend()`` keeps it again; a reader, which leaves it there, never calls
  /// ``finishAppend()``.
  init(store: FileStore, kept: FileStore.OpenLog) {
    self.store = store
    self.key = kept.key
    self.path = kept.path
    self.name = kept.name
    self.descriptor = kept.descriptor
    self.openedSize = kept.window.size
    self.identity = kept.identity
    self.window = kept.window
    self.kept = kept
  }

  var exists: Bool { descriptor != nil }

  var maximumSize: Int { FileStore.maximumFileSize }

  /// The file's size: when it was opened (or, for an append to a kept file, found by the
  /// `fstatat` that checked it), plus what this medium appended; never beyond
  /// ``FileStore/maximumFileSize``, since a larger file is refused before anything is read.
  ///
  /// An appender holds the store's lock, so no other writer of the store grows the file
  /// meanwhile; a reader reads the log as it was when it opened the file.
  func size() throws(SharedStoreError) -> Int {
    window?.size ?? openedSize
  }

  func read(from offset: Int, count: Int) throws(SharedStoreError) -> Data {
    do {
      return try store.fileSystem.read(open(), count: count, at: offset)
    } catch {
      throw error.ioError(path: path)
    }
  }

  /// Reads as ``read(from:count:)``, from the window of an append when it holds the bytes, and
  /// keeps what it read there.
  func readEnd(from offset: Int, count: Int) throws(SharedStoreError) -> Data {
    if let bytes = window?.bytes(from: offset, count: count) { return bytes }
    let bytes = try read(from: offset, count: count)
    window?.remember(bytes, at: offset)
    return bytes
  }

  func rememberedEnd() -> LogView? {
    window?.decodedEnd
  }

  func rememberEnd(_ end: LogView) {
    window?.keepDecodedEnd(end)
  }

  var keptRecordLimit: Int {
    window == nil ? 0 : FileStore.LogWindow.capacity
  }

  mutating func append(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(SharedStoreError) {
    guard bytes.count <= maximumSize - offset else {
      throw .tooLarge(key: key, path: path, size: offset + bytes.count, limit: maximumSize)
    }
    do {
      try store.fileSystem.writeAll(open(), bytes, at: offset)
    } catch {
      // Whatever part of the frame was written lacks its final 0x00: a torn tail, which readers
      // ignore and the next append replaces.
      throw error.ioError(path: path)
    }
    wrote = true
    window?.appended(bytes, at: offset)
    guard store.durability == .durable else { return }
    do {
      try store.fileSystem.synchronize(open())
    } catch {
      throw .notDurable(key: key, path: path, errno: Errno(rawValue: error.code))
    }
  }

  mutating func replace(with bytes: Data) throws(SharedStoreError) {
    replaced = true
    try store.replaceFile(key: key, contents: bytes)
  }

  /// Writes the new file a piece at a time as `produce` hands the pieces over, then renames it
  /// into place as ``replace(with:)`` does.
  mutating func replace(
    producing produce: (_ write: (Data) throws(SharedStoreError) -> Void) throws(SharedStoreError)
      -> Void
  ) throws(SharedStoreError) {
    replaced = true
    try store.replaceFile(key: key, producing: produce)
  }

  /// Ends a successful append: keeps the file open for the next append to the log (the caller
  /// holds exclusive access), unless the log was replaced by a new file or created; then closes
  /// it as ``close()`` does.
  func finishAppend() throws(SharedStoreError) {
    guard let descriptor, let name, let identity, let window, !replaced else {
      return try close()
    }
    if let kept {
      kept.checkedAt = store.handles.checkSerial
      store.handles.keep(kept, store.fileSystem)
      return
    }
    store.handles.keep(
      FileStore.OpenLog(
        key: key, path: path, name: name, descriptor: descriptor, identity: identity,
        window: window, checkedAt: store.handles.checkSerial),
      store.fileSystem)
  }

  /// Closes the file; after a write, a failed close is reported as `notDurable`: the records
  /// are in place, but may not have reached the disk.
  func close() throws(SharedStoreError) {
    guard let descriptor else { return }
    guard wrote else {
      FileStore.closeQuietly(descriptor, store.fileSystem)
      return
    }
    do {
      try store.fileSystem.close(descriptor)
    } catch {
      throw .notDurable(key: key, path: path, errno: Errno(rawValue: error.code))
    }
  }

  /// Closes the file, ignoring the result: after a failure that is already being reported, or
  /// when nothing was written through it.
  func closeQuietly() {
    guard let descriptor else { return }
    FileStore.closeQuietly(descriptor, store.fileSystem)
  }

  private func open() throws(SystemCallError) -> Int32 {
    guard let descriptor else { throw SystemCallError("read (no log file)", ENOENT) }
    return descriptor
  }
}
