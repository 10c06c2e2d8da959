import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// Every failing step of a write is reported, and leaves the old value and no temporary file.
@Suite("FileStore write failures and durability")
struct DurabilityTests {
  struct Fixture {
    let directory: TemporaryDirectory
    let fileSystem = FaultyFileSystem()
    let store: FileStore

    init(durability: FileStore.Durability = .durable) throws {
      directory = try TemporaryDirectory()
      store = try FileStore(
        directory: directory.url, durability: durability, fileSystem: fileSystem)
      try store.write(Data("old".utf8), for: "key")
    }

    var temporaryFiles: [String] {
      get throws { try directory.contents().filter { $0.hasPrefix(".tmp.") } }
    }
  }

  @Test(
    "a failure before the rename throws io, keeps the old value and leaves no temporary file",
    arguments: [
      // A write first opens, reads and closes the old file's header; `skip` passes those calls.
      (FaultyFileSystem.Call.open, 1), (.writeAll, 0), (.synchronize, 0), (.close, 1),
      (.rename, 0),
    ])
  func failureBeforeRenameKeepsOldValue(call: FaultyFileSystem.Call, skip: Int) throws {
    let fixture = try Fixture()
    let tokenBefore = try fixture.store.changeToken(for: "key")
    fixture.fileSystem.fail(call, errno: EIO, skip: skip)
    #expect {
      try fixture.store.write(Data("new".utf8), for: "key")
    } throws: { error in
      guard case .io(let operation, _, let code) = error as? SharedStoreError else { return false }
      return operation == "injected \(call.rawValue)" && code == .ioError
    }
    #expect(try fixture.store.read("key") == Data("old".utf8))
    #expect(try fixture.store.changeToken(for: "key") == tokenBefore)
    #expect(try fixture.temporaryFiles.isEmpty)
    try fixture.store.write(Data("later".utf8), for: "key")
    #expect(try fixture.store.read("key") == Data("later".utf8), "the store keeps working")
  }

  @Test("a failed flush of the new file is a failed write")
  func failedFileFlushIsFailedWrite() throws {
    let fixture = try Fixture()
    fixture.fileSystem.fail(.synchronize)
    #expect(throws: SharedStoreError.self) {
      try fixture.store.update("key") { $0 = Data("new".utf8) }
    }
    #expect(try fixture.store.read("key") == Data("old".utf8))
  }

  @Test(
    "a failed directory flush is reported as notDurable, with the new value in place",
    arguments: ["write", "update", "remove"])
  func failedDirectoryFlushIsNotDurable(operation: String) throws {
    let fixture = try Fixture()
    // A write flushes the file, then the directory; a removal flushes only the directory.
    fixture.fileSystem.fail(.synchronize, errno: EIO, skip: operation == "remove" ? 0 : 1)
    #expect(
      throws: SharedStoreError.notDurable(
        key: "key", path: fixture.directory.url.path, errno: .ioError)
    ) {
      switch operation {
      case "write": try fixture.store.write(Data("new".utf8), for: "key")
      case "update": try fixture.store.update("key") { $0 = Data("new".utf8) }
      default: try fixture.store.remove("key")
      }
    }
    let expected = operation == "remove" ? nil : Data("new".utf8)
    #expect(try fixture.store.read("key") == expected, "the change is in place")
    #expect(try fixture.temporaryFiles.isEmpty)
  }

  @Test("a write does not replace a file of a newer format version")
  func writeKeepsNewerFormatFile() throws {
    let fixture = try Fixture()
    let path = fixture.directory.url.appendingPathComponent("key")
    var newer = try Data(contentsOf: path)
    newer.replaceSubrange(4..<8, with: [2, 0, 0xFD, 0xFF])
    try newer.write(to: path)
    #expect(throws: SharedStoreError.self) { try fixture.store.write(Data("new".utf8), for: "key") }
    #expect(try Data(contentsOf: path) == newer)
  }

  @Test("durable writes flush the file and the directory; processCrashSafe writes flush nothing")
  func flushesFollowDurability() throws {
    let durable = try Fixture(durability: .durable)
    var before = durable.fileSystem.count(.synchronize)
    try durable.store.write(Data([1]), for: "a")
    #expect(durable.fileSystem.count(.synchronize) - before == 2)
    before = durable.fileSystem.count(.synchronize)
    try durable.store.remove("a")
    #expect(durable.fileSystem.count(.synchronize) - before == 1, "a removal flushes the directory")

    let fast = try Fixture(durability: .processCrashSafe)
    try fast.store.write(Data([1]), for: "a")
    try fast.store.update("a") { $0 = Data([2]) }
    try fast.store.remove("a")
    #expect(fast.fileSystem.count(.synchronize) == 0)
  }

  @Test("a failed lock is reported and nothing is written")
  func failedLockIsReported() throws {
    let fixture = try Fixture()
    fixture.fileSystem.fail(.lockExclusively, errno: ENOLCK)
    #expect {
      try fixture.store.write(Data("new".utf8), for: "key")
    } throws: { error in
      guard case .io(_, let path, let code) = error as? SharedStoreError else { return false }
      return code == Errno(rawValue: ENOLCK) && path.hasSuffix("/.lock")
    }
    #expect(try fixture.store.read("key") == Data("old".utf8))
    try fixture.store.write(Data("next".utf8), for: "key")
  }

  @Test("a read failure other than a missing file is an io error, not nil")
  func readFailureIsNotAbsence() throws {
    let fixture = try Fixture()
    fixture.fileSystem.fail(.open, errno: EACCES)
    #expect(throws: SharedStoreError.self) { _ = try fixture.store.read("key") }
    fixture.fileSystem.fail(.readAt, errno: EIO)
    #expect(throws: SharedStoreError.self) { _ = try fixture.store.read("key") }
  }

  @Test("opening a store on a path that is a file fails with io")
  func storeOnAFileFails() throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("plain-file")
    try Data().write(to: file)
    #expect(throws: SharedStoreError.self) { _ = try FileStore(directory: file) }
    let remote = try #require(URL(string: "https://example.com/store"))
    #expect(throws: SharedStoreError.self) { _ = try FileStore(directory: remote) }
  }

  @Test("opening a store creates missing parent directories")
  func storeCreatesParents() throws {
    let directory = try TemporaryDirectory()
    let nested = directory.url.appendingPathComponent("a/b/c", isDirectory: true)
    let store = try FileStore(directory: nested)
    try store.write(Data([1]), for: "k")
    #expect(try FileStore(directory: nested).read("k") == Data([1]))
  }
}
