import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

/// A ``SharedStore`` that keeps one file per key in a directory an app and its extensions share.
///
/// On iOS, point it at a folder inside the app-group container; every process that opens a
/// ``FileStore`` on the same folder sees the same values, and ``update(_:_:)`` is exclusive across
/// all of them.
///
/// ```swift
/// let container = FileManager.default
///   .containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.screentime")!
/// let store = try FileStore(directory: container.appending(path: "ScreenTimeKit"))
/// ```
///
/// **Writes** go to a temporary file in the same directory, which is flushed, renamed over the old
/// file, and followed by a flush of the directory (see ``Durability``). A reader therefore sees the
/// complete old value or the complete new one, never a torn mix, even if the writer is killed.
///
/// **Reads** never wait for a lock. Each file carries a header with a checksum (see
/// <doc:/ScreenTimeKit/FileFormat>), so a damaged or foreign file is reported as
/// ``SharedStoreError/corrupted(key:path:reason:)`` and left untouched.
///
/// **Anything in the directory is input.** Other processes share it and it survives app updates,
/// so the store trusts nothing it finds there. It opens a key's file without following a
/// symbolic link and without waiting (a FIFO would block), checks with `fstat` that it is a
/// regular file before reading or writing it — a directory, a symbolic link, a FIFO, a socket
/// or a device is ``SharedStoreError/notARegularFile(key:path:kind:)`` — and reads at most the
/// size it found, never more than ``maximumFileSize``
/// (``SharedStoreError/tooLarge(key:path:size:limit:)``). The lock file gets the same checks.
/// Nothing the store does follows a link out of its directory.
///
/// **Read-only stores.** Opening a store creates its directory if needed and opens it, nothing
/// more: the lock file is created by the first change. So a store on a read-only volume, or in a
/// directory the process may only read, opens, and reads, keys and change tokens work; every
/// change throws ``SharedStoreError/io(operation:path:errno:)`` with
/// ``Errno/readOnlyFileSystem`` or ``Errno/permissionDenied``, naming the file it could not
/// create or change.
///
/// **Data protection.** On Apple platforms the store gives its directory, when it opens it, and
/// every file it creates — each temporary file before its first byte, and the lock file — the
/// protection class *complete until first user authentication*
/// (`FileProtectionType.completeUntilFirstUserAuthentication`): encrypted until the person
/// unlocks the device once after a restart, then readable even while the device is locked. That
/// is the class the store needs: a monitor extension is called while the device is locked (an
/// interval that starts at midnight), and `complete` protection would close the folder to it
/// every time the screen locks. Between a restart and the first unlock no class but *none* lets
/// a file open; the store then throws
/// ``SharedStoreError/protectedDataUnavailable(key:path:)`` and changes nothing, and
/// ``/TrackerSignals/MonitorRecorder`` holds its facts in memory until the folder opens. Setting the
/// class is best effort — a volume without data protection (a Mac's) keeps its files as they are
/// — and on Linux there is none to set.
///
/// **Exclusion** between writers uses `flock` on the lock file `.lock`, which is never renamed,
/// together with an in-process lock, because a `flock` does not exclude threads that share one
/// descriptor. The lock is held only for the duration of one write, removal or update, or of the
/// few changes made inside ``exclusively(_:)``. On iOS a process that is suspended while holding a
/// file lock in a shared container is terminated by the system, so keep ``update(_:_:)`` and
/// ``exclusively(_:)`` bodies short and never await inside them.
///
/// **Append-only logs** live in files of their own kind: an append writes one checksummed frame
/// at the end of the file and flushes that file, with no rename; see
/// ``appendToLog(_:capacity:examiningNewest:_:)``. The store keeps the four logs it appended to
/// last open (shared with its siblings), so that the next append to one — a monitor extension's
/// next callback — checks the file with one `fstatat` instead of opening and reading it again.
///
/// Names that start with `.` in the directory belong to the store: `.lock`, temporary files
/// `.tmp.*` and quarantined files `.quarantined.*`. Other files in the directory whose names are
/// not valid encoded keys are ignored. Keys that differ only in case get distinct file names even
/// on a case-insensitive volume; <doc:/ScreenTimeKit/FileFormat> describes the naming and the file
/// format.
public final class FileStore: SharedStore {
  /// The directory holding the store's files.
  public let directory: URL
  /// How much each write flushes before it returns.
  public let durability: Durability

  let fileSystem: any FileSystem
  let directoryPath: String
  /// The lock file's path, `.lock` in the directory: checked at every hold of the lock, so
  /// made once.
  let lockPath: String
  /// The lock file's and the directory's descriptors, shared with the store's siblings.
  ///
  /// Read and replaced only under `processLock`; see ``withDurability(_:)``.
  let handles: Handles
  /// The in-process half of the store's lock, shared with the store's siblings.
  ///
  /// Recursive, so that ``exclusively(_:)`` can hold it across changes that each take it.
  let processLock: Lock

