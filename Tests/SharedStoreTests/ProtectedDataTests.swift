import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// Data protection: a file the system keeps closed while the device is locked is a named
/// condition, changes nothing, and passes; every file the store creates gets its class first.
@Suite("FileStore under data protection")
struct ProtectedDataTests {
  struct Fixture {
    let directory: TemporaryDirectory
    let device = LockedDevice()
    let store: FileStore

    init() throws {
      directory = try TemporaryDirectory()
      store = try FileStore(directory: directory.url, durability: .durable, fileSystem: device)
    }

    var path: String { directory.url.standardizedFileURL.path }
  }

  /// An operation of the store, and what the refused open concerns: a key's file or the lock.
  enum Operation: String, CaseIterable, Sendable {
    case read, changeToken, writeOnFreshStore, writeAfterAChange, writeNewKeyAfterAChange
    case appendAfterAChange

    /// Whether the store has made a change (and so holds its lock file open) before locking.
    var changesFirst: Bool {
      switch self {
      case .read, .changeToken, .writeOnFreshStore: return false
      case .writeAfterAChange, .writeNewKeyAfterAChange, .appendAfterAChange: return true
      }
    }

    func run(_ store: FileStore) throws(SharedStoreError) {
      switch self {
      case .read: _ = try store.read("value")
      case .changeToken: _ = try store.changeToken(for: "value")
      case .writeOnFreshStore, .writeAfterAChange: try store.write(Data("new".utf8), for: "value")
      case .writeNewKeyAfterAChange: try store.write(Data("new".utf8), for: "fresh")
      case .appendAfterAChange:
        _ = try store.appendToLog("log", capacity: 8, examiningNewest: 1) { _ in [Data("r".utf8)] }
      }
    }
  }

  @Test(
    "an open refused with EPERM is protectedDataUnavailable, naming the file, and changes nothing",
    arguments: Operation.allCases)
  func refusedOpenIsNamed(operation: Operation) throws {
    let fixture = try Fixture()
    // Written in another process's store, so that this store has not opened its lock file yet.
    let writer = try FileStore(directory: fixture.directory.url)
    try writer.write(Data("old".utf8), for: "value")
    _ = try writer.appendToLog("log", capacity: 8, examiningNewest: 1) { _ in [Data("a".utf8)] }
    if operation.changesFirst { try fixture.store.write(Data("old".utf8), for: "other") }
    let before = try fixture.directory.contents().sorted()

    fixture.device.lock()
    let error = thrownError { () throws(SharedStoreError) in try operation.run(fixture.store) }

    guard case .protectedDataUnavailable(let key, let path)? = error else {
      Issue.record("expected protectedDataUnavailable, got \(String(describing: error))")
      return
    }
    switch operation {
    case .read, .changeToken, .writeAfterAChange:
      #expect(key == "value", "a write reads the old file's header first")
      #expect(path == fixture.path + "/" + FileName.forKey("value"))
    case .writeOnFreshStore:
      #expect(key == nil, "the lock file is the first file a change opens")
      #expect(path == fixture.path + "/.lock")
    case .writeNewKeyAfterAChange:
      #expect(key == "fresh", "the temporary file of the new value")
      #expect(path.hasPrefix(fixture.path + "/" + FileName.temporaryPrefix))
    case .appendAfterAChange:
      #expect(key == "log")
      #expect(path == fixture.path + "/" + FileName.forKey("log"))
    }
    #expect(fixture.device.refusedOpens >= 1)
    #expect(try fixture.directory.contents().sorted() == before, "nothing created or removed")
    #expect(error?.description.contains("until the device is unlocked") == true)

    fixture.device.unlock()
    #expect(try fixture.store.read("value") == Data("old".utf8), "the old value is intact")
    try operation.run(fixture.store)
    if operation == .writeOnFreshStore || operation == .writeAfterAChange {
      #expect(try fixture.store.read("value") == Data("new".utf8), "the condition passed")
    }
    if operation == .writeNewKeyAfterAChange {
      #expect(try fixture.store.read("fresh") == Data("new".utf8), "the condition passed")
    }
  }

  @Test(
    "a refusal for another reason keeps its error number: EACCES is io permissionDenied",
    arguments: [(EACCES, Errno.permissionDenied), (EIO, .ioError)])
  func otherRefusalsStayIO(code: Int32, errno: Errno) throws {
    let directory = try TemporaryDirectory()
    let fileSystem = FaultyFileSystem()
    let store = try FileStore(
      directory: directory.url, durability: .durable, fileSystem: fileSystem)
    try store.write(Data("old".utf8), for: "value")
    fileSystem.fail(.open, errno: code)
    let error = thrownError { () throws(SharedStoreError) in _ = try store.read("value") }
    guard case .io(_, _, let reported)? = error else {
      Issue.record("expected io, got \(String(describing: error))")
      return
    }
    #expect(reported == errno)
  }

  @Test("the same EPERM injected through the fault seam is named the same way (control)")
  func faultSeamEPERMIsNamed() throws {
    let directory = try TemporaryDirectory()
    let fileSystem = FaultyFileSystem()
    let store = try FileStore(
      directory: directory.url, durability: .durable, fileSystem: fileSystem)
    try store.write(Data("old".utf8), for: "value")
    fileSystem.fail(.open, errno: EPERM)
    let error = thrownError { () throws(SharedStoreError) in _ = try store.read("value") }
    #expect(error == .protectedDataUnavailable(key: "value", path: store.path(forKey: "value")))
  }

  @Test("the folder is protected when the store opens, and every new file before its first byte")
  func everyCreatedFileIsProtectedFirst() throws {
    let fixture = try Fixture()
    #expect(fixture.device.protectedPaths == [fixture.path], "the folder, when the store opens")
    for index in 0..<5 { try fixture.store.write(Data("v\(index)".utf8), for: "value") }
    _ = try fixture.store.appendToLog("log", capacity: 2, examiningNewest: 1) { _ in
      [Data("a".utf8), Data("b".utf8), Data("c".utf8)]
    }
    let protected = fixture.device.protectedPaths
    #expect(protected.contains(fixture.path + "/.lock"), "the lock file, once")
    #expect(protected.filter { $0.hasSuffix("/.lock") }.count == 1)
    #expect(protected.filter { $0.contains("/" + FileName.temporaryPrefix) }.count >= 5)
    #expect(fixture.device.unprotectedWrites == 0)
  }

  @Test("a new file written before it is protected is caught (control)")
  func unprotectedWriteIsCaught() throws {
    let fixture = try Fixture()
    let descriptor = try fixture.device.open(fixture.path + "/.tmp.control", mode: .createNew)
    try Data("x".utf8).withUnsafeBytes { bytes in
      try fixture.device.writeAll(descriptor, bytes)
    }
    try fixture.device.close(descriptor)
    #expect(fixture.device.unprotectedWrites == 1)
  }
}
