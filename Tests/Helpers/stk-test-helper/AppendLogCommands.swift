import Foundation
import SharedStore
import TestSupport

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

// Append-only log subcommands, for the multi-process and kill suites in SharedStoreTests:
//
//   append-records --dir D --key K --capacity C --count N --writer W [--durability M]
//                  [--barrier F] [--unlocked yes]
//       Appends N records "W:i" (i from 0) to the log K, one append each. With --unlocked yes
//       (the control), the store's flock is a no-op, so processes do not exclude each other.
//   append-loop --dir D --key K --size S --capacity C [--durability M] [--slow-writes yes]
//       Appends self-checking records (KillPattern values of S bytes, counters 1, 2, …) until
//       killed, printing "ready" after the first and then each counter once its append returned.
//       With --slow-writes yes, every write goes to the file in 4 KiB pieces 100 µs apart, as a
//       slow disk or a large write split by the kernel would, so that a kill often lands inside
//       one.
//   append-unframed-loop --dir D --size S                                          (control)
//       The same records appended to the plain file D/unframed, each after its length (8 bytes,
//       big-endian), in 4 KiB pieces as a careless appender would: no frame, no checksum.

/// Runs an append-only log subcommand; returns `false` when `name` is not one of them.
func runAppendLogCommand(_ name: String, _ options: Options) throws -> Bool {
  switch name {
  case "append-records":
    let store = try options.store(
      fileSystem: HelperFileSystem(unlocked: options.values["unlocked"] == "yes"))
    let key = try options.string("key")
    let capacity = try options.int("capacity")
    let writer = try options.int("writer")
    let count = try options.int("count")
    try options.waitForBarrier()
    for index in 0..<count {
      try store.append([Data("\(writer):\(index)".utf8)], toLog: key, capacity: capacity)
    }

  case "append-loop":
    let store = try options.store(
      fileSystem: HelperFileSystem(slowWrites: options.values["slow-writes"] == "yes"))
    let key = try options.string("key")
    let size = try options.int("size")
    let capacity = try options.int("capacity")
    var counter = (try store.readLog(key, newest: 1)?.nextPosition).map { $0 - 1 } ?? 0
    var first = true
    while true {
      counter += 1
      try store.append([KillPattern.value(counter, size: size)], toLog: key, capacity: capacity)
      if first {
        emit("ready")
        first = false
      }
      emit("\(counter)")
    }

  case "append-unframed-loop":
    let path = try options.string("dir") + "/unframed"
    let size = try options.int("size")
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw HelperError("cannot open \(path): errno \(errno)") }
    var counter: UInt64 = 0
    var first = true
    while true {
      counter += 1
      var bytes = withUnsafeBytes(of: UInt64(size).bigEndian) { Data($0) }
      bytes.append(KillPattern.value(counter, size: size))
      // Small pieces, so that the process spends its time in writes rather than in making the
      // next record: a kill then lands inside a record, not between two, almost every time.
      for start in stride(from: 0, to: bytes.count, by: 256) {
        let piece = bytes[start..<min(start + 256, bytes.count)]
        let written = piece.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == piece.count else { throw HelperError("short write: errno \(errno)") }
      }
      if first {
        emit("ready")
        first = false
      }
    }

  default:
    return false
  }
  return true
}

extension Options {
  /// A store on `--dir` with `--durability`, through `fileSystem`.
  func store(fileSystem: HelperFileSystem) throws -> FileStore {
    try FileStore(
      directory: URL(fileURLWithPath: try string("dir")), durability: durability,
      fileSystem: fileSystem)
  }
}

/// The real file system, optionally with a `flock` that does nothing — the control that shows
/// what the store's lock is for — or with writes made in slow pieces.
struct HelperFileSystem: FileSystem {
  private let real = POSIXFileSystem()
  var unlocked = false
  var slowWrites = false

  func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    try real.open(path, mode: mode)
  }
  func close(_ descriptor: Int32) throws(SystemCallError) { try real.close(descriptor) }
  func readPrefix(_ descriptor: Int32, count: Int) throws(SystemCallError) -> Data {
    try real.readPrefix(descriptor, count: count)
  }
  func read(_ descriptor: Int32, count: Int, at offset: Int) throws(SystemCallError) -> Data {
    try real.read(descriptor, count: count, at: offset)
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
    for piece in pieces(bytes) {
      pause(before: piece.offset)
      try real.writeAll(descriptor, piece.bytes)
    }
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallError)
  {
    for piece in pieces(bytes) {
      pause(before: piece.offset)
      try real.writeAll(descriptor, piece.bytes, at: offset + piece.offset)
    }
  }
  func size(of descriptor: Int32) throws(SystemCallError) -> Int { try real.size(of: descriptor) }
  func synchronize(_ descriptor: Int32) throws(SystemCallError) { try real.synchronize(descriptor) }
  func protectUntilFirstUserAuthentication(_ path: String) {
    real.protectUntilFirstUserAuthentication(path)
  }
  func rename(_ source: String, to destination: String) throws(SystemCallError) {
    try real.rename(source, to: destination)
  }
  func unlink(_ path: String) throws(SystemCallError) { try real.unlink(path) }
  func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
    if !unlocked { try real.lockExclusively(descriptor) }
  }
  func unlock(_ descriptor: Int32) throws(SystemCallError) {
    if !unlocked { try real.unlock(descriptor) }
  }
  func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
    try real.contentsOfDirectory(path)
  }
  func createDirectory(_ path: String) throws(SystemCallError) { try real.createDirectory(path) }
  func identity(of descriptor: Int32) throws(SystemCallError) -> FileIdentity {
    try real.identity(of: descriptor)
  }
  func identity(atPath path: String) throws(SystemCallError) -> FileIdentity? {
    try real.identity(atPath: path)
  }
  func status(of descriptor: Int32) throws(SystemCallError) -> FileStatus {
    try real.status(of: descriptor)
  }
  func status(atPath path: String) throws(SystemCallError) -> FileStatus? {
    try real.status(atPath: path)
  }

  /// `bytes` whole, or in 4 KiB pieces.
  private func pieces(_ bytes: UnsafeRawBufferPointer)
    -> [(offset: Int, bytes: UnsafeRawBufferPointer)]
  {
    guard slowWrites else { return [(0, bytes)] }
    return stride(from: 0, to: bytes.count, by: 4096).map { offset in
      (offset, UnsafeRawBufferPointer(rebasing: bytes[offset..<min(offset + 4096, bytes.count)]))
    }
  }

  /// Waits 100 µs before every piece but the first, when writes are slow.
  private func pause(before offset: Int) {
    if slowWrites && offset > 0 { usleep(100) }
  }
}
