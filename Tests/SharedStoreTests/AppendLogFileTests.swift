import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// How `FileStore` keeps an append-only log: one frame written per append, torn tails ignored
/// and then replaced, damage reported, flushes counted.
@Suite("FileStore append-only logs")
struct AppendLogFileTests {
  struct Fixture {
    let directory: TemporaryDirectory
    let fileSystem = FaultyFileSystem()
    let store: FileStore
    /// A store that only reads, on the same directory and file system: it has no log file kept
    /// open from an append, so its reads go to the file (the writer's own reads of a log it
    /// appended to last come from memory: AppendLogKeptFileTests).
    let reader: FileStore
    var path: String { directory.url.appendingPathComponent("log").path }

    init(durability: FileStore.Durability = .durable) throws {
      directory = try TemporaryDirectory(prefix: "stk-log")
      store = try FileStore(
        directory: directory.url, durability: durability, fileSystem: fileSystem)
      reader = try FileStore(
        directory: directory.url, durability: durability, fileSystem: fileSystem)
    }

    func fileBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
    func replaceFile(with bytes: Data) throws { try bytes.write(to: URL(fileURLWithPath: path)) }

    func texts() throws -> [String] {
      (try store.readLog("log")?.records ?? []).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @discardableResult
    func append(_ text: String, capacity: Int = 100) throws -> LogAppend? {
      try store.append([Data(text.utf8)], toLog: "log", capacity: capacity)
    }
  }

  static func isCorrupted(_ error: any Error) -> Bool {
    guard case .corrupted(let key, _, _) = error as? SharedStoreError else { return false }
    return key == "log"
  }

  // MARK: - What an append writes

  @Test("an append writes its frame only, at the end of the file: no rename, one flush")
  func appendWritesOneFrame() throws {
    let fixture = try Fixture(durability: .durable)
    try fixture.append("first")
    let sizeBefore = try fixture.fileBytes().count
    let written = fixture.fileSystem.bytesWritten
    let renames = fixture.fileSystem.count(.rename)
    let flushes = fixture.fileSystem.count(.synchronize)
    let record = String(repeating: "r", count: 100)
    try fixture.append(record)
    let frame = fixture.fileSystem.bytesWritten - written
    #expect(frame <= 100 + 12, "one frame: the record and a few bytes of framing")
    #expect(try fixture.fileBytes().count == sizeBefore + frame)
    #expect(fixture.fileSystem.count(.rename) == renames)
    #expect(fixture.fileSystem.count(.synchronize) == flushes + 1, "the file, not the directory")
    #expect(try fixture.texts() == ["first", record])
  }

  @Test("creating a log renames a complete file into place and flushes the file and directory")
  func creationIsARename() throws {
    let fixture = try Fixture(durability: .durable)
    try fixture.append("first")
    #expect(fixture.fileSystem.count(.rename) == 1)
    #expect(fixture.fileSystem.count(.synchronize) == 2)
    #expect(fixture.fileSystem.count(.writeAt) == 0)
    #expect(try fixture.directory.contents().filter { $0.hasPrefix(".tmp.") }.isEmpty)
  }

  @Test("a processCrashSafe log flushes nothing")
  func processCrashSafeFlushesNothing() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    for index in 0..<30 { try fixture.append("\(index)", capacity: 4) }
    #expect(fixture.fileSystem.count(.synchronize) == 0)
  }

