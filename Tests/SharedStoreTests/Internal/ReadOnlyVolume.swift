import Foundation
import TestSupport

@testable import SharedStore

/// The real file system, seen as a read-only volume: everything that would create, change or
/// remove a file fails with the error number a read-only volume (`EROFS`) or a directory the
/// process may only read (`EACCES`) gives; reading works.
///
/// Tests run as root in CI, where permissions are not enforced, so this seam is how every CI run
/// checks what a read-only store does; `ReadOnlyStoreTests` also checks a real one.
final class ReadOnlyVolume: ForwardingFileSystem {
  let base: any FileSystem = POSIXFileSystem()
  private let code: Int32

  /// A volume whose changes fail with `code`.
  init(failingWith code: Int32) {
    self.code = code
  }

  func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    switch mode {
    case .readOnly, .directory: return try base.open(path, mode: mode)
    case .createNew, .readWriteCreate, .readWrite: throw SystemCallError("open", code)
    }
  }
  func createDirectory(_ path: String) throws(SystemCallError) {
    guard try base.status(atPath: path)?.kind == .directory else {
      throw SystemCallError("mkdir", code)
    }
  }
  func rename(_ source: String, to destination: String) throws(SystemCallError) {
    throw SystemCallError("rename", code)
  }
  func unlink(_ path: String) throws(SystemCallError) { throw SystemCallError("unlink", code) }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
    throw SystemCallError("write", EBADF)
  }
  func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallError)
  {
    throw SystemCallError("pwrite", EBADF)
  }
}