  /// Opens (and if needed creates) a store in `directory`.
  ///
  /// Creates the directory with its missing parents (mode 0700) unless it exists, and opens it;
  /// the lock file `.lock` is created or opened by the first change, so a store on a read-only
  /// directory opens and can be read. Opening a store does not scan the directory; call
  /// ``removeTemporaryFiles()`` at launch to clean up after a writer that was killed.
  ///
  /// - Parameters:
  ///   - directory: A file URL of the store's directory.
  ///   - durability: How much each write flushes; ``Durability/durable`` unless you choose
  ///     otherwise.
  /// - Throws: ``SharedStoreError/io(operation:path:errno:)`` when the directory cannot be
  ///   created or opened, or the URL is not a file URL (``Errno/invalidArgument``).
  public convenience init(directory: URL, durability: Durability = .durable)
    throws(SharedStoreError)
  {
    try self.init(directory: directory, durability: durability, fileSystem: POSIXFileSystem())
  }

  /// Opens a store through an explicit file-system seam, so that tests can inject faults.
  ///
  /// - Parameters:
  ///   - directory: A file URL of the store's directory.
  ///   - durability: How much each write flushes.
  ///   - fileSystem: The file-system calls to use.
  /// - Throws: ``SharedStoreError/io(operation:path:errno:)``.
  package init(directory: URL, durability: Durability, fileSystem: any FileSystem)
    throws(SharedStoreError)
  {
    guard directory.isFileURL else {
      throw .io(
        operation: "FileStore.init (not a file URL)", path: "\(directory)",
        errno: .invalidArgument)
    }
    let path = directory.standardizedFileURL.path
    self.directory = directory
    self.durability = durability
    self.fileSystem = fileSystem
    self.directoryPath = path
    lockPath = path + "/" + FileName.lock
    handles = try Handles(directory: path, fileSystem: fileSystem)
    processLock = Lock(recursive: true)
  }

  /// A store on `sibling`'s directory with `durability`, sharing its lock and its descriptors.
  private init(sibling: FileStore, durability: Durability) {
    directory = sibling.directory
    self.durability = durability
    fileSystem = sibling.fileSystem
    directoryPath = sibling.directoryPath
    lockPath = sibling.lockPath
    handles = sibling.handles
    processLock = sibling.processLock
  }

  /// A store on the same directory that flushes as `durability` says, and shares this store's
  /// lock, so that ``exclusively(_:)`` on either holds it for both.
  ///
  /// Two stores opened separately on one directory exclude each other through the lock file,
  /// so one cannot make changes while the other holds the lock (it would wait for itself). A
  /// sibling can: a monitor extension appends its fact to a durable log and its heartbeat to a
  /// log without flushes in one hold of the lock, through a store and its `.processCrashSafe`
  /// sibling. The two share the descriptors they keep open, and the files they keep open for
  /// appending.
  ///
  /// - Parameter durability: How much the sibling's writes flush.
  /// - Returns: The sibling; this store itself when `durability` is its own.
  public func withDurability(_ durability: Durability) -> FileStore {
    durability == self.durability ? self : FileStore(sibling: self, durability: durability)
  }

  /// Whether `other` is this store or one of its siblings (``withDurability(_:)``), so that
  /// both hold one lock.
  package func sharesLock(with other: FileStore) -> Bool {
    processLock === other.processLock
  }

  // MARK: - SharedStore

  /// Returns the bytes stored under `key`, or `nil`; takes no lock.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The stored bytes, or `nil` when the key has no file.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``,
  ///   ``SharedStoreError/corrupted(key:path:reason:)`` (also for a file that grows while it is
  ///   read: the store never writes a value in place),
  ///   ``SharedStoreError/unsupportedFormatVersion(key:path:found:supported:)``,
  ///   ``SharedStoreError/notARegularFile(key:path:kind:)``,
  ///   ``SharedStoreError/tooLarge(key:path:size:limit:)`` or
  ///   ``SharedStoreError/io(operation:path:errno:)``.
  /// - Complexity: O(*n*) in the size of the value, at most ``maximumFileSize``.
  public func read(_ key: String) throws(SharedStoreError) -> Data? {
    try StoreKeyRules.validate(key)
    return try readFile(key: key)?.payload
  }

  /// Stores `data` under `key`, replacing whatever file was there, even a damaged one.
  ///
  /// A file written by a newer format version is not replaced: this version of the library
  /// cannot read it, so it cannot know what it would destroy. Nor is anything that is not a
  /// regular file (quarantine or remove it first). A file larger than ``maximumFileSize`` is
  /// replaced, as a damaged one is.
  ///
  /// - Parameters:
  ///   - data: The bytes to store.
  ///   - key: A valid store key.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``,
  ///   ``SharedStoreError/unsupportedFormatVersion(key:path:found:supported:)``,
  ///   ``SharedStoreError/notARegularFile(key:path:kind:)`` (for the key's file or the lock
  ///   file), ``SharedStoreError/tooLarge(key:path:size:limit:)`` for data over
  ///   ``maximumFileSize`` less the 32-byte header, or
  ///   ``SharedStoreError/io(operation:path:errno:)`` — on a read-only store, with
  ///   ``Errno/readOnlyFileSystem`` or ``Errno/permissionDenied`` — with the old value in place
  ///   and no temporary file left behind; or ``SharedStoreError/notDurable(key:path:errno:)``
  ///   when the new value is in place but the directory flush after the rename failed.
  public func write(_ data: Data, for key: String) throws(SharedStoreError) {
    try StoreKeyRules.validate(key)
    try acquireExclusiveAccess()
    defer { releaseExclusiveAccess() }
    let generation = try currentGeneration(key: key).map { $0 &+ 1 } ?? Self.freshGeneration()
    try replaceFile(key: key, payload: data, generation: generation)
  }

