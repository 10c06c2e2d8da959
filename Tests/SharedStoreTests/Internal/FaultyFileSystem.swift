import Foundation

@testable import SharedStore

/// A file system that forwards to the real one, counts calls, and fails the call it is told to.
final class FaultyFileSystem: FileSystem {
  /// A call of the `FileSystem` seam.
  enum Call: String, CaseIterable, Sendable {
    case open, close, readPrefix, writeAll, synchronize, rename, unlink
    case lockExclusively, unlock, contentsOfDirectory, createDirectory, identity
    case readAt, writeAt, size, status
  }

  private struct State {
    var counts: [Call: Int] = [:]
    var bytesWritten = 0
    var bytesRead = 0
    /// When set, a failing `writeAt` first writes this many bytes, as a write cut short would.
    var partialWrite: Int?
    var failing: (call: Call, errno: Int32, skip: Int, remaining: Int)?
    var injected = 0
    var lockIsNoOp = false
    var swallowsWriteFaults = false
  }

  private let real = POSIXFileSystem()
  private let state = LockedValue(State())

  /// Lets `skip` calls of `call` through, then makes the next `times` calls fail with `errno`.
  func fail(_ call: Call, errno: Int32 = EIO, skip: Int = 0, times: Int = 1) {
    state.withLock { $0.failing = (call, errno, skip, times) }
  }

  /// Stops failing calls: the fault has cleared.
  func stopFailing() {
    state.withLock { $0.failing = nil }
  }

  /// How many calls failed because a fault was injected.
  var injectedCount: Int { state.withLock { $0.injected } }

  /// How often each call was made.
  var counts: [Call: Int] { state.withLock { $0.counts } }

  /// Makes a failing `writeAll` write half of its bytes and report success: a seam that loses
  /// errors, the control that shows what the fault matrix catches.
  func swallowWriteFaults() {
    state.withLock { $0.swallowsWriteFaults = true }
  }

  /// Turns `flock` into a no-op: the control that shows what the file lock is for.
  func disableFileLock() {
    state.withLock { $0.lockIsNoOp = true }
  }

  /// How often `call` was made.
  func count(_ call: Call) -> Int {
    state.withLock { $0.counts[call, default: 0] }
  }

  /// The bytes passed to `writeAll` and `writeAll(_:_:at:)` so far.
  var bytesWritten: Int { state.withLock { $0.bytesWritten } }
  /// The bytes returned by positioned reads (`read(_:count:at:)`) so far.
  var bytesRead: Int { state.withLock { $0.bytesRead } }

  /// Makes the next failing `writeAt` (see ``fail(_:errno:skip:times:)``) write `bytes` bytes
  /// before it fails.
  func writePartially(_ bytes: Int) {
    state.withLock { $0.partialWrite = bytes }
  }

  private func record(_ call: Call) throws(SystemCallError) {
    let fault = state.withLock { state -> Int32? in
      state.counts[call, default: 0] += 1
      guard let failing = state.failing, failing.call == call, failing.remaining > 0 else {
        return nil
      }
      if failing.skip > 0 {
        state.failing?.skip -= 1
        return nil
      }
      state.failing?.remaining -= 1
      state.injected += 1
      return failing.errno
    }
    if let fault { throw SystemCallError("injected \(call.rawValue)", fault) }
  }

  func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    try record(.open)
    return try real.open(path, mode: mode)
  }
  func close(_ descriptor: Int32) throws(SystemCallError) {
    do {
      try record(.close)
    } catch {
      try real.close(descriptor)  // a failed close still releases the descriptor
      throw error
    }
    try real.close(descriptor)
  }
  func readPrefix(_ descriptor: Int32, count: Int) throws(SystemCallError) -> Data {
    try record(.readPrefix)
    return try real.readPrefix(descriptor, count: count)
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
    do {
      try record(.writeAll)
    } catch {
      guard state.withLock({ $0.swallowsWriteFaults }) else { throw error }
      try real.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: bytes.prefix(bytes.count / 2)))
      return
    }
    state.withLock { $0.bytesWritten += bytes.count }
    try real.writeAll(descriptor, bytes)
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallError)
  {
    do {
      try record(.writeAt)
    } catch {
      if let partial = state.withLock({ $0.partialWrite }) {
        try real.writeAll(
          descriptor, UnsafeRawBufferPointer(rebasing: bytes.prefix(partial)), at: offset)
      }
      throw error
    }
    state.withLock { $0.bytesWritten += bytes.count }
    try real.writeAll(descriptor, bytes, at: offset)
  }
  func read(_ descriptor: Int32, count: Int, at offset: Int) throws(SystemCallError) -> Data {
    try record(.readAt)
    let bytes = try real.read(descriptor, count: count, at: offset)
    state.withLock { $0.bytesRead += bytes.count }
    return bytes
  }
  func size(of descriptor: Int32) throws(SystemCallError) -> Int {
    try record(.size)
    return try real.size(of: descriptor)
  }
  func synchronize(_ descriptor: Int32) throws(SystemCallError) {
    try record(.synchronize)
    try real.synchronize(descriptor)
  }
  func rename(_ source: String, to destination: String) throws(SystemCallError) {
    try record(.rename)
    try real.rename(source, to: destination)
  }
  func unlink(_ path: String) throws(SystemCallError) {
    try record(.unlink)
    try real.unlink(path)
  }
  func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
    try record(.lockExclusively)
    if state.withLock({ $0.lockIsNoOp }) { return }
    try real.lockExclusively(descriptor)
  }
  func unlock(_ descriptor: Int32) throws(SystemCallError) {
    try record(.unlock)
    if state.withLock({ $0.lockIsNoOp }) { return }
    try real.unlock(descriptor)
  }
  func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
    try record(.contentsOfDirectory)
    return try real.contentsOfDirectory(path)
  }
  func createDirectory(_ path: String) throws(SystemCallError) {
    try record(.createDirectory)
    try real.createDirectory(path)
  }
  func identity(of descriptor: Int32) throws(SystemCallError) -> FileIdentity {
    try record(.identity)
    return try real.identity(of: descriptor)
  }
  func identity(atPath path: String) throws(SystemCallError) -> FileIdentity? {
    try record(.identity)
    return try real.identity(atPath: path)
  }
  func status(of descriptor: Int32) throws(SystemCallError) -> FileStatus {
    try record(.status)
    return try real.status(of: descriptor)
  }
  func status(atPath path: String) throws(SystemCallError) -> FileStatus? {
    try record(.status)
    return try real.status(atPath: path)
  }
  func protectUntilFirstUserAuthentication(_ path: String) {
    // Best effort and reporting nothing, so there is no fault to inject (and no `Call`).
    real.protectUntilFirstUserAuthentication(path)
  }
}
