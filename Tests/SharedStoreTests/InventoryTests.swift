import Foundation
import SharedStore
import TestSupport
import Testing

/// `FileStore.inventory()`: every file of a store's directory, read and judged as the store
/// reads it, with nothing changed.
@Suite("FileStore inventory")
struct InventoryTests {
  /// A store with a value, a log, and whatever a test adds to its directory.
  struct Fixture {
    let directory: TemporaryDirectory
    let store: FileStore

    init() throws {
      directory = try TemporaryDirectory()
      store = try FileStore(directory: directory.url, durability: .processCrashSafe)
      try store.write(Data(#"{"minutes":42}"#.utf8), for: "launchCount")
      for text in ["one", "two", "three"] {
        try store.append([Data(text.utf8)], toLog: "events", capacity: 10)
      }
    }

    func url(_ name: String) -> URL { directory.url.appendingPathComponent(name) }
    func bytes(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }
    func write(_ bytes: Data, to name: String) throws { try bytes.write(to: url(name)) }

    func item(_ name: String) throws -> FileStore.InventoryItem {
      try #require(try store.inventory().first { $0.name == name }, "no item \(name)")
    }
  }

  @Test("a value and a log are listed with their key, kind, size, format version and token")
  func keysFilesAreDescribed() throws {
    let fixture = try Fixture()
    let value = try fixture.item("launch^count")
    #expect(value.key == "launchCount")
    #expect(value.kind == .value)
    #expect(value.path == fixture.url("launch^count").standardizedFileURL.path)
    #expect(value.size == 32 + 14)
    #expect(value.formatVersion == 1)
    #expect(try value.changeToken == fixture.store.changeToken(for: "launchCount"))
    #expect(value.state == .ok)
    #expect(value.error == nil)
    #expect(value.recordCount == nil)

    let log = try fixture.item("events")
    #expect(log.key == "events")
    #expect(log.kind == .log)
    #expect(try log.size == (fixture.bytes("events")).count)
    #expect(log.formatVersion == 1)
    #expect(try log.changeToken == fixture.store.changeToken(for: "events"))
    #expect(log.state == .ok)
    #expect(log.recordCount == 3)
    #expect(log.tornTailSize == 0)
  }

  @Test("the store's own files and foreign files are told apart by name, sorted by name")
  func everyFileIsClassified() throws {
    let fixture = try Fixture()
    try fixture.write(Data("partial".utf8), to: ".tmp.launch^count.5eed")
    try fixture.store.write(Data("old".utf8), for: "old")
    let quarantined = try #require(try fixture.store.quarantine("old"))
    try fixture.write(Data(count: 6), to: ".DS_Store")
    try fixture.write(Data("notes".utf8), to: "Notes.txt")

    let items = try fixture.store.inventory()
    #expect(items.map(\.name) == items.map(\.name).sorted())
    let kinds = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.kind) })
    #expect(
      kinds == [
        ".DS_Store": .foreign, ".lock": .lock, ".quarantined.old.1": .quarantined,
        ".tmp.launch^count.5eed": .temporary, "Notes.txt": .foreign, "events": .log,
        "launch^count": .value,
      ])
    let temporary = try fixture.item(".tmp.launch^count.5eed")
    #expect(temporary.key == "launchCount")
    #expect(temporary.size == 7)
    #expect(temporary.state == .notChecked)
    let moved = try fixture.item(".quarantined.old.1")
    #expect(moved.path == quarantined)
    #expect(moved.key == "old")
    #expect(moved.state == .ok, "a quarantined file is checked, to say why it was moved")
    #expect(moved.formatVersion == 1)
    for name in [".DS_Store", "Notes.txt", ".lock"] {
      let item = try fixture.item(name)
      #expect(item.key == nil, "\(name)")
      #expect(item.state == .notChecked, "\(name)")
      #expect(item.formatVersion == nil, "\(name)")
    }
    #expect(try fixture.item(".DS_Store").size == 6)
  }

  @Test("a damaged value is corrupted with the error a read throws")
  func damagedValueIsCorrupted() throws {
    let fixture = try Fixture()
    var bytes = try fixture.bytes("launch^count")
    bytes[40] ^= 0x01
    try fixture.write(bytes, to: "launch^count")
    let item = try fixture.item("launch^count")
    do throws(SharedStoreError) {
      _ = try fixture.store.read("launchCount")
      Issue.record("the damaged value was read")
    } catch {
      #expect(item.state == .corrupted(error))
      #expect(item.error == error)
    }
    #expect(item.changeToken != nil, "the header is intact")
  }

  @Test("a damaged log frame is corrupted with the error a full read throws")
  func damagedLogIsCorrupted() throws {
    let fixture = try Fixture()
    var bytes = try fixture.bytes("events")
    bytes[60] ^= 0x40
    try fixture.write(bytes, to: "events")
    let item = try fixture.item("events")
    do throws(SharedStoreError) {
      _ = try fixture.store.readLog("events")
      Issue.record("the damaged log was read")
    } catch {
      #expect(item.state == .corrupted(error))
    }
    #expect(item.kind == .log)
    #expect(item.recordCount == nil)
  }

  @Test("a file a key names that is not a store file is a corrupted value")
  func foreignBytesUnderAKeyAreCorrupted() throws {
    let fixture = try Fixture()
    try fixture.write(Data(#"{"plain":"json"}"#.utf8), to: "settings.json")
    try fixture.write(Data(), to: "empty")
    for (name, reason) in [
      ("settings.json", "not a ScreenTimeKit store file (wrong magic bytes)"),
      ("empty", "the file is empty"),
    ] {
      let item = try fixture.item(name)
      #expect(item.kind == .value)
      #expect(item.formatVersion == nil)
      #expect(
        item.state == .corrupted(.corrupted(key: name, path: item.path, reason: reason)), "\(name)")
    }
  }

  @Test("a file of a newer format version is reported as such, in both kinds")
  func newerFormatVersion() throws {
    let fixture = try Fixture()
    for (name, magic) in [("future", "STKS"), ("future-log", "STKL")] {
      var bytes = Data(magic.utf8)
      bytes += [0x02, 0x00, 0xFD, 0xFF]
      bytes += Data(count: 60)
      try fixture.write(bytes, to: name)
      let item = try fixture.item(name)
      #expect(item.formatVersion == 2)
      #expect(item.state == .newerFormatVersion(found: 2, supported: 1))
      #expect(
        item.error
          == .unsupportedFormatVersion(key: name, path: item.path, found: 2, supported: 1))
      #expect(item.changeToken == nil, "a newer format's token is not this version's to read")
    }
    #expect(try fixture.item("future-log").kind == .log)
  }

  @Test("a single flipped bit anywhere in a value file is corrupted, never a newer format")
  func everyBitFlipIsCorrupted() throws {
    let fixture = try Fixture()
    let valid = try fixture.bytes("launch^count")
    for offset in valid.indices {
      for bit in 0..<8 {
        var bytes = valid
        bytes[offset] ^= 1 << bit
        try fixture.write(bytes, to: "launch^count")
        let state = try fixture.item("launch^count").state
        guard case .corrupted = state else {
          Issue.record("byte \(offset) bit \(bit): \(state)")
          continue
        }
      }
    }
  }

  @Test("a torn tail is measured and leaves the log intact")
  func tornTailIsMeasured() throws {
    let fixture = try Fixture()
    let before = try fixture.bytes("events")
    try fixture.store.append([Data("four".utf8)], toLog: "events", capacity: 10)
    let after = try fixture.bytes("events")
    try fixture.write(after.prefix(before.count + 5), to: "events")
    let item = try fixture.item("events")
    #expect(item.state == .ok)
    #expect(item.recordCount == 3)
    #expect(item.tornTailSize == 5)
  }

  @Test("a folder is foreign, even when its name encodes a key")
  func folderIsForeign() throws {
    let fixture = try Fixture()
    try FileManager.default.createDirectory(
      at: fixture.url("pipeline"), withIntermediateDirectories: false)
    let item = try fixture.item("pipeline")
    #expect(item.kind == .foreign)
    #expect(item.key == nil)
    #expect(item.state == .notChecked)
  }

  @Test("a file that cannot be read is unreadable, with the failed call's errno")
  func unreadableFile() throws {
    let directory = try TemporaryDirectory()
    let fileSystem = FaultyFileSystem()
    let store = try FileStore(
      directory: directory.url, durability: .processCrashSafe, fileSystem: fileSystem)
    try store.write(Data("{}".utf8), for: "settings")
    fileSystem.fail(.readAt, errno: EACCES)
    let item = try #require(try store.inventory().first { $0.key == "settings" })
    guard case .unreadable(.io(let operation, let path, let errno)) = item.state else {
      Issue.record("\(item.state)")
      return
    }
    #expect(operation == "injected readAt")
    #expect(path == item.path)
    #expect(errno == .permissionDenied)
    #expect(item.error == .io(operation: operation, path: path, errno: errno))
  }

  @Test("taking an inventory changes no file, damaged ones included")
  func inventoryChangesNothing() throws {
    let fixture = try Fixture()
    var bytes = try fixture.bytes("launch^count")
    bytes[33] ^= 0x10
    try fixture.write(bytes, to: "launch^count")
    try fixture.write(Data("partial".utf8), to: ".tmp.events.77")
    let before = try fixture.directory.snapshot()
    _ = try fixture.store.inventory()
    #expect(try fixture.directory.snapshot() == before)
  }

  @Test("a control: the byte-for-byte comparison catches a change, such as removing a file")
  func snapshotCatchesAChange() throws {
    let fixture = try Fixture()
    try fixture.write(Data("partial".utf8), to: ".tmp.events.77")
    let before = try fixture.directory.snapshot()
    #expect(try fixture.store.removeTemporaryFiles() == 1)
    #expect(try fixture.directory.snapshot() != before)
  }

  @Test("an inventory caches nothing: the next one sees an append")
  func inventorySeesChanges() throws {
    let fixture = try Fixture()
    let first = try fixture.store.inventory()
    try fixture.store.append([Data("four".utf8)], toLog: "events", capacity: 10)
    let second = try fixture.store.inventory()
    #expect(first != second)
    #expect(try fixture.item("events").recordCount == 4)
  }
}