  /// Removes the file of `key`, if any.
  ///
  /// Whatever is at the key's path is removed, except a directory: a symbolic link is removed
  /// itself, never what it points to.
  ///
  /// - Parameter key: A valid store key.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)``,
  ///   ``SharedStoreError/notARegularFile(key:path:kind:)`` for a directory at the key's path
  ///   or for a lock file that is not a regular file, or
  ///   ``SharedStoreError/io(operation:path:errno:)``; or
  ///   ``SharedStoreError/notDurable(key:path:errno:)`` when the file was removed but the
  ///   directory flush failed.
  public func remove(_ key: String) throws(SharedStoreError) {
    try StoreKeyRules.validate(key)
    try acquireExclusiveAccess()
    defer { releaseExclusiveAccess() }
    try removeFile(key: key)
  }

  /// Returns the keys that have a file, in ascending order; takes no lock.
  ///
  /// Only regular files whose names are encoded keys count: a directory, a symbolic link, a FIFO
  /// or a device under a key's name is not listed (reading that key reports it as
  /// ``SharedStoreError/notARegularFile(key:path:kind:)``). A regular file is listed even when it
  /// is damaged or too large to read, so that its key can be found and quarantined.
  ///
  /// - Returns: The keys.
  /// - Throws: ``SharedStoreError/io(operation:path:errno:)``.
  /// - Complexity: O(*n* log *n*) in the number of files in the directory, plus one `lstat` per
  ///   file named as a key.
  public func keys() throws(SharedStoreError) -> [String] {
    var keys: [String] = []
    for name in try directoryEntries() {
      guard let key = FileName.key(forFileName: name) else { continue }
      if try kind(ofEntry: name) == .regularFile { keys.append(key) }
    }
    return keys.sorted()
  }

  /// Atomically reads, changes and writes the value under `key`, excluding every other writer of
  /// this directory, in this process or another.
  ///
  /// - Parameters:
  ///   - key: A valid store key.
  ///   - body: The change to make. It runs while the directory is locked and must make no change
  ///     through this store or a sibling (refused with ``Errno/resourceDeadlockAvoided``), nor
  ///     through another ``FileStore`` on the same directory (that would wait forever); reading
  ///     is fine.
  /// - Returns: What `body` returned.
  /// - Throws: ``SharedStoreError`` — including `corrupted`, `notARegularFile` or `tooLarge`
  ///   for a current file that cannot be read, in which case `body` is not called — from the
  /// store or from `body`; either way nothing is written. The one exception is
  /// ``SharedStoreError/notDurable(key:path:errno:)``: the new value is in place, but the directory
  /// flush after the rename failed.
  @discardableResult
  public func update<Result>(
    _ key: String,
    _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    try StoreKeyRules.validate(key)
    try acquireExclusiveAccess()
    defer { releaseExclusiveAccess() }
    let current = try readFile(key: key)
    var data = current?.payload
    let result = try handles.runningChangeBody { () throws(SharedStoreError) in try body(&data) }
    if data != current?.payload {
      if let data {
        let generation = current.map { $0.generation &+ 1 } ?? Self.freshGeneration()
        try replaceFile(key: key, payload: data, generation: generation)
      } else {
        try removeFile(key: key)
      }
    }
    return result
  }

  /// Returns the change token of `key` by reading only the file's header; takes no lock.
  ///
  /// For a value it is the generation in the header; for an append-only log, the header's token
  /// base plus the size of the file after the header, which grows with every append.
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The token, or `nil` when the key has no file.
  /// - Throws: ``SharedStoreError/corrupted(key:path:reason:)`` when the header is damaged, and
  ///   the other errors of ``read(_:)`` — `notARegularFile` and `tooLarge` included, since the
  ///   token comes from the same checked file.
  public func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    try StoreKeyRules.validate(key)
    let path = path(forKey: key)
    guard let file = try openKeyFile(key: key, path: path, mode: .readOnly) else { return nil }
    let descriptor = file.descriptor
    defer { Self.closeQuietly(descriptor, fileSystem) }
    let prefix: Data
    do {
      prefix = try fileSystem.readPrefix(descriptor, count: LogFileFormat.headerSize)
    } catch {
      throw error.ioError(path: path)
    }
    if prefix.starts(with: LogFileFormat.magic) {
      return try logToken(prefix, descriptor: descriptor, key: key, path: path)
    }
    switch StoreFileFormat.decodeHeader(prefix) {
    case .success(let header): return ChangeToken(generation: header.generation)
    case .failure(let damage): throw Self.error(for: damage, key: key, path: path)
    }
  }
}
