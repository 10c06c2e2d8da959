import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import TrackerSignals

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

// Fixed kill points, for KillPointTests in SharedStoreTests: one change of a subject, killed with
// SIGKILL at a chosen step of the store's write path. All on a durable store in D.
//
//   kill-point-prepare --dir D --subject S --variant V
//       Writes the subject's starting state. S: value, bounded-log, outbox or heartbeats; or
//       value-in-place, the control, whose change rewrites the value's file in place.
//       V: write (value); append or compact (the logs: compact fills the log to twice its
//       capacity, so that the next change rewrites it through a temporary file and a rename).
//   kill-point-run --dir D --subject S --counter C --point P
//       Makes one change of S numbered C: writes the value C, or appends the entry, outbox entry
//       or heartbeat C. Once the change has started, the store's file system SIGKILLs this
//       process at P, after printing "killed <CLOCK_MONOTONIC nanoseconds>": lock-held (the
//       flock was just taken), temporary-created, mid-write (after writing half of a write),
//       before-flush (of the file written), before-rename, before-directory-flush. With
//       --point none it completes the change and prints the subject's state, as kill-point-read.
//   kill-point-read --dir D --subject S
//       Prints the subject's state, one line per item, oldest first: "value C" (or "torn"), or
//       one line per entry. Damage is printed as "error <description>", never hidden.

/// Runs a kill-point subcommand; returns `false` when `name` is not one of them.
func runKillPointCommand(_ name: String, _ options: Options) throws -> Bool {
  switch name {
  case "kill-point-prepare":
    let subject = try KillSubject(options, fileSystem: POSIXFileSystem())
    let variant = try options.string("variant")
    let changes = variant == "compact" ? 2 * KillSubject.capacity : 2
    for counter in 1...changes { try subject.change(counter) }
  case "kill-point-run":
    guard let point = KillPoint(rawValue: try options.string("point")) else {
      throw HelperError("unknown --point")
    }
    let fileSystem = KillingFileSystem(point: point)
    let subject = try KillSubject(options, fileSystem: fileSystem)
    let counter = try options.int("counter")
    fileSystem.arm()
    try subject.change(counter)
    guard point == .none else {
      throw HelperError("the change completed without reaching \(point)")
    }
    emit(subject.state().joined(separator: "\n"))
  case "kill-point-read":
    emit(try KillSubject(options, fileSystem: POSIXFileSystem()).state().joined(separator: "\n"))
  default:
    return false
  }
  return true
}

/// What a kill-point run changes: a value or one of the three logs built on the store's
/// append-only logs.
struct KillSubject {
  /// The capacity of every log subject.
  static let capacity = 4
  /// The size of a value, large enough for a write to be cut in half.
  static let valueSize = 64 * 1024

  let kind: String
  let store: FileStore
  let fileSystem: any FileSystem

  init(_ options: Options, fileSystem: any FileSystem) throws {
    kind = try options.string("subject")
    self.fileSystem = fileSystem
    store = try FileStore(
      directory: URL(fileURLWithPath: try options.string("dir")), durability: .durable,
      fileSystem: fileSystem)
  }

  /// Makes change number `counter`.
  func change(_ counter: Int) throws {
    switch kind {
    case "value":
      try store.write(KillPattern.value(UInt64(counter), size: Self.valueSize), for: "value")
    case "value-in-place":
      try writeInPlace(counter)
    case "bounded-log":
      try boundedLog().append(LogEntry(writer: 0, index: counter))
    case "outbox":
      try outbox().publish(ProducedEntry(producer: 0, index: counter)) { _ in }
    case "heartbeats":
      try recorder().record(at: Self.instant(counter))
    default:
      throw HelperError("unknown subject \(kind)")
    }
  }

  /// The state, one line per item; a failure to read is a line too, so that it is compared and
  /// reported rather than hidden.
  func state() -> [String] {
    do {
      switch kind {
      case "value", "value-in-place":
        guard let data = try store.read("value") else { return ["absent"] }
        let counter = KillPattern.counter(in: data, size: Self.valueSize)
        return [counter.map { "value \($0)" } ?? "torn"]
      case "bounded-log":
        let contents = try boundedLog().snapshot()
        return contents.entries.map { "entry \($0.index)" } + ["evicted \(contents.evictedCount)"]
      case "outbox":
        let batch = try outbox().drain(after: .start)
        return batch.entries.map { "number \($0.number.value) entry \($0.payload.index)" }
          + ["lost \(batch.lost.map { "\($0)" } ?? "none")"]
      case "heartbeats":
        let history = try recorder().history()
        return history.heartbeats.map { "heartbeat \(Self.counter(of: $0.at))" }
          + ["evicted \(history.evictedCount)"]
      default:
        return ["error unknown subject \(kind)"]
      }
    } catch {
      return ["error \(error)"]
    }
  }

