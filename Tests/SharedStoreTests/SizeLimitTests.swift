import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// No file the store writes exceeds its maximum size, and a log at the limit is compacted
/// instead of growing past it.
@Suite("FileStore size limit")
struct SizeLimitTests {
  @Test("a value over the maximum is tooLarge before anything is written", arguments: [0, 1])
  func valueOverTheMaximum(viaUpdate: Int) throws {
    let directory = try TemporaryDirectory(prefix: "stk-limit", preferringMemory: true)
    let store = try FileStore(directory: directory.url, durability: .processCrashSafe)
    try store.write(Data("old".utf8), for: "k")
    let largest = FileStore.maximumFileSize - StoreFileFormat.headerSize
    let tooLarge = Data(count: largest + 1)
    #expect(
      throws: SharedStoreError.tooLarge(
        key: "k", path: directory.path + "/k", size: FileStore.maximumFileSize + 1,
        limit: FileStore.maximumFileSize)
    ) {
      if viaUpdate == 1 {
        try store.update("k") { (data: inout Data?) throws(SharedStoreError) in data = tooLarge }
      } else {
        try store.write(tooLarge, for: "k")
      }
    }
    #expect(try store.read("k") == Data("old".utf8))
    #expect(try directory.contents() == [".lock", "k"], "no temporary file was made")
  }

  /// A log medium in memory with a small maximum size, which refuses to grow past it as a file
  /// does.
  struct SmallMedium: LogMedium {
    var bytes: Data?
    let maximumSize: Int
    var exists: Bool { bytes != nil }

    func size() -> Int { bytes?.count ?? 0 }
    func read(from offset: Int, count: Int) -> Data {
      Data((bytes ?? Data()).dropFirst(offset).prefix(count))
    }
    mutating func append(_ new: UnsafeRawBufferPointer, at offset: Int) throws(SharedStoreError) {
      guard offset + new.count <= maximumSize else {
        throw .tooLarge(key: "log", path: "log", size: offset + new.count, limit: maximumSize)
      }
      bytes?.append(contentsOf: new)
    }
    mutating func replace(with new: Data) throws(SharedStoreError) {
      guard new.count <= maximumSize else {
        throw .tooLarge(key: "log", path: "log", size: new.count, limit: maximumSize)
      }
      bytes = new
    }
  }

  @Test("an append that would grow a log past the maximum compacts it instead")
  func appendAtTheLimitCompacts() throws {
    var engine = LogEngine(
      medium: SmallMedium(bytes: nil, maximumSize: 400), key: "log", path: "log",
      random: { 42 })
    let record = Data(repeating: 0x61, count: 40)
    var positions: [UInt64] = []
    for _ in 0..<40 {
      let appended = try #require(
        try engine.append(capacity: 5, examining: 0) { _ in [record] })
      positions.append(appended.positions.lowerBound)
      #expect(engine.medium.size() <= 400)
    }
    #expect(positions == Array(1...40), "every append landed")
    let log = try #require(try engine.view(newest: nil)?.snapshot(newest: .max))
    #expect(log.records.map(\.position) == Array(36...40))
    #expect(log.evictedCount == 35)
  }

  @Test("a log whose newest records alone exceed the maximum is tooLarge, and unchanged")
  func logThatCannotFit() throws {
    var engine = LogEngine(
      medium: SmallMedium(bytes: nil, maximumSize: 400), key: "log", path: "log",
      random: { 42 })
    let record = Data(repeating: 0x61, count: 100)
    for _ in 0..<3 { _ = try engine.append(capacity: 10, examining: 0) { _ in [record] } }
    let before = engine.medium.bytes
    #expect {
      try engine.append(capacity: 10, examining: 0) { _ in [record] }
    } throws: { error in
      guard case .tooLarge(let key, _, _, 400) = error as? SharedStoreError else { return false }
      return key == "log"
    }
    #expect(engine.medium.bytes == before)
  }
}