  @Test("the file holds at most twice the capacity: an append beyond compacts it by a rename")
  func compactionIsAmortised() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    for index in 1...10 { try fixture.append("\(index)", capacity: 5) }
    #expect(fixture.fileSystem.count(.rename) == 1, "the creation only")
    let full = try fixture.fileBytes().count
    try fixture.append("11", capacity: 5)
    #expect(fixture.fileSystem.count(.rename) == 2, "the eleventh record compacts")
    #expect(try fixture.fileBytes().count < full)
    #expect(try fixture.texts() == (7...11).map(String.init))
    let log = try #require(try fixture.store.readLog("log"))
    #expect(log.evictedCount == 6)
    #expect(log.records.map(\.position) == Array(7...11))
  }

  @Test("reading the newest record reads the header and the end of the file only")
  func newestReadsTheEnd() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    let large = String(repeating: "x", count: 2_000)
    for index in 0..<100 { try fixture.append("\(index)" + large, capacity: 1_000) }
    let before = fixture.fileSystem.count(.readAt)
    let newest = try #require(try fixture.reader.readLog("log", newest: 1))
    #expect(newest.records.map(\.position) == [100])
    #expect(fixture.fileSystem.count(.readAt) - before == 2, "the header, then the last 4 KiB")
  }

  @Test(
    "reading the newest few records reads back from the end only as far as their frames reach",
    arguments: [2, 3, 7, 40])
  func newestFewReadBackwards(wanted: Int) throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    let record = String(repeating: "x", count: 500)
    for index in 0..<400 { try fixture.append("\(index)" + record, capacity: 1_000) }
    let size = try fixture.fileBytes().count
    let before = fixture.fileSystem.bytesRead
    let newest = try #require(try fixture.reader.readLog("log", newest: wanted))
    let read = fixture.fileSystem.bytesRead - before
    #expect(newest.records.map(\.position) == Array(UInt64(401 - wanted)...400))
    let whole = try #require(try fixture.store.readLog("log"))
    #expect(newest.records == Array(whole.records.suffix(wanted)))
    // Doubling from 4 KiB: the reads add up to at most four times the frames' bytes, plus the
    // header and the first 4 KiB.
    #expect(read <= 4 * wanted * 520 + 4_096 + 64, "read \(read) of \(size) bytes")
    #expect(read < size / 3, "control: a whole read is \(size) bytes")
  }

  @Test("the newest records of frames holding several records each are the log's last ones")
  func newestAcrossMultiRecordFrames() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    var all: [String] = []
    for batch in 0..<60 {
      let texts = (0..<(batch % 4 + 1)).map { "\(batch).\($0)" }
      all += texts
      try fixture.store.append(texts.map { Data($0.utf8) }, toLog: "log", capacity: 1_000)
    }
    for wanted in [0, 1, 2, 5, 11, all.count, all.count + 3] {
      // The writer reads from the file it keeps open, the reader from the file.
      for store in [fixture.store, fixture.reader] {
        let newest = try #require(try store.readLog("log", newest: wanted))
        #expect(
          newest.records.map { String(decoding: $0.bytes, as: UTF8.self) }
            == Array(all.suffix(wanted)), "newest \(wanted)")
        #expect(newest.count == all.count && newest.nextPosition == UInt64(all.count) + 1)
      }
    }
  }

  @Test("the change token of a log reads its header and its size, and grows with each append")
  func changeTokenOfALog() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    try fixture.append("a")
    let first = try #require(try fixture.store.changeToken(for: "log"))
    try fixture.append("bc")
    let reads = fixture.fileSystem.count(.readAt)
    let prefixes = fixture.fileSystem.count(.readPrefix)
    let second = try #require(try fixture.store.changeToken(for: "log"))
    #expect(second.generation > first.generation)
    #expect(fixture.fileSystem.count(.readAt) == reads)
    #expect(fixture.fileSystem.count(.readPrefix) == prefixes + 1, "the header only")
  }

  // MARK: - Torn tails

  @Test("a frame cut short at any byte is ignored by readers, and reading changes nothing")
  func tornFrameIsIgnored() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    try fixture.append("one")
    try fixture.append("two")
    let complete = try fixture.fileBytes()
    try fixture.append(String(repeating: "three", count: 20))
    let withThird = try fixture.fileBytes()
    for length in complete.count..<withThird.count - 1 {
      let torn = withThird.prefix(length)
      try fixture.replaceFile(with: torn)
      #expect(try fixture.texts() == ["one", "two"], "cut after \(length) bytes")
      #expect(try fixture.store.readLog("log", newest: 1)?.records.map(\.position) == [2])
      #expect(try fixture.store.readLog("log")?.nextPosition == 3)
      #expect(try fixture.fileBytes() == torn, "a read never changes the file")
    }
  }

  @Test("the next append replaces a torn tail, keeps every record and moves the token on")
  func appendRepairsATornTail() throws {
    let fixture = try Fixture(durability: .durable)
    try fixture.append("one")
    try fixture.append("two")
    let bytes = try fixture.fileBytes()
    try fixture.append("three")
    try fixture.replaceFile(with: try fixture.fileBytes().prefix(bytes.count + 3))
    let tornToken = try #require(try fixture.store.changeToken(for: "log"))
    let renames = fixture.fileSystem.count(.rename)
    #expect(try fixture.append("four")?.positions == 3...3, "the torn record never counted")
    #expect(fixture.fileSystem.count(.rename) == renames + 1, "rewritten, not appended to")
    #expect(try fixture.texts() == ["one", "two", "four"])
    let repaired = try #require(try fixture.store.changeToken(for: "log"))
    #expect(repaired.generation > tornToken.generation)
    try fixture.append("five")
    #expect(try fixture.texts() == ["one", "two", "four", "five"])
  }

  @Test("a last frame missing only its final 0x00 is a record; the next append completes it")
  func unterminatedFrameIsARecord() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    try fixture.append("one")
    try fixture.append("two")
    let bytes = try fixture.fileBytes()
    try fixture.replaceFile(with: bytes.dropLast())
    #expect(try fixture.texts() == ["one", "two"])
    let renames = fixture.fileSystem.count(.rename)
    try fixture.append("three")
    #expect(fixture.fileSystem.count(.rename) == renames, "appended after a 0x00")
    #expect(try fixture.fileBytes().prefix(bytes.count) == bytes)
    #expect(try fixture.texts() == ["one", "two", "three"])
  }

  @Test("a write that fails part way leaves no record and the next append works")
  func failedWriteLeavesNoRecord() throws {
    let fixture = try Fixture(durability: .durable)
    try fixture.append("one")
    fixture.fileSystem.writePartially(5)
    fixture.fileSystem.fail(.writeAt, errno: ENOSPC)
    #expect {
      try fixture.append(String(repeating: "two", count: 10))
    } throws: { error in
      guard case .io(_, _, let code) = error as? SharedStoreError else { return false }
      return code == .noSpace
    }
    #expect(try fixture.texts() == ["one"])
    try fixture.append("three")
    #expect(try fixture.texts() == ["one", "three"])
    #expect(try fixture.store.readLog("log")?.records.map(\.position) == [1, 2])
  }

  @Test("a failed flush after an append is notDurable, with the record in place")
  func failedFlushIsNotDurable() throws {
    let fixture = try Fixture(durability: .durable)
    try fixture.append("one")
    fixture.fileSystem.fail(.synchronize, errno: EIO)
    #expect(throws: SharedStoreError.notDurable(key: "log", path: fixture.path, errno: .ioError)) {
      try fixture.append("two")
    }
    #expect(try fixture.texts() == ["one", "two"])
  }

  // MARK: - Damage

  @Test("a damaged frame is reported by every read that reaches it, and never rewritten")
  func damagedFrameIsReported() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    for text in ["one", "two", "three"] { try fixture.append(text) }
    var bytes = try fixture.fileBytes()
    let firstFrame = LogFileFormat.headerSize
    bytes[firstFrame + 3] ^= 0x01
    try fixture.replaceFile(with: bytes)
    #expect(performing: { try fixture.store.readLog("log") }, throws: Self.isCorrupted)
    #expect(
      performing: { try fixture.store.compactLog("log") { _ in false } },
      throws: Self.isCorrupted)
    #expect(try fixture.store.readLog("log", newest: 1)?.records.count == 1, "the end is intact")
    try fixture.append("four")
    #expect(try fixture.fileBytes().prefix(bytes.count) == bytes, "the damage is kept")
    #expect(performing: { try fixture.store.readLog("log") }, throws: Self.isCorrupted)
    #expect(
      "an append that compacts reads every frame",
      performing: { try fixture.append("more", capacity: 3) }, throws: Self.isCorrupted)
    #expect(try fixture.fileBytes().prefix(bytes.count) == bytes, "compaction refuses it")
  }

  @Test("every single-bit flip is reported")
  func everyBitFlip() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    for text in ["alpha", "", "gamma"] { try fixture.append(text) }
    let valid = try fixture.fileBytes()
    let records = try #require(try fixture.store.readLog("log")).records
    var reported = 0
    for byte in 0..<valid.count {
      for bit in 0..<8 {
        var damaged = valid
        damaged[byte] ^= 1 << bit
        try fixture.replaceFile(with: damaged)
        do {
          let log = try #require(try fixture.store.readLog("log"))
          #expect(log.records == records, "bit \(bit) of byte \(byte) changed what is read")
        } catch {
          reported += 1
        }
        #expect(try fixture.fileBytes() == damaged)
      }
    }
    #expect(reported == valid.count * 8)
  }

  @Test("every truncation reads as the records before it, or is reported")
  func everyTruncation() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    for text in ["alpha", "beta", "gamma"] { try fixture.append(text) }
    let valid = try fixture.fileBytes()
    let all = try #require(try fixture.store.readLog("log")).records
    for length in 0..<valid.count {
      try fixture.replaceFile(with: valid.prefix(length))
      if length < LogFileFormat.headerSize {
        #expect(performing: { try fixture.store.readLog("log") }, throws: Self.isCorrupted)
      } else {
        let records = try #require(try fixture.store.readLog("log")).records
        #expect(records == Array(all.prefix(records.count)), "cut after \(length) bytes")
      }
    }
  }

  @Test("a newer log format is reported as such, and a value is not a log")
  func otherFormatsAreReported() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    try fixture.append("a")
    var newer = try fixture.fileBytes()
    newer.replaceSubrange(4..<8, with: [2, 0, 0xFD, 0xFF])
    try fixture.replaceFile(with: newer)
    #expect(
      throws: SharedStoreError.unsupportedFormatVersion(
        key: "log", path: fixture.path, found: 2, supported: 1)
    ) { try fixture.store.readLog("log") }
    #expect(throws: SharedStoreError.self) { try fixture.append("b") }
    #expect(try fixture.fileBytes() == newer)
    try fixture.replaceFile(with: StoreFileFormat.encode(payload: Data("v".utf8), generation: 1))
    #expect(throws: SharedStoreError.kindMismatch(key: "log", holds: .value)) {
      try fixture.store.readLog("log")
    }
  }

  // MARK: - Layout

  @Test("the file has the documented layout")
  func documentedLayout() throws {
    let fixture = try Fixture(durability: .processCrashSafe)
    let appended = try #require(
      try fixture.store.append([Data([0x41, 0x00, 0x42])], toLog: "log", capacity: 7))
    let bytes = [UInt8](try fixture.fileBytes())
    #expect(Array(bytes[0..<8]) == [0x53, 0x54, 0x4B, 0x4C, 1, 0, 0xFE, 0xFF])
    func word(_ offset: Int) -> UInt64 {
      bytes[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
    #expect(word(16) == appended.identity)
    #expect(word(24) == 7, "capacity")
    #expect(word(32) == 0, "evicted")
    #expect(word(40) == 2, "next position")
    // ordinal 0, position 1, one record of 3 bytes: 41 00 42, then its CRC-32C; COBS-encoded.
    let body: [UInt8] = [0, 1, 1, 3, 0x41, 0, 0x42]
    let crc = CRC32C.checksum(ofBytes: body)
    let raw = body + withUnsafeBytes(of: crc.littleEndian) { Array($0) }
    #expect(Array(bytes[56...]) == FrameEncodingTests.referenceCOBS(raw) + [0])
    let token = try #require(try fixture.store.changeToken(for: "log"))
    #expect(token.generation == word(8) + UInt64(bytes.count - 56))
  }
}
