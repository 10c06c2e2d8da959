import Foundation
import SharedStore

extension SharedStoreConformance.Check {
  /// Append-only logs: order, positions, eviction, compaction, tokens, kinds and concurrency.
  static let appendLogChecks: [Self] =
    appendLogBasics + appendLogClosures + appendLogChanges + appendLogKinds + appendLogConcurrency
}

/// A record of text, and a log's records as text.
func record(_ text: String) -> Data { Data(text.utf8) }

func texts(_ log: LogSnapshot?) -> [String] {
  (log?.records ?? []).map { String(decoding: $0.bytes, as: UTF8.self) }
}

/// Reads the whole log under `key`, failing when there is none.
func requireLog(
  _ store: any SharedStore, _ key: String, _ context: CheckContext, _ step: String
) throws -> LogSnapshot {
  guard let log = try store.readLog(key) else {
    throw context.failure(key: key, step: step, expected: "a log", actual: "nil")
  }
  return log
}

extension SharedStoreConformance.Check {
  static let appendLogBasics: [Self] = [
    Self(
      "log-records-read-back-in-order",
      "Appended records read back in order, numbered from 1 under one identity, with the log's "
        + "counts."
    ) { context in
      let store = try context.freshStore()
      try context.expect(try store.readLog("log"), nil, key: "log", "readLog of a missing log")
      let first = try store.append([record("a")], toLog: "log", capacity: 10)
      let second = try store.append(["b", "c"].map(record), toLog: "log", capacity: 10)
      try context.expect(first?.positions, 1...1, key: "log", "the first append's positions")
      try context.expect(second?.positions, 2...3, key: "log", "the second append's positions")
      try context.expect(second?.identity, first?.identity, key: "log", "the second's identity")
      let log = try requireLog(store, "log", context, "readLog after 2 appends")
      try context.expect(texts(log), ["a", "b", "c"], key: "log", "the records")
      try context.expect(log.records.map(\.position), [1, 2, 3], key: "log", "their positions")
      try context.expect(log.identity, first?.identity, key: "log", "the log's identity")
      try context.expect(log.count, 3, key: "log", "count")
      try context.expect(log.capacity, 10, key: "log", "capacity")
      try context.expect(log.evictedCount, 0, key: "log", "evictedCount")
      try context.expect(log.nextPosition, 4, key: "log", "nextPosition")
      try context.expect(try store.keys(), ["log"], key: "log", "keys()")
    },
    Self(
      "log-records-of-any-bytes-round-trip",
      "Records of any bytes and lengths, the empty one included, read back as appended."
    ) { context in
      let store = try context.freshStore()
      var random = SeededGenerator(seed: 0x106_0002)
      var written: [Data] = []
      for length in [0, 1, 2, 253, 254, 255, 256, 508, 509, 600, 5_000] {
        written.append(Data((0..<length).map { _ in UInt8.random(in: 1...255, using: &random) }))
        written.append(Data(repeating: 0, count: length))
        written.append(Data((0..<length).map { _ in UInt8.random(in: 0...3, using: &random) }))
      }
      for bytes in written { try store.append([bytes], toLog: "log", capacity: 1_000) }
      try store.append(written, toLog: "batch", capacity: 1_000)
      try context.expect(
        try store.readLog("log")?.records.map(\.bytes), written, key: "log", "one by one")
      try context.expect(
        try store.readLog("batch")?.records.map(\.bytes), written, key: "batch", "in one batch")
      try context.expect(
        try store.readLog("log", newest: 1)?.records.map(\.bytes), Array(written.suffix(1)),
        key: "log", "the newest record")
    },
    Self(
      "log-keeps-the-newest-capacity-records",
      "A log keeps its newest capacity records, a batch larger than the capacity included, and "
        + "counts every record evicted."
    ) { context in
      let store = try context.freshStore()
      var evicted: [Int] = []
      for index in 1...25 {
        let appended = try store.append([record("\(index)")], toLog: "log", capacity: 5)
        evicted.append(appended?.evictedCount ?? -1)
      }
      try context.expect(
        evicted, Array(repeating: 0, count: 5) + Array(repeating: 1, count: 20), key: "log",
        "evictedCount of 25 appends at capacity 5")
      let log = try requireLog(store, "log", context, "readLog")
      try context.expect(texts(log), (21...25).map(String.init), key: "log", "the records kept")
      try context.expect(log.records.map(\.position), Array(21...25), key: "log", "positions")
      try context.expect(log.evictedCount, 20, key: "log", "the log's evictedCount")
      try store.append([record("0")], toLog: "batch", capacity: 3)
      let batch = try store.append((1...5).map { record("\($0)") }, toLog: "batch", capacity: 3)
      try context.expect(batch?.positions, 2...6, key: "batch", "a batch of 5's positions")
      try context.expect(batch?.evictedCount, 3, key: "batch", "a batch of 5's evictions")
      try context.expect(
        texts(try store.readLog("batch")), ["3", "4", "5"], key: "batch", "records kept")
    },
    Self(
      "log-reads-the-newest-records",
      "Reading the newest n records returns those only, oldest first, with the whole log's counts."
    ) { context in
      let store = try context.freshStore()
      for index in 1...12 { try store.append([record("\(index)")], toLog: "log", capacity: 8) }
      let newest = try store.readLog("log", newest: 2)
      try context.expect(texts(newest), ["11", "12"], key: "log", "readLog(newest: 2)")
      try context.expect(newest?.count, 8, key: "log", "its count")
      try context.expect(newest?.evictedCount, 4, key: "log", "its evictedCount")
      try context.expect(newest?.nextPosition, 13, key: "log", "its nextPosition")
      try context.expect(
        try store.readLog("log", newest: 0)?.records, [], key: "log", "readLog(newest: 0)")
      try context.expect(
        texts(try store.readLog("log", newest: 100)), (5...12).map(String.init), key: "log",
        "readLog(newest: 100)")
    },
  ]

