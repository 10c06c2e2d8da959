import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// How `FileStore` keeps the log it appended to last open: the next append to it costs an
/// `fstatat` and the write, and anything that changed the file meanwhile — another store's append,
/// a compaction, a value written or the key removed — makes the store read it again.
@Suite("FileStore keeps the log it appended to last open")
struct AppendLogKeptFileTests {
  struct Fixture {
    let directory: TemporaryDirectory
    let fileSystem = FaultyFileSystem()
    let store: FileStore
    /// A second store on the same directory: another process, as far as the first can tell.
    let other: FileStore

    init() throws {
      directory = try TemporaryDirectory(prefix: "stk-kept")
      store = try FileStore(
        directory: directory.url, durability: .processCrashSafe, fileSystem: fileSystem)
      other = try FileStore(directory: directory.url, durability: .processCrashSafe)
    }

    func texts(_ key: String = "log") throws -> [String] {
      (try store.readLog(key)?.records ?? []).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @discardableResult
    func append(_ text: String, to store: FileStore? = nil, capacity: Int = 100) throws
      -> LogAppend?
    {
      try (store ?? self.store).append([Data(text.utf8)], toLog: "log", capacity: capacity)
    }
  }

  @Test("the next append to the same log opens nothing and reads nothing")
  func nextAppendReadsNothing() throws {
    let fixture = try Fixture()
    for index in 0..<50 { try fixture.append("\(index) " + String(repeating: "x", count: 200)) }
    let (opens, reads, closes) = (
      fixture.fileSystem.count(.open), fixture.fileSystem.count(.readAt),
      fixture.fileSystem.count(.close)
    )
    #expect(try fixture.append("next")?.positions == 51...51)
    #expect(fixture.fileSystem.count(.open) == opens)
    #expect(fixture.fileSystem.count(.readAt) == reads)
    #expect(fixture.fileSystem.count(.close) == closes)
    #expect(try fixture.texts().last == "next")
  }

  @Test("an append after another store's append reads the end again and numbers after it")
  func appendAfterAnotherStore() throws {
    let fixture = try Fixture()
    try fixture.append("one")
    try fixture.append("two", to: fixture.other)
    let reads = fixture.fileSystem.count(.readAt)
    #expect(try fixture.append("three")?.positions == 3...3)
    #expect(fixture.fileSystem.count(.readAt) > reads, "the file grew: read again")
    try fixture.append("four", to: fixture.other)
    #expect(try fixture.append("five")?.positions == 5...5)
    #expect(try fixture.texts() == ["one", "two", "three", "four", "five"])
  }

  @Test("an append after another store compacted the log writes to the new file")
  func appendAfterACompaction() throws {
    let fixture = try Fixture()
    for text in ["one", "two", "three"] { try fixture.append(text) }
    #expect(try fixture.other.compactLog("log") { $0.position != 2 } == 1)
    #expect(try fixture.append("four")?.positions == 4...4)
    #expect(try fixture.texts() == ["one", "three", "four"])
  }

  @Test("an append after the key was removed, or given a value, starts from what is there")
  func appendAfterRemoval() throws {
    let fixture = try Fixture()
    try fixture.append("one")
    try fixture.other.remove("log")
    #expect(try fixture.append("fresh")?.positions == 1...1)
    #expect(try fixture.texts() == ["fresh"])
    try fixture.other.remove("log")
    try fixture.other.write(Data("a value".utf8), for: "log")
    #expect(throws: SharedStoreError.kindMismatch(key: "log", holds: .value)) {
      try fixture.append("not a log")
    }
  }

  @Test("an append after the file was cut short behind the store reads the end again")
  func appendAfterTruncation() throws {
    let fixture = try Fixture()
    try fixture.append("one")
    try fixture.append("two")
    let path = fixture.directory.url.appendingPathComponent("log")
    let bytes = try Data(contentsOf: path)
    // Written in place, as something other than the store might: the same file, shorter.
    let handle = try FileHandle(forUpdating: path)
    try handle.truncate(atOffset: UInt64(bytes.count - 3))
    try handle.close()
    #expect(try fixture.append("three")?.positions == 2...2, "the torn record never counted")
    #expect(try fixture.texts() == ["one", "three"])
  }

  /// The newest record of the log, read by `store` inside a hold of its lock.
  static func newestHeld(_ store: FileStore) throws -> LogRecord? {
    try store.exclusively { () throws(SharedStoreError) in
      try store.readLog("log", newest: 1)?.records.last
    }
  }

