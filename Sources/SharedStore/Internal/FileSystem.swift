import Foundation

/// A failed system call: which call, and the `errno` it set.
package struct SystemCallError: Error, Equatable, Sendable {
  /// The call that failed, such as `"open"` or `"fsync"`.
  package var operation: String
  /// The `errno` value.
  package var code: Int32

  /// Creates an error for a failed call.
  ///
  /// - Parameters:
  ///   - operation: The call that failed.
  ///   - code: Its `errno`.
  package init(_ operation: String, _ code: Int32) {
    self.operation = operation
    self.code = code
  }
}

/// How a file is opened through the ``FileSystem`` seam.
///
/// Every mode but ``directory`` opens the path itself, never what a symbolic link there points to
/// (`O_NOFOLLOW`: a link fails with `ELOOP`), and never waits (`O_NONBLOCK`: opening a FIFO
/// returns at once instead of waiting for a writer). The descriptor may still refer to something
/// other than a regular file — a FIFO, a device, a directory — so the caller checks
/// ``FileSystem/status(of:)`` before reading or writing through it. `O_NONBLOCK` changes nothing
/// for a regular file, so it is left set.
package enum OpenMode: Sendable, Equatable {
  /// Read only; the file must exist.
  case readOnly
  /// A new file for writing that must not exist yet (`O_CREAT | O_EXCL`), with permissions 0600.
  case createNew
  /// Read and write, created with permissions 0600 when missing (the lock file).
  case readWriteCreate
  /// Read and write; the file must exist (an append-only log being appended to).
  case readWrite
  /// A directory, opened read-only so that it can be flushed; a symbolic link to one is followed.
  case directory
}

/// Which file a path or descriptor refers to: its device and inode numbers.
package struct FileIdentity: Equatable, Sendable {
  /// The device holding the file.
  package var device: UInt64
  /// The file's inode number on that device.
  package var inode: UInt64

  /// Creates an identity.
  ///
  /// - Parameters:
  ///   - device: The device number.
  ///   - inode: The inode number.
  package init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }
}

/// What `fstat` or `lstat` says about a file: its kind, its size and its identity.
package struct FileStatus: Equatable, Sendable {
  /// What kind of object it is.
  package var kind: FileKind
  /// Its size in bytes (`st_size`); meaningful for a regular file only.
  package var size: Int
  /// Its device and inode.
  package var identity: FileIdentity

  /// Creates a status.
  ///
  /// - Parameters:
  ///   - kind: The kind of object.
  ///   - size: The size in bytes.
  ///   - identity: The device and inode.
  package init(kind: FileKind, size: Int, identity: FileIdentity) {
    self.kind = kind
    self.size = size
    self.identity = identity
  }
}

/// The file-system calls ``FileStore`` makes, behind a seam so that tests can inject faults.
///
/// Every method reports failure as a ``SystemCallError`` carrying `errno`. ``POSIXFileSystem``
/// retries a call interrupted by a signal (`EINTR`) itself; a seam that reports `EINTR` instead
/// makes the store report it as a failed call, with nothing changed. Descriptors are plain
/// `Int32` file descriptors.
///
/// There is no "read to the end" call: everything the store reads is bounded by a size it
/// checked first, so that a file that never ends (`/dev/zero`) or keeps growing cannot exhaust
/// its memory.
package protocol FileSystem: Sendable {
  /// Opens `path` as ``OpenMode`` describes: without following a symbolic link, and without
  /// waiting, except for ``OpenMode/directory``.
  func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32
  /// Closes a descriptor. A failed close after a write means the write may be lost.
  func close(_ descriptor: Int32) throws(SystemCallError)
  /// Reads up to `count` bytes from the start of the file.
  func readPrefix(_ descriptor: Int32, count: Int) throws(SystemCallError) -> Data
  /// Reads up to `count` bytes starting at byte `offset` (`pread`), fewer only at end-of-file.
  func read(_ descriptor: Int32, count: Int, at offset: Int) throws(SystemCallError) -> Data
  /// Writes all of `bytes`, looping over short writes.
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError)
  /// Writes all of `bytes` starting at byte `offset` (`pwrite`), looping over short writes.
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallError)
  /// The size in bytes of the file an open descriptor refers to (`fstat`).
  func size(of descriptor: Int32) throws(SystemCallError) -> Int
  /// Flushes a file or directory to stable storage (`F_FULLFSYNC` on Darwin, `fsync` elsewhere).
  func synchronize(_ descriptor: Int32) throws(SystemCallError)
  /// Atomically replaces `destination` with `source`.
  func rename(_ source: String, to destination: String) throws(SystemCallError)
  /// Removes a file.
  func unlink(_ path: String) throws(SystemCallError)
  /// Takes an exclusive advisory lock (`flock`) on a descriptor, waiting while another holds it.
  func lockExclusively(_ descriptor: Int32) throws(SystemCallError)
  /// Releases an advisory lock taken with ``lockExclusively(_:)``.
  func unlock(_ descriptor: Int32) throws(SystemCallError)
  /// Lists the names in a directory, without `.` and `..`.
  func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String]
  /// Creates a directory and any missing parents (mode 0700); an existing directory is fine.
  func createDirectory(_ path: String) throws(SystemCallError)
  /// The identity of the file an open descriptor refers to (`fstat`).
  func identity(of descriptor: Int32) throws(SystemCallError) -> FileIdentity
  /// The identity of the file at `path` (`stat`), or `nil` when nothing is there.
  func identity(atPath path: String) throws(SystemCallError) -> FileIdentity?
  /// The kind, size and identity of the file an open descriptor refers to (`fstat`).
  func status(of descriptor: Int32) throws(SystemCallError) -> FileStatus
  /// The kind, size and identity of what is at `path` itself, a symbolic link not followed
  /// (`lstat`), or `nil` when nothing is there.
  func status(atPath path: String) throws(SystemCallError) -> FileStatus?
  /// The kind, size and identity of the entry `name` of the directory open as `directory`, a
  /// symbolic link not followed (`fstatat` with `AT_SYMLINK_NOFOLLOW`), or `nil` when nothing is
  /// there; `path` names the same entry, for a seam that works with paths.
  ///
  /// Only the last component is looked up, where ``status(atPath:)`` walks every directory of
  /// the path: a store checks a file it keeps open this way at every append.
  func status(named name: String, inDirectory directory: Int32, path: String)
    throws(SystemCallError) -> FileStatus?
  /// Gives the file or directory at `path` the data-protection class *complete until first user
  /// authentication*, where the platform has data protection; does nothing elsewhere.
  ///
  /// Best effort, so it reports nothing: a volume without data protection (a Mac's, Linux)
  /// keeps the file as it is, and the store goes on. See ``FileStore`` for the choice of class.
  func protectUntilFirstUserAuthentication(_ path: String)
}

extension FileSystem {
  /// Looks `path` up whole, as ``status(atPath:)`` does: a seam that works with paths.
  package func status(named name: String, inDirectory directory: Int32, path: String)
    throws(SystemCallError) -> FileStatus?
  {
    try status(atPath: path)
  }
}