  /// The control: the value's file rewritten in place, as a careless writer would, so that a
  /// kill half-way through leaves half a value.
  private func writeInPlace(_ counter: Int) throws {
    let path = store.directory.path + "/value"
    let value = KillPattern.value(UInt64(counter), size: Self.valueSize)
    guard FileManager.default.fileExists(atPath: path) else {
      return try store.write(value, for: "value")
    }
    let file = StoreFileFormat.encode(payload: value, generation: UInt64(counter))
    let descriptor = try fileSystem.open(path, mode: .readWrite)
    defer { close(descriptor) }
    try file.withUnsafeBytes { bytes in
      try Result { () throws(SystemCallError) in try fileSystem.writeAll(descriptor, bytes, at: 0) }
        .get()
    }
  }

  private func boundedLog() throws -> BoundedLog<LogEntry> {
    try BoundedLog(store: store, key: "bounded", capacity: Self.capacity)
  }

  private func outbox() throws -> SequencedOutbox<ProducedEntry> {
    try SequencedOutbox(store: store, key: "outbox", capacity: Self.capacity)
  }

  private func recorder() throws -> HeartbeatRecorder {
    try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: Self.capacity)
  }

  private static let start = Date(timeIntervalSince1970: 1_800_000_000)

  private static func instant(_ counter: Int) -> Date {
    start.addingTimeInterval(30 * Double(counter))
  }

  private static func counter(of instant: Date) -> Int {
    Int((instant.timeIntervalSince(start) / 30).rounded())
  }
}

/// Where a kill-point run dies.
enum KillPoint: String {
  case lockHeld = "lock-held"
  case temporaryCreated = "temporary-created"
  case midWrite = "mid-write"
  case beforeFlush = "before-flush"
  case beforeRename = "before-rename"
  case beforeDirectoryFlush = "before-directory-flush"
  case none
}

/// The real file system, which SIGKILLs its own process at a kill point once armed.
final class KillingFileSystem: ForwardingFileSystem {
  let base: any FileSystem = POSIXFileSystem()
  private let point: KillPoint
  private let armed = LockedValue(false)
  /// The descriptors of directories, whose flush is the directory flush.
  private let directories = LockedValue(Set<Int32>())

  init(point: KillPoint) {
    self.point = point
  }

  /// Starts watching for the kill point: the calls before were the store's setup.
  func arm() {
    armed.withLock { $0 = true }
  }

  private func isAt(_ candidate: KillPoint) -> Bool {
    candidate == point && armed.withLock { $0 }
  }

  /// Prints when, then dies at once: no cleanup, no flush, no unlock — as a kill does.
  private func die() -> Never {
    emit("killed \(monotonicNanoseconds())")
    kill(getpid(), SIGKILL)
    while true { pause() }
  }

  func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    let descriptor = try base.open(path, mode: mode)
    if mode == .directory { directories.withLock { _ = $0.insert(descriptor) } }
    if mode == .createNew, isAt(.temporaryCreated) { die() }
    return descriptor
  }
  func close(_ descriptor: Int32) throws(SystemCallError) {
    directories.withLock { _ = $0.remove(descriptor) }
    try base.close(descriptor)
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
    if isAt(.midWrite) {
      try base.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: bytes.prefix(bytes.count / 2)))
      die()
    }
    try base.writeAll(descriptor, bytes)
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallError)
  {
    if isAt(.midWrite) {
      try base.writeAll(
        descriptor, UnsafeRawBufferPointer(rebasing: bytes.prefix(bytes.count / 2)), at: offset)
      die()
    }
    try base.writeAll(descriptor, bytes, at: offset)
  }
  func synchronize(_ descriptor: Int32) throws(SystemCallError) {
    let isDirectory = directories.withLock { $0.contains(descriptor) }
    if isDirectory ? isAt(.beforeDirectoryFlush) : isAt(.beforeFlush) { die() }
    try base.synchronize(descriptor)
  }
  func rename(_ source: String, to destination: String) throws(SystemCallError) {
    if isAt(.beforeRename) { die() }
    try base.rename(source, to: destination)
  }
  func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
    try base.lockExclusively(descriptor)
    if isAt(.lockHeld) { die() }
  }
}