  @Test("inside a hold, a read of the newest record of the log it appended to reads nothing")
  func keptReadOpensNothing() throws {
    let fixture = try Fixture()
    for index in 0..<50 { try fixture.append("\(index) " + String(repeating: "x", count: 200)) }
    try fixture.append("newest")
    let (opens, reads) = (fixture.fileSystem.count(.open), fixture.fileSystem.count(.readAt))
    let newest = try #require(try Self.newestHeld(fixture.store))
    #expect(String(decoding: newest.bytes, as: UTF8.self) == "newest")
    #expect(newest.position == 51)
    #expect(fixture.fileSystem.count(.open) == opens)
    #expect(fixture.fileSystem.count(.readAt) == reads)
    // Controls: outside a hold the same store reads the file, and so does one that did not
    // append.
    _ = try fixture.store.readLog("log", newest: 1)
    #expect(fixture.fileSystem.count(.open) == opens + 1)
    #expect(fixture.fileSystem.count(.readAt) > reads)
    let readsBefore = fixture.fileSystem.count(.readAt)
    let reader = try FileStore(
      directory: fixture.directory.url, durability: .processCrashSafe,
      fileSystem: fixture.fileSystem)
    _ = try Self.newestHeld(reader)
    #expect(fixture.fileSystem.count(.readAt) > readsBefore)
  }

  @Test("outside a hold, a read sees a byte changed in place that the kept end does not show")
  func readOutsideAHoldSeesDamageInPlace() throws {
    let fixture = try Fixture()
    for text in ["one", "two", "three"] { try fixture.append(text) }
    let path = fixture.directory.url.appendingPathComponent("log")
    var bytes = try Data(contentsOf: path)
    bytes[bytes.count - 3] ^= 0x01  // inside the last frame; the size stays
    let handle = try FileHandle(forUpdating: path)
    try handle.seek(toOffset: 0)
    try handle.write(contentsOf: bytes)
    try handle.close()
    #expect(throws: SharedStoreError.self) { try fixture.store.readLog("log", newest: 1) }
    // What the append that follows a held read trusts, and the read with it: the kept end.
    #expect(
      try Self.newestHeld(fixture.store).map { String(decoding: $0.bytes, as: UTF8.self) }
        == "three")
  }

  /// What another process may do to a log between a store's append and its next read.
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case appended, compacted, removed, replacedByAValue, truncated
    var testDescription: String { rawValue }
  }

  @Test(
    "inside a hold, a read of the newest record after another store changed the log sees it",
    arguments: Change.allCases)
  func keptReadSeesChanges(change: Change) throws {
    let fixture = try Fixture()
    for text in ["one", "two", "three"] { try fixture.append(text) }
    #expect(try Self.newestHeld(fixture.store)?.position == 3)
    let newest = { () throws -> String? in
      try Self.newestHeld(fixture.store).map { String(decoding: $0.bytes, as: UTF8.self) }
    }
    switch change {
    case .appended:
      try fixture.append("four", to: fixture.other)
      #expect(try newest() == "four")
    case .compacted:
      #expect(try fixture.other.compactLog("log") { $0.position != 3 } == 1)
      #expect(try newest() == "two")
    case .removed:
      try fixture.other.remove("log")
      #expect(try newest() == nil)
    case .replacedByAValue:
      try fixture.other.remove("log")
      try fixture.other.write(Data("a value".utf8), for: "log")
      #expect(throws: SharedStoreError.kindMismatch(key: "log", holds: .value)) {
        try Self.newestHeld(fixture.store)
      }
    case .truncated:
      let path = fixture.directory.url.appendingPathComponent("log")
      let bytes = try Data(contentsOf: path)
      let handle = try FileHandle(forUpdating: path)
      try handle.truncate(atOffset: UInt64(bytes.count - 3))
      try handle.close()
      #expect(try newest() == "two", "the torn record is not read")
    }
  }

  @Test("a compaction hands the new file to the disk in pieces, not whole")
  func compactionWritesInPieces() throws {
    let fixture = try Fixture()
    let record = String(repeating: "r", count: 100)
    for _ in 0..<2_000 { try fixture.append(record, capacity: 1_000) }
    let written = fixture.fileSystem.bytesWritten
    let writes = fixture.fileSystem.count(.writeAll)
    try fixture.append(record, capacity: 1_000)
    let file = try Data(contentsOf: fixture.directory.url.appendingPathComponent("log"))
    #expect(fixture.fileSystem.bytesWritten - written == file.count, "one new file")
    #expect(
      fixture.fileSystem.count(.writeAll) - writes >= file.count / (20 * 1024),
      "in pieces of about 16 KiB")
    #expect(try fixture.store.readLog("log")?.records.count == 1_000)
  }

  @Test("a large frame leaves no large end behind: the kept end holds room for a few KiB")
  func largeFrameLeavesNoLargeEnd() throws {
    let fixture = try Fixture()
    try fixture.append("first", capacity: 1_000)
    // One frame of 200 records of 1 KiB, 200 KiB in all; its newest record is small enough to
    // be kept decoded, so nothing reads the file again and the end is never read anew. Trimmed
    // with `removeFirst`, the end kept the 200 KiB of room the frame grew it to.
    let records = (0..<200).map { Data(repeating: UInt8(ascii: "a"), count: 1_024 + $0 % 7) }
    try fixture.store.append(records, toLog: "log", capacity: 1_000)
    try fixture.append("after", capacity: 1_000)
    let kept = try #require(fixture.store.handles.openLog(forKey: "log"))
    // Twice the capacity at most: an array grows by doubling, and the allocator rounds up.
    #expect(kept.window.endCapacity <= 2 * FileStore.LogWindow.capacity)
    #expect(try fixture.texts().last == "after")
  }
}
