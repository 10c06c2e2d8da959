import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

extension FileStore {
  // MARK: - Reading

  /// Reads and validates the whole file of `key`; `nil` when there is none.
  func readFile(key: String) throws(SharedStoreError) -> (generation: UInt64, payload: Data)? {
    let path = path(forKey: key)
    guard let bytes = try readBytes(key: key, path: path, prefix: nil) else { return nil }
    switch StoreFileFormat.decode(bytes) {
    case .success(let file): return file
    case .failure(let damage): throw Self.error(for: damage, key: key, path: path)
    }
  }

  /// Reads and validates only the header of `key`'s file; `nil` when there is none.
  func readHeader(key: String) throws(SharedStoreError) -> StoreFileFormat.Header? {
    let path = path(forKey: key)
    guard let bytes = try readBytes(key: key, path: path, prefix: StoreFileFormat.headerSize)
    else {
      return nil
    }
    switch StoreFileFormat.decodeHeader(bytes) {
    case .success(let header): return header
    case .failure(let damage): throw Self.error(for: damage, key: key, path: path)
    }
  }

  /// The generation of `key`'s current file, or `nil` when it is missing, damaged or too large
  /// (a write then starts a fresh generation, and the file is replaced).
  ///
  /// A file of a newer format version is not damaged: it throws, so that a write never destroys
  /// a value this version of the library cannot even read. Neither is something other than a
  /// regular file, which the store did not write: it throws too.
  func currentGeneration(key: String) throws(SharedStoreError) -> UInt64? {
    do {
      return try readHeader(key: key)?.generation
    } catch .corrupted, .tooLarge {
      return nil
    }
  }

  /// The bytes of `key`'s regular file — its first `prefix` bytes, or all of them — or `nil`
  /// when it has none; never more than ``maximumFileSize`` bytes.
  private func readBytes(key: String, path: String, prefix: Int?) throws(SharedStoreError)
    -> Data?
  {
    guard let file = try openKeyFile(key: key, path: path, mode: .readOnly) else { return nil }
    defer { Self.closeQuietly(file.descriptor, fileSystem) }
    let bytes: Data
    do {
      if let prefix { return try fileSystem.readPrefix(file.descriptor, count: prefix) }
      // One byte more than `fstat` said, to notice a file that grows while it is read, and never
      // more: a value file is replaced by a rename, never written in place.
      bytes = try fileSystem.read(file.descriptor, count: file.size + 1, at: 0)
    } catch {
      throw error.ioError(path: path)
    }
    guard bytes.count <= file.size else {
      if bytes.starts(with: LogFileFormat.magic) { throw .kindMismatch(key: key, holds: .log) }
      throw .corrupted(
        key: key, path: path,
        reason: "the file grew while it was read, beyond the \(file.size) bytes it had when "
          + "opened: something other than ScreenTimeKit writes it in place")
    }
    return bytes
  }

  static func error(for damage: StoreFileFormat.Damage, key: String, path: String)
    -> SharedStoreError
  {
    switch damage {
    case .corrupted(let reason):
      return .corrupted(key: key, path: path, reason: reason)
    case .unsupportedVersion(let found):
      return .unsupportedFormatVersion(
        key: key, path: path, found: found, supported: Int(StoreFileFormat.version))
    case .holdsOtherKind(let kind):
      return .kindMismatch(key: key, holds: kind)
    }
  }

  // MARK: - Writing (the caller holds exclusive access)

  /// Writes a complete new value file for `key` beside the old one and renames it into place.
  func replaceFile(key: String, payload: Data, generation: UInt64) throws(SharedStoreError) {
    // Checked before encoding too, so that refusing a huge value costs no checksum of it.
    guard payload.count <= Self.maximumFileSize - StoreFileFormat.headerSize else {
      throw .tooLarge(
        key: key, path: path(forKey: key), size: StoreFileFormat.headerSize + payload.count,
        limit: Self.maximumFileSize)
    }
    try replaceFile(
      key: key, contents: StoreFileFormat.encode(payload: payload, generation: generation))
  }

  /// Writes `contents` to a new file beside `key`'s and renames it into place: flushed first and
  /// followed by a flush of the directory with ``Durability/durable``.
  ///
  /// Contents larger than ``maximumFileSize`` are refused before anything is written.
  func replaceFile(key: String, contents file: Data) throws(SharedStoreError) {
    guard file.count <= Self.maximumFileSize else {
      throw .tooLarge(
        key: key, path: path(forKey: key), size: file.count, limit: Self.maximumFileSize)
    }
    try replaceFile(key: key) { (write) throws(SharedStoreError) in try write(file) }
  }

