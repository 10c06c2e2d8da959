import Foundation
import SharedStore

/// A file system that forwards every call of SharedStore's `FileSystem` seam to ``base``; a
/// conformer implements only the calls it changes (a fault, a read-only volume, a file that
/// grows while it is read).
package protocol ForwardingFileSystem: FileSystem {
  /// The file system every call goes to, usually `POSIXFileSystem()`.
  var base: any FileSystem { get }
}

extension ForwardingFileSystem {
  package func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
    try base.open(path, mode: mode)
  }
  package func close(_ descriptor: Int32) throws(SystemCallError) { try base.close(descriptor) }
  package func readPrefix(_ descriptor: Int32, count: Int) throws(SystemCallError) -> Data {
    try base.readPrefix(descriptor, count: count)
  }
  package func read(_ descriptor: Int32, count: Int, at offset: Int) throws(SystemCallError)
    -> Data
  {
    try base.read(descriptor, count: count, at: offset)
  }
  package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer)
    throws(SystemCallError)
  {
    try base.writeAll(descriptor, bytes)
  }
  package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallError)
  {
    try base.writeAll(descriptor, bytes, at: offset)
  }
  package func size(of descriptor: Int32) throws(SystemCallError) -> Int {
    try base.size(of: descriptor)
  }
  package func synchronize(_ descriptor: Int32) throws(SystemCallError) {
    try base.synchronize(descriptor)
  }
  package func rename(_ source: String, to destination: String) throws(SystemCallError) {
    try base.rename(source, to: destination)
  }
  package func unlink(_ path: String) throws(SystemCallError) { try base.unlink(path) }
  package func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
    try base.lockExclusively(descriptor)
  }
  package func unlock(_ descriptor: Int32) throws(SystemCallError) { try base.unlock(descriptor) }
  package func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
    try base.contentsOfDirectory(path)
  }
  package func createDirectory(_ path: String) throws(SystemCallError) {
    try base.createDirectory(path)
  }
  package func identity(of descriptor: Int32) throws(SystemCallError) -> FileIdentity {
    try base.identity(of: descriptor)
  }
  package func identity(atPath path: String) throws(SystemCallError) -> FileIdentity? {
    try base.identity(atPath: path)
  }
  package func status(of descriptor: Int32) throws(SystemCallError) -> FileStatus {
    try base.status(of: descriptor)
  }
  package func status(atPath path: String) throws(SystemCallError) -> FileStatus? {
    try base.status(atPath: path)
  }
  package func protectUntilFirstUserAuthentication(_ path: String) {
    base.protectUntilFirstUserAuthentication(path)
  }
}
