#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

extension FileStore {
  /// The largest file the store reads or writes: 64 MiB, header included.
  ///
  /// A read holds the whole value in memory, and decoding it holds it again, so the store must
  /// not believe whatever size a file in a shared folder claims. 64 MiB is over a hundred times
  /// the largest history the library itself keeps (a week of heartbeats is under 1 MiB; an
  /// outbox or a ledger is kilobytes), yet small enough that a hostile or broken file — a sparse
  /// file of a terabyte, a file that keeps growing — costs an app a bounded amount of memory
  /// instead of its life. Mind that a monitor extension has 6 MB in all: keep what it reads far
  /// below this.
  ///
  /// A larger file is reported as ``SharedStoreError/tooLarge(key:path:size:limit:)`` without
  /// being read; a write or an append that would make one changes nothing. An append-only log
  /// that would grow past it is compacted instead, and fails only if its newest `capacity`
  /// records alone exceed it.
  public static let maximumFileSize = 64 * 1024 * 1024

  /// A key's regular file, open, and its size when it was opened.
  struct OpenFile {
    let descriptor: Int32
    let size: Int
    /// The file's device and inode, from the same `fstat`.
    let identity: FileIdentity
  }

  /// Opens the file of `key` at `path` with `mode` if it is a regular file of at most
  /// ``maximumFileSize`` bytes; `nil` when nothing is there.
  ///
  /// The open neither follows a symbolic link nor waits on a FIFO (see `OpenMode`), and the
  /// descriptor is checked with `fstat` before anything is read or written through it.
  func openKeyFile(key: String, path: String, mode: OpenMode) throws(SharedStoreError)
    -> OpenFile?
  {
    guard let (descriptor, status) = try openRegularFile(path, mode: mode, key: key) else {
      return nil
    }
    guard status.size <= Self.maximumFileSize else {
      Self.closeQuietly(descriptor, fileSystem)
      throw .tooLarge(key: key, path: path, size: status.size, limit: Self.maximumFileSize)
    }
    return OpenFile(descriptor: descriptor, size: status.size, identity: status.identity)
  }

  /// Opens `path` with `mode` if it is a regular file.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - mode: How to open it.
  ///   - key: The key the file belongs to, or `nil` for the lock file; for errors.
  /// - Returns: The descriptor and what `fstat` said, or `nil` when nothing is there (and `mode`
  ///   does not create it).
  /// - Throws: `notARegularFile` when anything else is there, or `io`.
  func openRegularFile(_ path: String, mode: OpenMode, key: String?) throws(SharedStoreError)
    -> (descriptor: Int32, status: FileStatus)?
  {
    let descriptor: Int32
    do {
      descriptor = try fileSystem.open(path, mode: mode)
    } catch  where error.code == ENOENT {
      return nil
    } catch {
      throw classified(error, key: key, path: path, opening: true)
    }
    let status: FileStatus
    do {
      status = try fileSystem.status(of: descriptor)
    } catch {
      Self.closeQuietly(descriptor, fileSystem)
      throw error.ioError(path: path)
    }
    guard status.kind == .regularFile else {
      Self.closeQuietly(descriptor, fileSystem)
      throw .notARegularFile(key: key, path: path, kind: status.kind)
    }
    return (descriptor, status)
  }

  /// The error for a call on `path` that failed: ``SharedStoreError/notARegularFile(key:path:kind:)``
  /// when what is there is not a regular file — the cause of `ELOOP` from `O_NOFOLLOW`, `EISDIR`,
  /// `ENXIO` for a socket, `EPERM` for unlinking a directory on Darwin — and otherwise `io`, or
  /// for an `open` (`opening`) what `SystemCallError.openError(key:path:)` says.
  func classified(_ failure: SystemCallError, key: String?, path: String, opening: Bool = false)
    -> SharedStoreError
  {
    let status: FileStatus?
    do {
      status = try fileSystem.status(atPath: path)
    } catch {
      // What is there is unknown; the call's own failure is the error to report.
      return opening ? failure.openError(key: key, path: path) : failure.ioError(path: path)
    }
    if let status, status.kind != .regularFile {
      return .notARegularFile(key: key, path: path, kind: status.kind)
    }
    return opening ? failure.openError(key: key, path: path) : failure.ioError(path: path)
  }
}
