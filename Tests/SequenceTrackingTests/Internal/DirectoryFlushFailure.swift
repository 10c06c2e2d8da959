import Foundation
import SharedStore

/// A file system that forwards to the real one and, once armed, fails the next flush after a
/// change is visible.
///
/// That is a flush of a directory (the step a durable `FileStore` takes after renaming a new
/// value into place) or of a file opened to append to it (the step after an append is written).
/// The store then reports `SharedStoreError.notDurable`.
final class DirectoryFlushFailure: FileSystem {
  private struct State {
    var directories: Set<Int32> = []
    var appended: Set<Int32> = []
    var armed = false
  }

  private let real = POSIXFileSystem()
  private let state = LockedValue(State())

  /// Makes the next flush of a directory, or of a file appended to, fail with `EIO`.
  func failNextFlushOfAChange() {
    state.withLock { $0.armed = true }
  }

  func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    let descriptor = try real.open(path, mode: mode)
    if mode == .directory { state.withLock { _ = $0.directories.insert(descriptor) } }
    if mode == .readWrite { state.withLock { _ = $0.appended.insert(descriptor) } }
    return descriptor
  }

  func close(_ descriptor: Int32) throws(SystemCallError) {
    state.withLock {
      $0.directories.remove(descriptor)
      $0.appended.remove(descriptor)
    }
    try real.close(descriptor)
  }

  func synchronize(_ descriptor: Int32) throws(SystemCallError) {
    let fail = state.withLock { state -> Bool in
      guard state.armed,
        state.directories.contains(descriptor) || state.appended.contains(descriptor)
      else { return false }
      state.armed = false
      return true
    }
    if fail { throw SystemCallError("injected directory fsync", EIO) }
    try real.synchronize(descriptor)
  }

  func readPrefix(_ descriptor: Int32, count: Int) throws(SystemCallError) -> Data {
    try real.readPrefix(descriptor, count: count)
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
    try real.writeAll(descriptor, bytes)
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallError)
  {
    try real.writeAll(descriptor, bytes, at: offset)
  }
  func read(_ descriptor: Int32, count: Int, at offset: Int) throws(SystemCallError) -> Data {
    try real.read(descriptor, count: count, at: offset)
  }
  func size(of descriptor: Int32) throws(SystemCallError) -> Int { try real.size(of: descriptor) }
  func rename(_ source: String, to destination: String) throws(SystemCallError) {
    try real.rename(source, to: destination)
  }
  func unlink(_ path: String) throws(SystemCallError) { try real.unlink(path) }
  func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
    try real.lockExclusively(descriptor)
  }
  func unlock(_ descriptor: Int32) throws(SystemCallError) { try real.unlock(descriptor) }
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
}
