import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// A log medium that keeps the decoded end of its log between appends, as a `FileStore`'s kept
/// log file does, changes nothing else: every append and every read of the newest records gives
/// what a medium that decodes the end each time gives.
@Suite("A log's decoded end, kept between appends")
struct AppendLogDecodedEndTests {
  /// What a remembering medium keeps, and how often its bytes were read.
  final class Memory {
    var end: LogView?
    var reads = 0
  }

  /// A log in memory that keeps its decoded end and counts the reads of its bytes; a replaced
  /// log forgets it, as a `FileStore` lets go of a file a compaction replaced.
  struct RememberingMedium: LogMedium {
    var inner = MemoryLogMedium(nil)
    let memory = Memory()

    var exists: Bool { inner.exists }
    var maximumSize: Int { inner.maximumSize }
    func size() -> Int { inner.size() }

    func read(from offset: Int, count: Int) -> Data {
      memory.reads += 1
      return inner.read(from: offset, count: count)
    }

    func rememberedEnd() -> LogView? {
      memory.end?.size == size() ? memory.end : nil
    }

    func rememberEnd(_ end: LogView) {
      memory.end = end
    }

    var keptRecordLimit: Int { .max }

    mutating func append(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
      inner.append(bytes, at: offset)
    }

    mutating func replace(with bytes: Data) {
      memory.end = nil
      inner.replace(with: bytes)
    }
  }

  /// A seeded generator an engine draws its log's identity from.
  final class Draws {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
  }

  /// Identities drawn from a seeded generator, so that two engines draw the same ones.
  static func identities(seed: UInt64) -> () -> UInt64 {
    let draws = Draws(seed: seed)
    return { UInt64.random(in: 1...UInt64.max, using: &draws.generator) }
  }

