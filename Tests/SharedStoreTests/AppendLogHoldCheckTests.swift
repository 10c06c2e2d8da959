import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// Inside one hold of a `FileStore`'s lock, a log file it keeps open is checked (`fstatat`) once:
/// no other writer can replace it during the hold, and whatever the store itself renames or
/// unlinks in the hold makes it check again.
@Suite("FileStore checks a kept log file once per hold")
struct AppendLogHoldCheckTests {
  struct Fixture {
    let directory: TemporaryDirectory
    let fileSystem = FaultyFileSystem()
    let store: FileStore

    init() throws {
      directory = try TemporaryDirectory(prefix: "stk-check")
      store = try FileStore(
        directory: directory.url, durability: .processCrashSafe, fileSystem: fileSystem)
    }

    func append(_ text: String) throws(SharedStoreError) -> LogAppend? {
      try store.append([Data(text.utf8)], toLog: "log", capacity: 100)
    }

    func newest() throws(SharedStoreError) -> LogRecord? {
      try store.readLog("log", newest: 1)?.records.last
    }

    func texts() throws -> [String] {
      (try store.readLog("log")?.records ?? []).map { String(decoding: $0.bytes, as: UTF8.self) }
    }
  }

  @Test("a log read and then appended to in one hold is checked once")
  func readThenAppendChecksOnce() throws {
    let fixture = try Fixture()
    // The first append creates the file; the second keeps it open.
    for text in ["created", "kept"] { _ = try fixture.append(text) }
    let statuses = fixture.fileSystem.count(.status)
    try fixture.store.exclusively { () throws(SharedStoreError) in
      #expect(try fixture.newest()?.position == 2)
      #expect(try fixture.append("held")?.positions == 3...3)
      #expect(try fixture.append("again")?.positions == 4...4)
    }
    // The lock file's check and the log's.
    #expect(fixture.fileSystem.count(.status) == statuses + 2)
    // Control: in holds of their own, the read and the append each check the lock file and
    // the log.
    try fixture.store.exclusively { () throws(SharedStoreError) in _ = try fixture.newest() }
    _ = try fixture.append("alone")
    #expect(fixture.fileSystem.count(.status) == statuses + 6)
    #expect(try fixture.texts() == ["created", "kept", "held", "again", "alone"])
  }

  /// What the store itself may do to a log inside the hold in which it appended to it.
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case removed, quarantined, compacted, replacedByAValue
    var testDescription: String { rawValue }
  }

  @Test(
    "an append after the store itself changed the log in the same hold finds what is there",
    arguments: Change.allCases)
  func appendAfterOwnChangeInTheHold(change: Change) throws {
    let fixture = try Fixture()
    for text in ["one", "two"] { _ = try fixture.append(text) }
    let sibling = fixture.store.withDurability(.durable)
    try fixture.store.exclusively { () throws(SharedStoreError) in
      #expect(try fixture.append("three")?.positions == 3...3)
      switch change {
      case .removed:
        try sibling.remove("log")
        #expect(try fixture.append("fresh")?.positions == 1...1)
      case .quarantined:
        #expect(try sibling.quarantine("log") != nil)
        #expect(try fixture.append("fresh")?.positions == 1...1)
      case .compacted:
        #expect(try sibling.compactLog("log") { $0.position != 3 } == 1)
        #expect(try fixture.newest()?.position == 2)
        #expect(try fixture.append("four")?.positions == 4...4)
      case .replacedByAValue:
        try sibling.remove("log")
        try sibling.write(Data("a value".utf8), for: "log")
        #expect(throws: SharedStoreError.kindMismatch(key: "log", holds: .value)) {
          try fixture.append("not a log")
        }
      }
    }
    switch change {
    case .removed, .quarantined: #expect(try fixture.texts() == ["fresh"])
    case .compacted: #expect(try fixture.texts() == ["one", "two", "four"])
    case .replacedByAValue: #expect(try fixture.store.read("log") == Data("a value".utf8))
    }
  }

  @Test("inside a hold, a log with no file costs one fstatat; one with a file is then kept")
  func missingLogInAHold() throws {
    let fixture = try Fixture()
    // The first hold opens the lock file.
    try fixture.store.exclusively {}
    let (opens, statuses) = (fixture.fileSystem.count(.open), fixture.fileSystem.count(.status))
    try fixture.store.exclusively { () throws(SharedStoreError) in
      #expect(try fixture.newest() == nil)
    }
    // The lock file's check, and the name's.
    #expect(fixture.fileSystem.count(.status) == statuses + 2)
    #expect(fixture.fileSystem.count(.open) == opens)
    // Control: outside a hold, the read opens the file (which fails).
    #expect(try fixture.newest() == nil)
    #expect(fixture.fileSystem.count(.open) == opens + 1)

    // A file another store wrote, which this one keeps no descriptor for, is read, and kept
    // open as an append keeps it: the next hold's read costs the lock's check and one fstatat.
    let other = try FileStore(directory: fixture.directory.url, durability: .processCrashSafe)
    try other.append([Data("theirs".utf8)], toLog: "log", capacity: 100)
    try fixture.store.exclusively { () throws(SharedStoreError) in
      #expect(try fixture.newest()?.bytes == Data("theirs".utf8))
    }
    let (kept, checked) = (fixture.fileSystem.count(.open), fixture.fileSystem.count(.status))
    try fixture.store.exclusively { () throws(SharedStoreError) in
      #expect(try fixture.newest()?.bytes == Data("theirs".utf8))
    }
    #expect(fixture.fileSystem.count(.open) == kept)
    #expect(fixture.fileSystem.count(.status) == checked + 2)
    // What another store appends since is seen: the kept file's size changed.
    try other.append([Data("more".utf8)], toLog: "log", capacity: 100)
    try fixture.store.exclusively { () throws(SharedStoreError) in
      #expect(try fixture.newest()?.bytes == Data("more".utf8))
    }
    #expect(try fixture.append("mine")?.positions == 3...3)
    #expect(try fixture.texts() == ["theirs", "more", "mine"])
  }
}
