import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The baseline of every durable row: **one raw durable write** — what any careful program must
/// do to replace a file's contents so that a reader never sees a torn value and a power cut
/// keeps the new value, with nothing else around it.
///
/// One write of *n* bytes is exactly these system calls, in this order:
/// 1. `open` a temporary file in the directory (`O_WRONLY | O_CREAT | O_EXCL`, mode 0600);
/// 2. `write` the *n* bytes in one call;
/// 3. flush the file (`fsync`; on Darwin `fcntl(F_FULLFSYNC)`, as `FileStore` does);
/// 4. `close` it;
/// 5. `rename` it over the destination;
/// 6. flush the directory, so that the rename survives a power cut (`fsync` of a descriptor of
///    the directory opened once, up front, as `FileStore` keeps its own).
///
/// That is two flushes, the file's and the directory's. Without `flush` (the `.processCrashSafe`
/// comparison) steps 3 and 6 are skipped.
final class RawReplace {
  /// A system call that failed.
  struct Failure: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "\(call) failed with errno \(code)" }
  }

  let directory: String
  let flush: Bool
  private let directoryDescriptor: Int32
  /// The paths of the name written last, made once: building them is not part of the write.
  private var paths: (name: String, temporary: String, destination: String)?

  init(directory: URL, flush: Bool) throws {
    self.directory = directory.path
    self.flush = flush
    directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
    guard directoryDescriptor >= 0 else { throw Failure(call: "open dir", code: errno) }
  }

  deinit { close(directoryDescriptor) }

  /// Replaces the file `name` with exactly `bytes`: one raw durable write.
  func write(_ bytes: Data, name: String) throws {
    let (temporary, destination) = paths(of: name)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw Failure(call: "open", code: errno) }
    let written = bytes.withUnsafeBytes { posixWrite(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw Failure(call: "write", code: errno) }
    if flush { try Self.synchronize(descriptor) }
    guard close(descriptor) == 0 else { throw Failure(call: "close", code: errno) }
    guard rename(temporary, destination) == 0 else {
      throw Failure(call: "rename", code: errno)
    }
    if flush { try Self.synchronize(directoryDescriptor) }
  }

  /// The temporary and final paths of `name`, made the first time it is written.
  private func paths(of name: String) -> (temporary: String, destination: String) {
    if let paths, paths.name == name { return (paths.temporary, paths.destination) }
    let made = (
      name: name, temporary: directory + "/.tmp." + name, destination: directory + "/" + name
    )
    paths = made
    return (made.temporary, made.destination)
  }

  /// Flushes `descriptor` as `FileStore` does: `F_FULLFSYNC` on Darwin, `fsync` elsewhere.
  static func synchronize(_ descriptor: Int32) throws {
    #if canImport(Darwin)
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
    #endif
    guard fsync(descriptor) == 0 else { throw Failure(call: "fsync", code: errno) }
  }
}

/// The floor of any durable append: `open` an existing file (`O_WRONLY | O_APPEND`), `write`
/// the bytes at its end, flush it, `close` it — one flush, no lock, no reading of the file.
final class RawAppend {
  let directory: String
  let flush: Bool
  /// The path of the name appended to last, made once: building it is not part of the append.
  private var path: (name: String, path: String)?

  init(directory: URL, flush: Bool) throws {
    self.directory = directory.path
    self.flush = flush
  }

  /// Appends `bytes` to the file `name`, creating it if needed.
  func append(_ bytes: Data, name: String) throws {
    let path = path(of: name)
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw RawReplace.Failure(call: "open", code: errno) }
    let written = bytes.withUnsafeBytes { posixWrite(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw RawReplace.Failure(call: "write", code: errno) }
    if flush { try RawReplace.synchronize(descriptor) }
    guard close(descriptor) == 0 else { throw RawReplace.Failure(call: "close", code: errno) }
  }

  /// The path of `name`, made the first time it is appended to.
  private func path(of name: String) -> String {
    if let path, path.name == name { return path.path }
    let made = directory + "/" + name
    path = (name, made)
    return made
  }

  /// The size of the file at `path`.
  static func size(of path: String) throws -> Int {
    try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
  }
}

private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

/// The system calls of a monitor callback with nothing between them: the floor of the callback
/// row against ``RawAppend``, which no Swift code around them can go below.
///
/// One call is exactly what `strace` shows of a callback on the folder (the fact's frame and
/// the heartbeat's, of the sizes given): `flock(LOCK_EX)` on a lock file kept open; `lstat` of
/// the lock file's path; `fstatat` of three names in the directory, kept open (the mark log,
/// which does not exist, then the heartbeats and the facts); `pwrite` of the fact's frame at
/// the end of its file, kept open; its flush; `pwrite` of the heartbeat's frame at the end of
/// its file, kept open; `flock(LOCK_UN)`.
final class RawCallback {
  private let directory: Int32
  private let lock: Int32
  private let lockPath: String
  private let facts: Int32
  private let beats: Int32
  private var factsEnd = 0
  private var beatsEnd = 0

  init(directory url: URL) throws {
    directory = open(url.path, O_RDONLY | O_CLOEXEC)
    lockPath = url.path + "/.lock"
    lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    facts = openat(directory, "facts", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    beats = openat(directory, "beats", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard directory >= 0, lock >= 0, facts >= 0, beats >= 0 else {
      throw RawReplace.Failure(call: "open", code: errno)
    }
  }

  deinit {
    for descriptor in [directory, lock, facts, beats] { close(descriptor) }
  }

  /// Makes one callback's system calls, appending `fact` (flushed) and `heartbeat` (not).
  func call(fact: Data, heartbeat: Data) throws {
    guard flock(lock, LOCK_EX) == 0 else { throw RawReplace.Failure(call: "flock", code: errno) }
    defer { flock(lock, LOCK_UN) }
    var status = stat()
    guard lstat(lockPath, &status) == 0 else {
      throw RawReplace.Failure(call: "lstat", code: errno)
    }
    // The mark log has no file; the two logs' files do.
    _ = fstatat(directory, "facts.mark", &status, AT_SYMLINK_NOFOLLOW)
    for name in ["beats", "facts"] where fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) != 0
    {
      throw RawReplace.Failure(call: "fstatat", code: errno)
    }
    factsEnd += try Self.write(fact, to: facts, at: factsEnd)
    try RawReplace.synchronize(facts)
    beatsEnd += try Self.write(heartbeat, to: beats, at: beatsEnd)
  }

  /// Writes `bytes` at `offset` of `descriptor` in one `pwrite`; returns how many.
  private static func write(_ bytes: Data, to descriptor: Int32, at offset: Int) throws -> Int {
    let written = bytes.withUnsafeBytes {
      pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset))
    }
    guard written == bytes.count else { throw RawReplace.Failure(call: "pwrite", code: errno) }
    return written
  }
}