  static let appendLogClosures: [Self] = [
    Self(
      "log-closure-sees-the-newest-and-may-refuse",
      "appendToLog's closure sees the newest records it asked for; when it returns none, "
        + "nothing is written and the token stays."
    ) { context in
      let store = try context.freshStore()
      func appendUnlessLatest(_ text: String) throws -> LogAppend? {
        try store.appendToLog("log", capacity: 4, examiningNewest: 1) { log in
          log.records.last?.bytes == record(text) ? [] : [record(text)]
        }
      }
      _ = try appendUnlessLatest("a")
      let token = try store.changeToken(for: "log")
      try context.expect(try appendUnlessLatest("a"), nil, key: "log", "a retried append")
      try context.expect(try store.changeToken(for: "log"), token, key: "log", "token after it")
      _ = try appendUnlessLatest("b")
      try context.expect(texts(try store.readLog("log")), ["a", "b"], key: "log", "the records")
      let seen = LockedValue<[String]>([])
      try store.appendToLog("log", capacity: 4, examiningNewest: .max) { log in
        seen.withLock { $0 = texts(log) }
        return []
      }
      try context.expect(
        seen.withLock { $0 }, ["a", "b"], key: "log", "what examiningNewest: .max shows")
    },
    Self(
      "new-log-closure-sees-an-empty-log",
      "A missing log's closure sees an empty log whose identity the log then gets; nothing is "
        + "created when it appends nothing."
    ) { context in
      let store = try context.freshStore()
      let seen = LockedValue<LogSnapshot?>(nil)
      let nothing = try store.appendToLog("log", capacity: 2, examiningNewest: 1) { log in
        seen.withLock { $0 = log }
        return []
      }
      try context.expect(nothing, nil, key: "log", "an append of no record")
      let empty = seen.withLock { $0 }
      try context.expect(empty?.records, [], key: "log", "the records the closure saw")
      try context.expect(empty?.nextPosition, 1, key: "log", "the nextPosition it saw")
      try context.expect(try store.keys(), [], key: "log", "keys() after appending nothing")
      let appended = try store.appendToLog("log", capacity: 2, examiningNewest: 1) { log in
        seen.withLock { $0 = log }
        return [record("x")]
      }
      let identity = seen.withLock { $0?.identity }
      try context.expect(appended?.identity, identity, key: "log", "the identity of the append")
      try context.expect(
        try store.readLog("log")?.identity, identity, key: "log", "the identity of the log")
    },
    Self(
      "throwing-log-closure-appends-nothing",
      "When appendToLog's closure throws, its error reaches the caller and nothing is appended."
    ) { context in
      let store = try context.freshStore()
      try store.append([record("a")], toLog: "log", capacity: 4)
      let token = try store.changeToken(for: "log")
      let refusal = SharedStoreError.encoding(key: "log", type: "T", description: "refused")
      try context.expect(throws: refusal, key: "log", "appendToLog whose closure throws") {
        try store.appendToLog("log", capacity: 4, examiningNewest: 0) {
          _ throws(SharedStoreError) -> [Data] in throw refusal
        }
      }
      try context.expect(try store.changeToken(for: "log"), token, key: "log", "token after it")
      try context.expect(texts(try store.readLog("log")), ["a"], key: "log", "the records")
    },
  ]
}
