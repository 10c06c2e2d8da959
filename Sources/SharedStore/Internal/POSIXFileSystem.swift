import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

/// The real ``FileSystem``: direct POSIX calls, every return code checked.
package struct POSIXFileSystem: FileSystem {
  /// Creates the real file system.
  package init() {}

  package func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    // O_NOFOLLOW: a symbolic link at the path fails with ELOOP instead of being followed out of
    // the store; O_NONBLOCK: a FIFO opens at once instead of waiting for a writer.
    let flags: Int32
    switch mode {
    case .readOnly: flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK
    case .createNew: flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK
    case .readWriteCreate: flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK
    case .readWrite: flags = O_RDWR | O_NOFOLLOW | O_NONBLOCK
    case .directory: flags = O_RDONLY | O_DIRECTORY
    }
    return try retryingOnInterrupt("open") { systemOpen(path, flags | O_CLOEXEC, 0o600) }
  }

  package func close(_ descriptor: Int32) throws(SystemCallError) {
    // POSIX leaves the descriptor's state unspecified after EINTR; never retry close.
    if systemClose(descriptor) != 0 { throw SystemCallError("close", errno) }
  }

  package func readPrefix(_ descriptor: Int32, count: Int) throws(SystemCallError) -> Data {
    var result = Data(count: count)
    var filled = 0
    while filled < count {
      let read = try result.withUnsafeMutableBytes { buffer in
        Result { () throws(SystemCallError) in
          try readSome(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
        }
      }.get()
      if read == 0 { break }
      filled += read
    }
    return result.prefix(filled)
  }

  package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer)
    throws(SystemCallError)
  {
    var offset = 0
    while offset < bytes.count {
      let remaining = UnsafeRawBufferPointer(rebasing: bytes[offset...])
      let written = try retryingOnInterrupt("write") {
        systemWrite(descriptor, remaining.baseAddress, remaining.count)
      }
      offset += written
    }
  }

  package func read(_ descriptor: Int32, count: Int, at offset: Int) throws(SystemCallError)
    -> Data
  {
    var result = Data(count: count)
    var filled = 0
    while filled < count {
      let read = try result.withUnsafeMutableBytes { buffer in
        Result { () throws(SystemCallError) in
          let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
          return try retryingOnInterrupt("pread") {
            systemPositionedRead(descriptor, rest.baseAddress, rest.count, offset + filled)
          }
        }
      }.get()
      if read == 0 { break }
      filled += read
    }
    result.count = filled
    return result
  }

  package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallError)
  {
    var written = 0
    while written < bytes.count {
      let remaining = UnsafeRawBufferPointer(rebasing: bytes[written...])
      written += try retryingOnInterrupt("pwrite") {
        systemPositionedWrite(
          descriptor, remaining.baseAddress, remaining.count, offset + written)
      }
    }
  }

  package func size(of descriptor: Int32) throws(SystemCallError) -> Int {
    var info = stat()
    if fstat(descriptor, &info) != 0 { throw SystemCallError("fstat", errno) }
    return Int(info.st_size)
  }

  package func synchronize(_ descriptor: Int32) throws(SystemCallError) {
    #if canImport(Darwin)
    // fsync on Darwin only hands the data to the drive; F_FULLFSYNC asks the drive to flush its
    // cache. Some file systems do not support it: fall back to fsync there, never to nothing.
    while true {
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
      let code = errno
      if code == EINTR { continue }
      guard code == ENOTSUP || code == EOPNOTSUPP || code == EINVAL || code == ENOTTY else {
        throw SystemCallError("fcntl(F_FULLFSYNC)", code)
      }
      break
    }
    #endif
    _ = try retryingOnInterrupt("fsync") { fsync(descriptor) }
  }

  package func rename(_ source: String, to destination: String) throws(SystemCallError) {
    if systemRename(source, destination) != 0 { throw SystemCallError("rename", errno) }
  }

  package func unlink(_ path: String) throws(SystemCallError) {
    if systemUnlink(path) != 0 { throw SystemCallError("unlink", errno) }
  }

  package func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
    _ = try retryingOnInterrupt("flock") { flock(descriptor, LOCK_EX) }
  }

  package func unlock(_ descriptor: Int32) throws(SystemCallError) {
    _ = try retryingOnInterrupt("flock(LOCK_UN)") { flock(descriptor, LOCK_UN) }
  }

  package func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
    guard let directory = opendir(path) else { throw SystemCallError("opendir", errno) }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw SystemCallError("readdir", errno) }
        return names
      }
      let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(
          to: CChar.self,
          capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)
        ) { String(cString: $0) }
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }

  package func createDirectory(_ path: String) throws(SystemCallError) {
    // An existing directory is fine, even on a read-only volume, where mkdir might fail with
    // EROFS before it checks whether the path exists.
    var existing = stat()
    if stat(path, &existing) == 0, existing.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) { return }
    if mkdir(path, 0o700) == 0 { return }
    let code = errno
    switch code {
    case EEXIST:
      var info = stat()
      if stat(path, &info) != 0 { throw SystemCallError("stat", errno) }
      if info.st_mode & mode_t(S_IFMT) != mode_t(S_IFDIR) {
        throw SystemCallError("mkdir", ENOTDIR)
      }
    case ENOENT:
      let parent = (path as NSString).deletingLastPathComponent
      guard !parent.isEmpty, parent != path else { throw SystemCallError("mkdir", code) }
      try createDirectory(parent)
      if mkdir(path, 0o700) != 0 && errno != EEXIST { throw SystemCallError("mkdir", errno) }
    default:
      throw SystemCallError("mkdir", code)
    }
  }

  package func identity(of descriptor: Int32) throws(SystemCallError) -> FileIdentity {
    var info = stat()
    if fstat(descriptor, &info) != 0 { throw SystemCallError("fstat", errno) }
    return FileIdentity(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
  }

  package func identity(atPath path: String) throws(SystemCallError) -> FileIdentity? {
    var info = stat()
    if stat(path, &info) != 0 {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw SystemCallError("stat", errno)
    }
    return FileIdentity(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
  }

  package func status(of descriptor: Int32) throws(SystemCallError) -> FileStatus {
    var info = stat()
    if fstat(descriptor, &info) != 0 { throw SystemCallError("fstat", errno) }
    return Self.status(info)
  }

  package func status(atPath path: String) throws(SystemCallError) -> FileStatus? {
    var info = stat()
    // `withCString`, not the implicit conversion of a `String` argument, which allocates a copy
    // at every call: this one runs at every hold of the lock.
    if path.withCString({ lstat($0, &info) }) != 0 {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw SystemCallError("lstat", errno)
    }
    return Self.status(info)
  }

  package func status(named name: String, inDirectory directory: Int32, path: String)
    throws(SystemCallError) -> FileStatus?
  {
    var info = stat()
    // `withCString`, as in `status(atPath:)`: at every append to a kept log file.
    if name.withCString({ fstatat(directory, $0, &info, AT_SYMLINK_NOFOLLOW) }) != 0 {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw SystemCallError("fstatat", errno)
    }
    return Self.status(info)
  }

  package func protectUntilFirstUserAuthentication(_ path: String) {
    #if canImport(Darwin)
    // NSFileProtectionKey through Foundation, the documented way on every Apple platform. A new
    // file inherits its directory's class; setting it on each new file as well does not rely on
    // that, and also corrects a folder created earlier under another class.
    do {
      try FileManager.default.setAttributes(
        [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
        ofItemAtPath: path)
    } catch {
      // A volume without data protection refuses the attribute; the file keeps the class it
      // inherited, and the store works as before. Nothing is lost.
    }
    #endif
  }

  // MARK: - Helpers

  private static func status(_ info: stat) -> FileStatus {
    let kind: FileKind
    switch info.st_mode & mode_t(S_IFMT) {
    case mode_t(S_IFREG): kind = .regularFile
    case mode_t(S_IFDIR): kind = .directory
    case mode_t(S_IFLNK): kind = .symbolicLink
    case mode_t(S_IFIFO): kind = .fifo
    case mode_t(S_IFSOCK): kind = .socket
    case mode_t(S_IFCHR): kind = .characterDevice
    case mode_t(S_IFBLK): kind = .blockDevice
    default: kind = .unknown
    }
    return FileStatus(
      kind: kind, size: Int(truncatingIfNeeded: info.st_size),
      identity: FileIdentity(
        device: UInt64(truncatingIfNeeded: info.st_dev),
        inode: UInt64(truncatingIfNeeded: info.st_ino)))
  }

  private func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
    throws(SystemCallError) -> Int
  {
    try retryingOnInterrupt("read") { systemRead(descriptor, buffer.baseAddress, buffer.count) }
  }

  private func retryingOnInterrupt<Value: BinaryInteger>(
    _ operation: String,
    _ call: () -> Value
  ) throws(SystemCallError) -> Value {
    while true {
      let result = call()
      if result >= 0 { return result }
      let code = errno
      if code != EINTR { throw SystemCallError(operation, code) }
    }
  }
}

// The C functions, under names that do not collide with this type's methods.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{ read(descriptor, buffer, count) }
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
private func systemPositionedRead(
  _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int
) -> Int { pread(descriptor, buffer, count, off_t(offset)) }
private func systemPositionedWrite(
  _ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: Int
) -> Int { pwrite(descriptor, buffer, count, off_t(offset)) }
private func systemRename(_ source: String, _ destination: String) -> Int32 {
  rename(source, destination)
}
private func systemUnlink(_ path: String) -> Int32 { unlink(path) }
