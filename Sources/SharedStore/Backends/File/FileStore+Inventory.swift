import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

extension FileStore {
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
      return item(
        size: 0, version: nil, state: .unreadable(error.openError(key: key, path: path)))
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
  /// 8 bytes: the magic, the version and its complement (<doc:/ScreenTimeKit/FileFormat>).
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
