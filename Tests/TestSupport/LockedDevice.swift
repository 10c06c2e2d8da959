import Foundation
import SharedStore

/// A file system that behaves like an iOS device's data protection: while the device is locked
/// (before its first unlock, for the class *complete until first user authentication*), opening
/// or creating any file fails with `EPERM`; directories, names and metadata stay reachable, and
/// a file that does not exist is still reported missing.
///
/// It also records which paths the store asked to protect, and in what order relative to the
/// writes, so that a test can check that every file the store creates is protected before a
/// byte is written to it.
package final class LockedDevice: ForwardingFileSystem {
  private struct State {
    /// The error number opens fail with, or `nil` while the device is unlocked.
    var refusal: Int32?
    var refusedOpens = 0
    var protectedPaths: [String] = []
    /// Writes to a new file whose path was not protected before the write.
    var unprotectedWrites = 0
    /// The files opened with `createNew` and not closed yet, by descriptor.
    var newFiles: [Int32: String] = [:]
  }

  package let base: any FileSystem = POSIXFileSystem()
  private let state = LockedValue(State())

  /// A device that is unlocked until ``lock()`` is called.
  package init() {}

  /// Locks the device: from now on every open of a file fails with `code`.
  ///
  /// - Parameter code: The error number: `EPERM`, as data protection answers, unless a test
  ///   wants another refusal (`EACCES`, `EIO`) to compare with.
  package func lock(refusingWith code: Int32 = Errno.operationNotPermitted.rawValue) {
    state.withLock { $0.refusal = code }
  }

  /// Unlocks the device: files open again.
  package func unlock() {
    state.withLock { $0.refusal = nil }
  }

  /// How many opens were refused while the device was locked.
  package var refusedOpens: Int { state.withLock { $0.refusedOpens } }

  /// The paths the store asked to protect, in order (a path may appear more than once).
  package var protectedPaths: [String] { state.withLock { $0.protectedPaths } }

  /// How many writes went to a newly created file whose path had not been protected first.
  package var unprotectedWrites: Int { state.withLock { $0.unprotectedWrites } }

  package func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    // A file that is not there is not there, locked or not; creating one is refused too.
    let creates = mode == .createNew || mode == .readWriteCreate
    var exists = true
    if !creates {
      do {
        exists = try base.status(atPath: path) != nil
      } catch {
        exists = true  // unknown: the refusal stands
      }
    }
    let refusal = state.withLock { state -> Int32? in
      guard let refusal = state.refusal, mode != .directory, exists else { return nil }
      state.refusedOpens += 1
      return refusal
    }
    if let refusal { throw SystemCallError("open", refusal) }
    let descriptor = try base.open(path, mode: mode)
    if mode == .createNew { state.withLock { $0.newFiles[descriptor] = path } }
    return descriptor
  }

  package func close(_ descriptor: Int32) throws(SystemCallError) {
    state.withLock { _ = $0.newFiles.removeValue(forKey: descriptor) }
    try base.close(descriptor)
  }

  package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer)
    throws(SystemCallError)
  {
    state.withLock { state in
      if let path = state.newFiles[descriptor], !state.protectedPaths.contains(path) {
        state.unprotectedWrites += 1
      }
    }
    try base.writeAll(descriptor, bytes)
  }

  package func protectUntilFirstUserAuthentication(_ path: String) {
    state.withLock { $0.protectedPaths.append(path) }
    base.protectUntilFirstUserAuthentication(path)
  }
}
