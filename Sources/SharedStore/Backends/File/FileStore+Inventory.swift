import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

extension FileStore {
  /// One file in a store's directory, as ``FileStore/inventory()`` found it.
  ///
  /// A file named for a key is the key's value or log; names that start with `.` belong to the
  /// store (`.lock`, `.tmp.*`, `.quarantined.*`); anything else is foreign and never read.
  /// `Documentation/FileFormat.md` describes the files.
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

  /// Lists every file in the store's directory, reading and validating each as the store would,
  /// without taking the lock and without changing any file.
  ///
  /// The tool for someone inspecting a store folder a user sent: which keys are there, how big,
  /// of which format version, and which are damaged — with the error a read would throw. A key's
  /// value file is validated like ``read(_:)`` (header, length and payload checksum); a log file
  /// like ``readLog(_:newest:)`` with every record, frame by frame. A quarantined file is
  /// validated the same way, so that it says why it was moved aside. Temporary files, the lock
  /// file, foreign files and folders are listed, not read.
  ///
  /// ```swift
  /// for item in try store.inventory() where item.kind == .value || item.kind == .log {
  ///   if let error = item.error { print("\(item.name): \(error)") }
  /// }
  /// ```
  ///
  /// A file that disappears while the inventory runs (a temporary file renamed into place, a
  /// key removed) is left out; one that another process replaces is read either before or after,
  /// never torn. Each item says what its one read saw.
  ///
  /// - Returns: The files, sorted by name.
  /// - Throws: ``SharedStoreError/io(operation:path:errno:)`` when the directory cannot be
  ///   listed. A file that cannot be read is an item whose state is
  ///   ``InventoryItem/State/unreadable(_:)``, not an error.
  /// - Complexity: O(*n*) in the total size of the key and quarantined files.
  public func inventory() throws(SharedStoreError) -> [InventoryItem] {
    var items: [InventoryItem] = []
    for name in try directoryEntries().sorted() {
      if let item = inventoryItem(named: name) { items.append(item) }
    }
    return items
  }

  // MARK: - One file

  /// The item for the file `name`, or `nil` when it no longer exists.
  private func inventoryItem(named name: String) -> InventoryItem? {
    let path = directoryPath + "/" + name
    if name == FileName.lock {
      return sizeOnly(name: name, path: path, kind: .lock, key: nil)
    }
    if name.hasPrefix(FileName.temporaryPrefix) {
      let key = Self.key(inStoreFileName: name, prefix: FileName.temporaryPrefix)
      return sizeOnly(name: name, path: path, kind: .temporary, key: key)
    }
    if name.hasPrefix(FileName.quarantinePrefix) {
      let key = Self.key(inStoreFileName: name, prefix: FileName.quarantinePrefix)
      return checked(name: name, path: path, kind: .quarantined, key: key)
    }
    if let key = FileName.key(forFileName: name) {
      return checked(name: name, path: path, kind: nil, key: key)
    }
    return sizeOnly(name: name, path: path, kind: .foreign, key: nil)
  }

  /// An item whose bytes are not read: its size from `fstat`, its format version from its
  /// first 8 bytes for a temporary file.
  private func sizeOnly(name: String, path: String, kind: InventoryItem.Kind, key: String?)
    -> InventoryItem?
  {
    func item(size: Int, version: Int?, state: InventoryItem.State) -> InventoryItem {
      InventoryItem(
        name: name, path: path, kind: kind, key: key, size: size, formatVersion: version,
        changeToken: nil, state: state, recordCount: nil, tornTailSize: 0)
    }
    let descriptor: Int32
    do {
      descriptor = try fileSystem.open(path, mode: .readOnly)
    } catch  where error.code == ENOENT {
      return nil
    } catch {
      return item(size: 0, version: nil, state: .unreadable(error.ioError(path: path)))
    }
    defer { Self.closeQuietly(descriptor, fileSystem) }
    do {
      let size = try fileSystem.size(of: descriptor)
      let version =
        kind == .temporary
        ? Self.formatVersion(try fileSystem.readPrefix(descriptor, count: 8)) : nil
      return item(size: size, version: version, state: .notChecked)
    } catch {
      return item(size: 0, version: nil, state: .unreadable(error.ioError(path: path)))
    }
  }

