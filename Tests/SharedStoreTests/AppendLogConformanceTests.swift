import Foundation
import SharedStore
import TestSupport
import Testing

/// The contract of append-only logs, checked against every backend.
@Suite("SharedStore conformance: append-only logs")
struct AppendLogConformanceTests {
  static func record(_ text: String) -> Data { Data(text.utf8) }

  static func texts(_ log: LogSnapshot?) -> [String] {
    (log?.records ?? []).map { String(decoding: $0.bytes, as: UTF8.self) }
  }

  @Test(
    "appended records read back in order, numbered from 1 under one identity",
    arguments: StoreBackend.allCases)
  func recordsReadBackInOrder(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    #expect(try store.readLog("log") == nil)
    let first = try #require(try store.append([Self.record("a")], toLog: "log", capacity: 10))
    let second = try #require(
      try store.append(["b", "c"].map(Self.record), toLog: "log", capacity: 10))
    #expect(first.positions == 1...1)
    #expect(second.positions == 2...3)
    #expect(second.identity == first.identity)
    let log = try #require(try store.readLog("log"))
    #expect(Self.texts(log) == ["a", "b", "c"])
    #expect(log.records.map(\.position) == [1, 2, 3])
    #expect(log.identity == first.identity)
    #expect(log.count == 3)
    #expect(log.capacity == 10)
    #expect(log.evictedCount == 0)
    #expect(log.nextPosition == 4)
    #expect(try store.keys() == ["log"])
  }

  @Test(
    "records of any bytes and lengths read back as they were appended",
    arguments: StoreBackend.allCases)
  func anyBytesRoundTrip(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    var random = SplitMix64(seed: 0x106_0002)
    let lengths = [0, 1, 2, 253, 254, 255, 256, 508, 509, 600, 5_000]
    var written: [Data] = []
    for length in lengths {
      for zeros in [0, 1, 3] {
        // Mostly zeros, mostly not, or random: the encoding's edge cases.
        let bytes = (0..<length).map { _ -> UInt8 in
          switch zeros {
          case 0: return UInt8.random(in: 1...255, using: &random)
          case 1: return 0
          default: return UInt8.random(in: 0...3, using: &random)
          }
        }
        written.append(Data(bytes))
      }
    }
    for record in written { try store.append([record], toLog: "log", capacity: 1_000) }
    try store.append(written, toLog: "batch", capacity: 1_000)
    #expect(try store.readLog("log")?.records.map(\.bytes) == written)
    #expect(try store.readLog("batch")?.records.map(\.bytes) == written)
    #expect(try store.readLog("log", newest: 1)?.records.map(\.bytes) == Array(written.suffix(1)))
    try store.compactLog("log") { $0.position % 2 == 0 }
    #expect(
      try store.readLog("log")?.records.map(\.bytes)
        == written.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
  }

  @Test(
    "a log keeps the newest capacity records and counts every eviction",
    arguments: StoreBackend.allCases)
  func keepsNewestRecords(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    var evicted: [Int] = []
    for index in 1...25 {
      let appended = try store.append([Self.record("\(index)")], toLog: "log", capacity: 5)
      evicted.append(try #require(appended).evictedCount)
    }
    #expect(evicted == Array(repeating: 0, count: 5) + Array(repeating: 1, count: 20))
    let log = try #require(try store.readLog("log"))
    #expect(Self.texts(log) == (21...25).map(String.init))
    #expect(log.records.map(\.position) == Array(21...25))
    #expect(log.count == 5)
    #expect(log.evictedCount == 20)
  }

  @Test(
    "a batch larger than the capacity keeps its newest records", arguments: StoreBackend.allCases)
  func largeBatchKeepsNewest(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.append([Self.record("0")], toLog: "log", capacity: 3)
    let appended = try #require(
      try store.append((1...5).map { Self.record("\($0)") }, toLog: "log", capacity: 3))
    #expect(appended.positions == 2...6)
    #expect(appended.evictedCount == 3)
    let log = try #require(try store.readLog("log"))
    #expect(Self.texts(log) == ["3", "4", "5"])
    #expect(log.evictedCount == 3)
  }

  @Test(
    "reading the newest records returns those only, with the whole log's counts",
    arguments: StoreBackend.allCases)
  func readingTheNewest(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    for index in 1...12 { try store.append([Self.record("\(index)")], toLog: "log", capacity: 8) }
    let newest = try #require(try store.readLog("log", newest: 2))
    #expect(Self.texts(newest) == ["11", "12"])
    #expect(newest.count == 8)
    #expect(newest.evictedCount == 4)
    #expect(newest.nextPosition == 13)
    #expect(try store.readLog("log", newest: 0)?.records == [])
    #expect(Self.texts(try store.readLog("log", newest: 100)) == (5...12).map(String.init))
  }

  @Test(
    "the closure sees the newest records and may append nothing, which writes nothing",
    arguments: StoreBackend.allCases)
  func closureCanRefuse(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    func appendUnlessLatest(_ text: String) throws -> LogAppend? {
      try store.appendToLog("log", capacity: 4, examiningNewest: 1) { log in
        log.records.last?.bytes == Self.record(text) ? [] : [Self.record(text)]
      }
    }
    #expect(try appendUnlessLatest("a") != nil)
    let token = try store.changeToken(for: "log")
    #expect(try appendUnlessLatest("a") == nil, "a retried append is stored once")
    #expect(try store.changeToken(for: "log") == token)
    #expect(try appendUnlessLatest("b") != nil)
    #expect(Self.texts(try store.readLog("log")) == ["a", "b"])
    var seen: [String] = []
    try store.appendToLog("log", capacity: 4, examiningNewest: .max) { log in
      seen = Self.texts(log)
      return []
    }
    #expect(seen == ["a", "b"])
  }

  @Test(
    "a new log's closure sees an empty log, and nothing is created when it appends nothing",
    arguments: StoreBackend.allCases)
  func newLogIsEmpty(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    var identity: UInt64?
    var seen: LogSnapshot?
    let nothing = try store.appendToLog("log", capacity: 2, examiningNewest: 1) { log in
      seen = log
      return []
    }
    #expect(nothing == nil)
    #expect(seen?.count == 0 && seen?.records == [] && seen?.nextPosition == 1)
    #expect(try store.keys().isEmpty)
    let appended = try store.appendToLog("log", capacity: 2, examiningNewest: 1) { log in
      identity = log.identity
      return [Self.record("x")]
    }
    #expect(appended?.identity == identity)
    #expect(try store.readLog("log")?.identity == identity)
  }

  @Test(
    "every append changes the change token and reading does not",
    arguments: StoreBackend.allCases)
  func tokensChangeOnAppends(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    #expect(try store.changeToken(for: "log") == nil)
    var tokens: [ChangeToken] = []
    for index in 0..<30 {
      try store.append([Self.record("\(index % 2)")], toLog: "log", capacity: 4)
      tokens.append(try #require(try store.changeToken(for: "log")))
      _ = try store.readLog("log")
      _ = try store.readLog("log", newest: 1)
      #expect(try store.changeToken(for: "log") == tokens.last, "reading changes nothing")
    }
    #expect(Set(tokens).count == tokens.count, "compactions included, no token repeats")
  }

  @Test("an append whose closure throws appends nothing", arguments: StoreBackend.allCases)
  func throwingClosureAppendsNothing(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.append([Self.record("a")], toLog: "log", capacity: 4)
    let token = try store.changeToken(for: "log")
    #expect(throws: SharedStoreError.encoding(key: "log", type: "T", description: "refused")) {
      try store.appendToLog("log", capacity: 4, examiningNewest: 0) {
        _ throws(SharedStoreError) -> [Data] in
        throw .encoding(key: "log", type: "T", description: "refused")
      }
    }
    #expect(try store.changeToken(for: "log") == token)
    #expect(Self.texts(try store.readLog("log")) == ["a"])
  }

  @Test(
    "compaction removes records on purpose: not evicted, and their positions are never reused",
    arguments: StoreBackend.allCases)
  func compactionRemovesOnPurpose(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.append((1...6).map { Self.record("\($0)") }, toLog: "log", capacity: 10)
    let removed = try store.compactLog("log") { record in record.position % 2 == 1 }
    #expect(removed == 3)
    let token = try store.changeToken(for: "log")
    #expect(try store.compactLog("log") { _ in true } == 0, "keeping everything writes nothing")
    #expect(try store.changeToken(for: "log") == token)
    try store.append([Self.record("7")], toLog: "log", capacity: 10)
    let log = try #require(try store.readLog("log"))
    #expect(log.records.map(\.position) == [1, 3, 5, 7])
    #expect(log.evictedCount == 0)
    #expect(try store.compactLog("log") { $0.position < 7 } == 1)
    #expect(try store.append([Self.record("8")], toLog: "log", capacity: 10)?.positions == 8...8)
    #expect(try store.compactLog("absent") { _ in false } == 0)
  }

  @Test(
    "a changed capacity keeps the newest records and never brings evicted ones back",
    arguments: StoreBackend.allCases)
  func capacityChanges(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    for index in 1...9 { try store.append([Self.record("\(index)")], toLog: "log", capacity: 6) }
    let shrunk = try #require(try store.append([Self.record("10")], toLog: "log", capacity: 2))
    #expect(shrunk.evictedCount == 5, "six kept, one added, two kept")
    #expect(Self.texts(try store.readLog("log")) == ["9", "10"])
    try store.append([Self.record("11")], toLog: "log", capacity: 20)
    let log = try #require(try store.readLog("log"))
    #expect(Self.texts(log) == ["9", "10", "11"])
    #expect(log.capacity == 20)
    #expect(log.evictedCount == 8)
  }

  @Test(
    "a removed log starts again at position 1 under a new identity, never with an old token",
    arguments: StoreBackend.allCases)
  func removedLogStartsAfresh(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    var identities: Set<UInt64> = []
    var tokens: Set<ChangeToken> = []
    for _ in 0..<5 {
      let appended = try #require(try store.append([Self.record("a")], toLog: "log", capacity: 2))
      #expect(appended.positions == 1...1)
      identities.insert(appended.identity)
      #expect(tokens.insert(try #require(try store.changeToken(for: "log"))).inserted)
      try store.remove("log")
      #expect(try store.readLog("log") == nil)
    }
    #expect(identities.count == 5)
  }

  @Test("a log can be quarantined, and its key starts afresh", arguments: StoreBackend.allCases)
  func quarantineALog(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.append([Self.record("evidence")], toLog: "log", capacity: 2)
    #expect(try store.quarantine("log") != nil)
    #expect(try store.readLog("log") == nil)
    #expect(try store.append([Self.record("new")], toLog: "log", capacity: 2)?.positions == 1...1)
  }

  @Test(
    "a key holding a log is not a value, and a key holding a value is not a log",
    arguments: StoreBackend.allCases.filter(\.separatesLogsFromValues))
  func kindsDoNotMix(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.append([Self.record("a")], toLog: "log", capacity: 2)
    try store.write(Self.record("v"), for: "value")
    let isLog = SharedStoreError.kindMismatch(key: "log", holds: .log)
    #expect(throws: isLog) { try store.read("log") }
    #expect(throws: isLog) { try store.write(Data(), for: "log") }
    #expect(throws: isLog) { try store.update("log") { _ in Issue.record("body ran") } }
    let isValue = SharedStoreError.kindMismatch(key: "value", holds: .value)
    #expect(throws: isValue) { try store.readLog("value") }
    #expect(throws: isValue) { try store.append([Data()], toLog: "value", capacity: 2) }
    #expect(throws: isValue) { try store.compactLog("value") { _ in false } }
    #expect(Self.texts(try store.readLog("log")) == ["a"], "nothing changed")
    #expect(try store.read("value") == Self.record("v"))
    #expect(try store.keys() == ["log", "value"])
    #expect(try store.changeToken(for: "log") != nil)
    try store.remove("log")
    try store.write(Self.record("now a value"), for: "log")
    #expect(try store.read("log") == Self.record("now a value"))
    #expect(isLog.description.contains("append-only log"))
  }

  @Test(
    "a capacity below one and an invalid key are refused and write nothing",
    arguments: StoreBackend.allCases)
  func invalidArgumentsAreRefused(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    #expect(throws: SharedStoreError.invalidCapacity(key: "log", capacity: 0)) {
      try store.append([Self.record("a")], toLog: "log", capacity: 0)
    }
    #expect(throws: SharedStoreError.self) {
      try store.append([Self.record("a")], toLog: "../log", capacity: 1)
    }
    #expect(throws: SharedStoreError.self) { try store.readLog("../log") }
    #expect(throws: SharedStoreError.self) { try store.compactLog("") { _ in true } }
    #expect(try store.keys().isEmpty)
  }

  @Test(
    "many threads appending at once lose no record and share no position",
    arguments: StoreBackend.allCases)
  func concurrentAppends(backend: StoreBackend) async throws {
    let store = try backend.makeStore()
    let tasks = 8
    let perTask = 40
    let positions = try await withThrowingTaskGroup(of: [UInt64].self) { group in
      for task in 0..<tasks {
        group.addTask {
          var positions: [UInt64] = []
          for index in 0..<perTask {
            let appended = try store.append(
              [Self.record("\(task):\(index)")], toLog: "log", capacity: 1_000)
            positions.append(try #require(appended).positions.lowerBound)
          }
          return positions
        }
      }
      return try await group.reduce(into: [UInt64]()) { $0 += $1 }
    }
    #expect(positions.sorted() == Array(1...UInt64(tasks * perTask)))
    let log = try #require(try store.readLog("log"))
    #expect(log.count == tasks * perTask)
    #expect(Set(Self.texts(log)).count == tasks * perTask)
    for task in 0..<tasks {
      let own = Self.texts(log).filter { $0.hasPrefix("\(task):") }
      #expect(own == (0..<perTask).map { "\(task):\($0)" }, "each thread's records in its order")
    }
  }

  @Test(
    "a log matches a reference model over random appends, compactions and capacities",
    arguments: StoreBackend.allCases)
  func matchesReference(backend: StoreBackend) throws {
    var random = SplitMix64(seed: 0x106_0001)
    for round in 0..<6 {
      let store = try backend.makeStore()
      var capacity = Int.random(in: 1...6, using: &random)
      var model: [LogRecord] = []
      var evicted: UInt64 = 0
      var next: UInt64 = 1
      for step in 0..<120 {
        let choice = Int.random(in: 0..<20, using: &random)
        if choice == 0 {
          let modulus = UInt64.random(in: 2...3, using: &random)
          let removed = try store.compactLog("log") { $0.position % modulus != 0 }
          let before = model.count
          model.removeAll { $0.position % modulus == 0 }
          #expect(removed == before - model.count)
          continue
        }
        if choice == 1 { capacity = Int.random(in: 1...6, using: &random) }
        let count = Int.random(in: 0...3, using: &random)
        let records = (0..<count).map { Self.record("\(round).\(step).\($0)") }
        let appended = try store.append(records, toLog: "log", capacity: capacity)
        guard count > 0 else {
          #expect(appended == nil)
          continue
        }
        let positions = next...(next + UInt64(count) - 1)
        #expect(appended?.positions == positions)
        model += zip(positions, records).map { LogRecord(position: $0.0, bytes: $0.1) }
        next += UInt64(count)
        let excess = max(0, model.count - capacity)
        #expect(appended?.evictedCount == excess)
        model.removeFirst(excess)
        evicted += UInt64(excess)
        let log = try #require(try store.readLog("log"))
        #expect(log.records == model, "round \(round), step \(step)")
        #expect(log.evictedCount == evicted)
        #expect(log.nextPosition == next)
        #expect(try store.readLog("log", newest: 1)?.records == Array(model.suffix(1)))
      }
    }
  }
}
