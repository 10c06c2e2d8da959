import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

extension FileStore {
  /// Moves the file of `key` aside, byte for byte, so that the key can start afresh.
  ///
  /// The file is renamed to `.quarantined.<file name>.<n>` in the store's directory, with `n`
  /// one more than any earlier quarantine of the same key, so nothing is ever overwritten. The
  /// file is not opened, read or validated: quarantine works on damaged files, on files of a
  /// newer format, on files too large to read, on values that no longer decode, and on anything
  /// that is not a regular file — a directory, a FIFO, a symbolic link (the link is moved, not
  /// what it points to).
  ///
  /// - Parameter key: A valid store key.
  /// - Returns: The quarantined file's path, or `nil` when the key had no file.
  /// - Throws: ``SharedStoreError/invalidKey(key:reason:)`` or
  ///   ``SharedStoreError/io(operation:path:errno:)``; or
  ///   ``SharedStoreError/notDurable(key:path:errno:)`` when the file was moved but the
  ///   directory flush failed: its `path` is then the quarantined file's, as the return value
  ///   would have been, so that a caller can go on and record where the bytes are.
  public func quarantine(_ key: String) throws(SharedStoreError) -> String? {
    try StoreKeyRules.validate(key)
    try acquireExclusiveAccess()
    defer { releaseExclusiveAccess() }
    let fileName = FileName.forKey(key)
    let prefix = FileName.quarantinePrefix + fileName + "."
    let used = try directoryEntries().compactMap { name -> Int? in
      guard name.hasPrefix(prefix) else { return nil }
      return Int(name.dropFirst(prefix.count))
    }
    let (next, overflow) = (used.max() ?? 0).addingReportingOverflow(1)
    guard !overflow else {
      // Only a file planted by hand can hold the largest number.
      throw .io(
        operation: "quarantine (no quarantine number is left after \(Int.max))",
        path: directoryPath + "/" + prefix + String(Int.max), errno: .fileExists)
    }
    let destination = directoryPath + "/" + prefix + String(next)
    handles.forgetChecks()
    do {
      try fileSystem.rename(path(forKey: key), to: destination)
    } catch  where error.code == ENOENT {
      return nil
    } catch {
      throw error.ioError(path: path(forKey: key))
    }
    do throws(SharedStoreError) {
      try synchronizeDirectory(afterChanging: key)
    } catch {
      // Moved: the caller rebuilds the key, and a rename lost to a power cut brings the damaged
      // file back, to be quarantined again.
      guard case .notDurable(_, _, let errno) = error else { throw error }
      throw .notDurable(key: key, path: destination, errno: errno)
    }
    return destination
  }

  /// Returns the paths of all files moved aside by ``quarantine(_:)``, sorted.
  ///
  /// - Returns: The quarantined files' paths.
  /// - Throws: ``SharedStoreError/io(operation:path:errno:)``.
  public func quarantinedFiles() throws(SharedStoreError) -> [String] {
    try directoryEntries()
      .filter { $0.hasPrefix(FileName.quarantinePrefix) }
      .sorted()
      .map { directoryPath + "/" + $0 }
  }

  /// Removes temporary files left behind by writers that were killed mid-write.
  ///
  /// Readers already ignore such files; this reclaims their space. It is safe to call at any
  /// time, from any process: it holds the store's lock, and every writer holds that lock from
  /// creating its temporary file until the rename, so no temporary file it sees is in use. Only
  /// regular files are removed: a directory or anything else named like a temporary file was not
  /// made by the store and is left alone.
  ///
  /// - Returns: The number of files removed.
  /// - Throws: ``SharedStoreError/io(operation:path:errno:)``.
  @discardableResult
  public func removeTemporaryFiles() throws(SharedStoreError) -> Int {
    try acquireExclusiveAccess()
    defer { releaseExclusiveAccess() }
    var removed = 0
    for name in try directoryEntries() where name.hasPrefix(FileName.temporaryPrefix) {
      guard try kind(ofEntry: name) == .regularFile else { continue }
      let path = directoryPath + "/" + name
      do {
        try fileSystem.unlink(path)
        removed += 1
      } catch  where error.code == ENOENT {
        continue
      } catch {
        throw error.ioError(path: path)
      }
    }
    // Removing garbage need not survive a power cut, and a leftover reappearing is harmless.
    return removed
  }
}
