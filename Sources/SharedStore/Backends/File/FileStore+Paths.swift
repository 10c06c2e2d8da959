// MARK: - Paths, directory entries and errors

extension FileStore {
  /// The path of the file of `key`.
  func path(forKey key: String) -> String {
    path(forName: FileName.forKey(key))
  }

  /// The path of the file `name` in the store's directory.
  func path(forName name: String) -> String {
    directoryPath + "/" + name
  }

  func directoryEntries() throws(SharedStoreError) -> [String] {
    do {
      return try fileSystem.contentsOfDirectory(directoryPath)
    } catch {
      throw error.ioError(path: directoryPath)
    }
  }

  /// What the directory entry `name` is, not following a symbolic link; `nil` when it is gone.
  func kind(ofEntry name: String) throws(SharedStoreError) -> FileKind? {
    let path = directoryPath + "/" + name
    do {
      return try fileSystem.status(atPath: path)?.kind
    } catch {
      throw error.ioError(path: path)
    }
  }

  /// Closes a descriptor whose close result cannot change any stored value.
  ///
  /// Used for read-only descriptors and at teardown only; a write path checks its close.
  static func closeQuietly(_ descriptor: Int32, _ fileSystem: any FileSystem) {
    do {
      try fileSystem.close(descriptor)
    } catch {
      // Nothing was written through this descriptor, so no data depends on this close.
    }
  }
}

extension SystemCallError {
  /// The store error reporting this failed call on `path`.
  func ioError(path: String) -> SharedStoreError {
    .io(operation: operation, path: path, errno: Errno(rawValue: code))
  }

  /// The store error reporting this failed `open` of `path`, a file of `key` (`nil`: the lock
  /// file): ``SharedStoreError/protectedDataUnavailable(key:path:)`` for `EPERM` — the system
  /// refusing a file its permissions allow, which on Apple platforms is data protection — and
  /// ``ioError(path:)`` otherwise.
  func openError(key: String?, path: String) -> SharedStoreError {
    guard code == Errno.operationNotPermitted.rawValue else { return ioError(path: path) }
    return .protectedDataUnavailable(key: key, path: path)
  }
}
