extension FileStore {
  /// One file in a store's directory, as ``FileStore/inventory()`` found it.
  ///
  /// A file named for a key is the key's value or log; names that start with `.` belong to the
  /// store (`.lock`, `.tmp.*`, `.quarantined.*`); anything else is foreign and never read.
  /// <doc:/ScreenTimeKit/FileFormat> describes the files.
  public struct InventoryItem: Sendable, Hashable {
    /// The file's name in the directory, for example `launch^count` for the key `launchCount`.
    public let name: String
    /// The file's path: the store's directory and ``name``.
    public let path: String
    /// What the file is.
    public let kind: Kind
    /// The key the file stores, or belonged to for a temporary or quarantined file; `nil` for
    /// the lock file, foreign files, and store files whose name encodes no valid key.
    public let key: String?
    /// The file's size in bytes.
    public let size: Int
    /// The format version in the file's header, when its first 8 bytes are a store header
    /// whose version field is intact; `nil` otherwise (and for the lock and foreign files).
    public let formatVersion: Int?
    /// The change token the file holds — the one ``FileStore/changeToken(for:)`` returns for a
    /// key's file — when its header is valid; `nil` otherwise.
    public let changeToken: ChangeToken?
    /// Whether the file reads as the store would read it.
    public let state: State
    /// For a log: how many records it holds (at most its capacity); `nil` otherwise, or when
    /// the log does not read.
    public let recordCount: Int?
    /// For a log that reads, the bytes of a frame cut short at its end; 0 otherwise.
    ///
    /// A writer killed during an append leaves them behind; readers ignore them and the next
    /// append removes them.
    public let tornTailSize: Int

    /// The error a read of this file throws — `corrupted`, `unsupportedFormatVersion` or
    /// `io` — or `nil` when it reads or was not checked.
    public var error: SharedStoreError? {
      switch state {
      case .ok, .notChecked: return nil
      case .corrupted(let error), .unreadable(let error): return error
      case .newerFormatVersion(let found, let supported):
        return .unsupportedFormatVersion(
          key: key ?? name, path: path, found: found, supported: supported)
      }
    }
  }
}

extension FileStore.InventoryItem {
  /// What a file in a store's directory is.
  public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
    /// A key's value file, or a key's file that is not a log: a file named for a key whose bytes
    /// do not start with the log magic `STKL` is read as a value, as ``FileStore/read(_:)``
    /// reads it.
    case value
    /// A key's append-only log file (magic `STKL`).
    case log
    /// A file a writer was writing (`.tmp.*`): left behind when the writer was killed, ignored
    /// by readers, removed by ``FileStore/removeTemporaryFiles()``.
    case temporary
    /// A file moved aside by ``FileStore/quarantine(_:)`` (`.quarantined.*`), byte for byte.
    case quarantined
    /// The lock file `.lock`, which writers `flock`; always empty.
    case lock
    /// A file the store did not write and never reads: a name that encodes no key and is not
    /// one of the store's own (`.DS_Store`, `Notes.txt`), or a folder, whatever its name.
    ///
    /// A folder whose name encodes a key is still listed by ``FileStore/keys()``, and reading
    /// that key fails with `EISDIR`; no write can replace it.
    case foreign

    /// A few words a person can read: "value", "log", "temporary file", ….
    public var description: String {
      switch self {
      case .value: return "value"
      case .log: return "log"
      case .temporary: return "temporary file"
      case .quarantined: return "quarantined file"
      case .lock: return "lock file"
      case .foreign: return "foreign file"
      }
    }
  }

  /// Whether a file reads as the store would read it.
  public enum State: Sendable, Hashable {
    /// The file is intact: every check a read makes passes.
    case ok
    /// The bytes are damaged or were not written by this library; the error is the one a read
    /// throws, ``SharedStoreError/corrupted(key:path:reason:)``.
    case corrupted(SharedStoreError)
    /// The file was written in a newer format version, which this version of the library does
    /// not read (a read throws
    /// ``SharedStoreError/unsupportedFormatVersion(key:path:found:supported:)``).
    case newerFormatVersion(found: Int, supported: Int)
    /// The file could not be read: ``SharedStoreError/io(operation:path:errno:)``, for example
    /// `EACCES` for a file whose permissions forbid it.
    case unreadable(SharedStoreError)
    /// The file is not read by the store, so not checked: a temporary, lock or foreign file.
    case notChecked

    /// Hashes the state; an error is hashed by its description, which its payload determines.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
      switch self {
      case .ok: hasher.combine(0)
      case .corrupted(let error):
        hasher.combine(1)
        hasher.combine(error.description)
      case .newerFormatVersion(let found, let supported):
        hasher.combine(2)
        hasher.combine(found)
        hasher.combine(supported)
      case .unreadable(let error):
        hasher.combine(3)
        hasher.combine(error.description)
      case .notChecked: hasher.combine(4)
      }
    }
  }
}