  @Test(
    "appends and reads through a remembered end equal those that decode the end each time",
    arguments: 0..<40)
  func rememberedEndChangesNothing(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed))
    var plain = LogEngine(
      medium: MemoryLogMedium(nil), key: "log", path: "log",
      random: Self.identities(seed: UInt64(seed)))
    var remembering = LogEngine(
      medium: RememberingMedium(), key: "log", path: "log",
      random: Self.identities(seed: UInt64(seed)))
    var capacity = Int.random(in: 1...6, using: &random)
    for step in 0..<120 {
      if Int.random(in: 0..<30, using: &random) == 0 {
        capacity = Int.random(in: 1...6, using: &random)
      }
      let examining = Int.random(in: 0...3, using: &random)
      let records = (0..<Int.random(in: 0...3, using: &random)).map { index in
        Data("\(step).\(index)".utf8 + Array(repeating: 0, count: index))
      }
      var seenPlain: LogSnapshot?
      var seenRemembering: LogSnapshot?
      let appendedPlain = try plain.append(capacity: capacity, examining: examining) {
        seenPlain = $0
        return records
      }
      let appendedRemembering = try remembering.append(capacity: capacity, examining: examining) {
        seenRemembering = $0
        return records
      }
      #expect(seenRemembering == seenPlain, "step \(step)")
      #expect(appendedRemembering == appendedPlain, "step \(step)")
      let wanted = Int.random(in: 0...4, using: &random)
      #expect(
        try remembering.view(newest: wanted)?.snapshot(newest: wanted)
          == plain.view(newest: wanted)?.snapshot(newest: wanted), "step \(step)")
    }
    #expect(remembering.medium.inner.bytes == plain.medium.bytes)
  }

  @Test("an append that examines the newest record after an append reads nothing")
  func appendAfterAppendReadsNothing() throws {
    var engine = LogEngine(
      medium: RememberingMedium(), key: "log", path: "log", random: Self.identities(seed: 1))
    for index in 0..<5 {
      _ = try engine.append(capacity: 100, examining: 1) { _ in [Data("\(index)".utf8)] }
    }
    let reads = engine.medium.memory.reads
    var newest: [LogRecord] = []
    let appended = try engine.append(capacity: 100, examining: 1) {
      newest = $0.records
      return [Data("5".utf8)]
    }
    #expect(engine.medium.memory.reads == reads)
    #expect(newest.map(\.position) == [5])
    #expect(newest.map { String(decoding: $0.bytes, as: UTF8.self) } == ["4"])
    #expect(appended?.positions == 6...6)
    // Controls: two records are more than the remembered end holds, so they are read; and a
    // medium without a remembered end reads for one.
    #expect(try engine.view(newest: 2)?.snapshot(newest: 2)?.records.map(\.position) == [5, 6])
    #expect(engine.medium.memory.reads > reads)
    engine.medium.memory.end = nil
    let readsBefore = engine.medium.memory.reads
    _ = try engine.view(newest: 1)
    #expect(engine.medium.memory.reads > readsBefore)
  }

  @Test("a record appended as a slice of a buffer is kept as bytes of its own")
  func appendedSliceIsCopied() throws {
    let directory = try TemporaryDirectory(prefix: "stk-end")
    let store = try FileStore(directory: directory.url, durability: .processCrashSafe)
    try store.append([Data("first".utf8)], toLog: "log", capacity: 10)
    let buffer = Data((0..<64).map { UInt8($0) })
    let slice = buffer[16..<32]
    let newest = try store.exclusively { () throws(SharedStoreError) -> LogRecord? in
      try store.append([slice], toLog: "log", capacity: 10)
      return try store.readLog("log", newest: 1)?.records.last
    }
    let record = try #require(newest)
    #expect(record.bytes.startIndex == 0, "indexed from 0, as a record read from the file is")
    #expect(record.bytes == Data(slice))
    #expect(record.bytes[0] == 16)
  }

  @Test("a newest record larger than the window is not kept decoded, and is read from the file")
  func largeRecordIsNotKept() throws {
    let directory = try TemporaryDirectory(prefix: "stk-end")
    let store = try FileStore(directory: directory.url, durability: .processCrashSafe)
    let small = Data("small".utf8)
    let large = Data(repeating: 0x61, count: 3 * FileStore.LogWindow.capacity)
    for record in [small, small] { try store.append([record], toLog: "log", capacity: 10) }
    #expect(store.handles.openLog(forKey: "log")?.window.decodedEnd != nil)
    try store.append([large], toLog: "log", capacity: 10)
    #expect(store.handles.openLog(forKey: "log")?.window.decodedEnd == nil)
    let newest = try store.exclusively { () throws(SharedStoreError) -> LogRecord? in
      try store.readLog("log", newest: 1)?.records.last
    }
    #expect(newest?.bytes == large)
    #expect(newest?.position == 3)
  }

  @Test("a view kept to its newest record keeps the log's counts and only that record")
  func keepingNewestRecord() throws {
    var engine = LogEngine(bytes: nil, key: "log", path: "log")
    _ = try engine.append(capacity: 3, examining: 0) { _ in
      (1...5).map { Data("\($0)".utf8) }
    }
    _ = try engine.append(capacity: 3, examining: 0) { _ in [Data("6".utf8), Data("7".utf8)] }
    let view = try #require(try engine.view(newest: 2))
    let kept = view.keepingNewestRecord()
    #expect(kept.snapshot(newest: 1) == view.snapshot(newest: 1))
    #expect(kept.snapshot(newest: 2) == nil, "one record is kept, not two")
    #expect(kept.snapshot(newest: 0) == view.snapshot(newest: 0))
    #expect(kept.token == view.token)
    for wanted in -1...4 {
      #expect(kept.holdsNewest(wanted) == (kept.newest(wanted) != nil), "kept, \(wanted)")
      #expect(view.holdsNewest(wanted) == (view.newest(wanted) != nil), "view, \(wanted)")
    }
    #expect(kept.physicalCount == view.physicalCount)
  }
}