  /// Writes a new file beside `key`'s with the bytes `produce` passes to `write`, in order, and
  /// renames it into place: flushed first and followed by a flush of the directory with
  /// ``Durability/durable``.
  ///
  /// When `produce` or a write throws — ``SharedStoreError/tooLarge(key:path:size:limit:)`` for
  /// bytes beyond ``maximumFileSize`` — the temporary file is removed and the old file is left in
  /// place.
  func replaceFile(
    key: String,
    producing produce: (_ write: (Data) throws(SharedStoreError) -> Void) throws(SharedStoreError)
      -> Void
  ) throws(SharedStoreError) {
    let finalPath = path(forKey: key)
    let temporaryPath =
      directoryPath + "/" + FileName.temporaryPrefix + FileName.forKey(key) + "."
      + String(UInt64.random(in: 0...UInt64.max), radix: 16)

    let descriptor: Int32
    do {
      descriptor = try fileSystem.open(temporaryPath, mode: .createNew)
    } catch {
      throw error.openError(key: key, path: temporaryPath)
    }
    // Before a byte is written, so that the value never exists in another class.
    fileSystem.protectUntilFirstUserAuthentication(temporaryPath)
    var written = 0
    do throws(SharedStoreError) {
      try produce { (bytes: Data) throws(SharedStoreError) in
        guard bytes.count <= Self.maximumFileSize - written else {
          throw .tooLarge(
            key: key, path: finalPath, size: written + bytes.count, limit: Self.maximumFileSize)
        }
        do throws(SystemCallError) {
          try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemCallError) in try fileSystem.writeAll(descriptor, raw) }
          }.get()
        } catch {
          throw error.ioError(path: temporaryPath)
        }
        written += bytes.count
      }
      if durability == .durable {
        do {
          try fileSystem.synchronize(descriptor)
        } catch {
          throw error.ioError(path: temporaryPath)
        }
      }
    } catch {
      Self.closeQuietly(descriptor, fileSystem)
      removeQuietly(temporaryPath)
      throw error
    }
    handles.forgetChecks()
    do throws(SystemCallError) {
      try fileSystem.close(descriptor)
      try fileSystem.rename(temporaryPath, to: finalPath)
    } catch {
      removeQuietly(temporaryPath)
      throw error.ioError(path: temporaryPath)
    }
    try synchronizeDirectory(afterChanging: key)
  }

  /// Removes `key`'s file, or whatever else but a directory is at its path (a symbolic link is
  /// removed, not what it points to); a missing file is not an error.
  func removeFile(key: String) throws(SharedStoreError) {
    let path = path(forKey: key)
    handles.forgetChecks()
    do {
      try fileSystem.unlink(path)
    } catch  where error.code == ENOENT {
      return
    } catch {
      throw classified(error, key: key, path: path)
    }
    try synchronizeDirectory(afterChanging: key)
  }

  /// Flushes the directory so that a rename or unlink survives a power cut (durable mode only).
  ///
  /// The change is already visible when this runs, so a failure is reported as
  /// ``SharedStoreError/notDurable(key:path:errno:)`` rather than as a failed write: retrying
  /// the change would apply it twice. The caller holds exclusive access.
  func synchronizeDirectory(afterChanging key: String) throws(SharedStoreError) {
    guard durability == .durable else { return }
    do {
      try fileSystem.synchronize(handles.directory)
    } catch {
      throw .notDurable(key: key, path: directoryPath, errno: Errno(rawValue: error.code))
    }
  }

  /// Removes a temporary file after a failed write.
  ///
  /// The write's own error is what the caller needs; a leftover file is ignored by readers and
  /// removed by `removeTemporaryFiles()`.
  private func removeQuietly(_ path: String) {
    do {
      try fileSystem.unlink(path)
    } catch {
      // The failed write is already being reported; a leftover temporary file is harmless.
    }
  }

  /// A generation for a key that has no readable file: unpredictable, so that removing and
  /// re-creating a key does not bring back an earlier change token, and far from overflow.
  static func freshGeneration() -> UInt64 {
    UInt64.random(in: 1...(1 << 62))
  }
}