  /// An item whose bytes are read whole and validated; `kind` is `nil` for a key's file, whose
  /// kind its magic bytes tell.
  private func checked(name: String, path: String, kind: InventoryItem.Kind?, key: String?)
    -> InventoryItem?
  {
    let bytes: Data
    do throws(SharedStoreError) {
      // Opened as the store opens a key's file: no link followed, no FIFO waited on, at most
      // `maximumFileSize` bytes read.
      guard let file = try openKeyFile(key: key ?? name, path: path, mode: .readOnly) else {
        return nil
      }
      defer { Self.closeQuietly(file.descriptor, fileSystem) }
      do {
        bytes = try fileSystem.read(file.descriptor, count: file.size, at: 0)
      } catch {
        throw error.ioError(path: path)
      }
    } catch .notARegularFile(_, _, .directory) {
      // A folder is never a store file, whatever its name: the store cannot write a key there.
      return sizeOnly(name: name, path: path, kind: .foreign, key: nil)
    } catch {
      return InventoryItem(
        name: name, path: path, kind: kind ?? .value, key: key, size: 0, formatVersion: nil,
        changeToken: nil, state: .unreadable(error), recordCount: nil, tornTailSize: 0)
    }
    let label = key ?? name
    func state(_ damage: StoreFileFormat.Damage) -> InventoryItem.State {
      if case .unsupportedVersion(let found) = damage {
        return .newerFormatVersion(found: found, supported: Int(StoreFileFormat.version))
      }
      return .corrupted(Self.error(for: damage, key: label, path: path))
    }
    var validated = InventoryItem.State.ok
    var token: ChangeToken?
    var recordCount: Int?
    var torn = 0
    let isLog = bytes.starts(with: LogFileFormat.magic)
    if isLog {
      if case .success(let header) = LogFileFormat.decodeHeader(bytes) {
        token = ChangeToken(
          generation: header.tokenBase &+ UInt64(bytes.count - LogFileFormat.headerSize))
      }
      switch LogFileFormat.parse(bytes) {
      case .success(let view):
        recordCount = view.count
        if case .torn(let count) = view.tail { torn = count }
      case .failure(let damage):
        validated = state(damage)
      }
    } else {
      if case .success(let header) = StoreFileFormat.decodeHeader(bytes) {
        token = ChangeToken(generation: header.generation)
      }
      if case .failure(let damage) = StoreFileFormat.decode(bytes) { validated = state(damage) }
    }
    return InventoryItem(
      name: name, path: path, kind: kind ?? (isLog ? .log : .value), key: key,
      size: bytes.count, formatVersion: Self.formatVersion(bytes), changeToken: token,
      state: validated, recordCount: recordCount, tornTailSize: torn)
  }

  // MARK: - Names and headers

  /// The key in `.tmp.<file name>.<hex>` or `.quarantined.<file name>.<n>`, when the name has
  /// that shape and the file name encodes a valid key.
  private static func key(inStoreFileName name: String, prefix: String) -> String? {
    let rest = name.dropFirst(prefix.count)
    guard let dot = rest.lastIndex(of: "."), dot != rest.startIndex else { return nil }
    return FileName.key(forFileName: String(rest[..<dot]))
  }

  /// The format version of a value or log file whose version field is intact, from its first
  /// 8 bytes: the magic, the version and its complement (`Documentation/FileFormat.md`).
  private static func formatVersion(_ bytes: Data) -> Int? {
    guard bytes.count >= 8,
      bytes.starts(with: StoreFileFormat.magic) || bytes.starts(with: LogFileFormat.magic)
    else { return nil }
    let field = Array(bytes.prefix(8))
    let version = UInt16(field[4]) | UInt16(field[5]) << 8
    let check = UInt16(field[6]) | UInt16(field[7]) << 8
    return check == ~version ? Int(version) : nil
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
