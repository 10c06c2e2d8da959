import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is released.
///
/// Tests that need a place on disk create one and keep it alive for the test's duration:
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let store = try FileStore(directory: directory.url)
/// ```
package final class TemporaryDirectory: Sendable {
  /// The directory's URL.
  package let url: URL

  /// Creates a fresh, empty directory.
  ///
  /// - Parameters:
  ///   - prefix: A readable prefix for the directory's name.
  ///   - preferringMemory: Whether to put it on the memory file system `/dev/shm` where there is
  ///     one (Linux), so that `fsync` costs nothing: for tests that flush thousands of times and
  ///     test what the store does, not what the disk does.
  /// - Throws: When the directory cannot be created.
  package init(prefix: String = "stk-test", preferringMemory: Bool = false) throws {
    var isDirectory: ObjCBool = false
    let base =
      preferringMemory
        && FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory)
        && isDirectory.boolValue
      ? URL(fileURLWithPath: "/dev/shm", isDirectory: true) : FileManager.default.temporaryDirectory
    url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    do {
      try FileManager.default.removeItem(at: url)
    } catch {
      // A leftover temporary directory is harmless; the system cleans it up.
    }
  }

  /// The path of the directory.
  package var path: String { url.path }

  /// The names in the directory, sorted, including names that start with a dot.
  ///
  /// - Returns: The names.
  /// - Throws: When the directory cannot be listed.
  package func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  /// Every file under the directory with its bytes, for "nothing changed" checks.
  ///
  /// - Returns: File bytes by path relative to the directory.
  /// - Throws: When a file cannot be read.
  package func snapshot() throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: path)
    while let relative = enumerator?.nextObject() as? String {
      let full = url.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: full.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        result[relative] = try Data(contentsOf: full)
      } else {
        result[relative + "/"] = Data()
      }
    }
    return result
  }
}
