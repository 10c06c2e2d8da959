import Foundation
import SharedStore

extension SharedStoreConformance.Check {
  static let appendLogKinds: [Self] = [
    Self(
      "logs-and-values-do-not-mix",
      "A key holding a log refuses value operations and a key holding a value refuses log "
        + "operations, with kindMismatch, changing nothing (when the backend keeps logs apart)."
    ) { context in
      guard context.configuration.logsAreSeparateFromValues else { return }
      let store = try context.freshStore()
      try store.append([record("a")], toLog: "log", capacity: 2)
      try store.write(record("v"), for: "value")
      let isLog = SharedStoreError.kindMismatch(key: "log", holds: .log)
      try context.expect(throws: isLog, key: "log", "read of a log") { try store.read("log") }
      try context.expect(throws: isLog, key: "log", "write over a log") {
        try store.write(Data(), for: "log")
      }
      try context.expect(throws: isLog, key: "log", "update of a log") {
        try store.update("log") { data in data = Data() }
      }
      let isValue = SharedStoreError.kindMismatch(key: "value", holds: .value)
      try context.expect(throws: isValue, key: "value", "readLog of a value") {
        try store.readLog("value")
      }
      try context.expect(throws: isValue, key: "value", "append to a value") {
        try store.append([Data()], toLog: "value", capacity: 2)
      }
      try context.expect(throws: isValue, key: "value", "compactLog of a value") {
        try store.compactLog("value") { _ in false }
      }
      try context.expect(texts(try store.readLog("log")), ["a"], key: "log", "the log after it")
      try context.expect(try store.read("value"), record("v"), key: "value", "the value after it")
      try context.expect(try store.keys(), ["log", "value"], key: nil, "keys()")
      try store.remove("log")
      try store.write(record("now a value"), for: "log")
      try context.expect(
        try store.read("log"), record("now a value"), key: "log", "a removed log's key as a value")
    },
    Self(
      "invalid-log-capacity-is-refused",
      "An append with a capacity below 1 throws invalidCapacity and creates nothing."
    ) { context in
      let store = try context.freshStore()
      for capacity in [0, -1] {
        try context.expect(
          throws: .invalidCapacity(key: "log", capacity: capacity), key: "log",
          "append with capacity \(capacity)"
        ) { try store.append([record("a")], toLog: "log", capacity: capacity) }
      }
      try context.expect(try store.keys(), [], key: "log", "keys() after the refusals")
    },
  ]

  static let appendLogConcurrency: [Self] = [
    Self(
      "log-appends-are-atomic-across-threads",
      "Threads appending to one log at once lose no record, share no position, and each "
        + "thread's records stay in its order."
    ) { context in
      let store = try context.freshStore()
      let threads = context.configuration.concurrentThreads
      let each = context.configuration.operationsPerThread
      let total = threads * each
      let positions = try onThreads(threads) { thread in
        try (0..<each).map { index in
          let appended = try store.append(
            [record("\(thread):\(index)")], toLog: "log", capacity: total)
          return appended?.positions.lowerBound ?? 0
        }
      }.flatMap { $0 }
      try context.expect(
        positions.sorted() == Array(1...UInt64(total)), key: "log",
        "\(threads) threads appending \(each) records each",
        expected: "the positions 1...\(total), each handed out once",
        actual: "\(Set(positions).count) distinct positions of \(positions.count)")
      let log = try requireLog(store, "log", context, "readLog after the appends")
      try context.expect(log.count, total, key: "log", "count")
      for thread in 0..<threads {
        try context.expect(
          texts(log).filter { $0.hasPrefix("\(thread):") }, (0..<each).map { "\(thread):\($0)" },
          key: "log", "thread \(thread)'s records")
      }
    },
    Self(
      "log-matches-a-reference-model",
      "Over random appends, compactions and capacity changes, a log holds exactly the records, "
        + "positions and counts of a simple model."
    ) { context in
      var random = SeededGenerator(seed: 0x106_0001)
      for round in 0..<4 {
        let store = try context.freshStore()
        var model = LogModel(capacity: Int.random(in: 1...6, using: &random))
        for step in 0..<100 {
          let moment = "round \(round), step \(step)"
          let choice = Int.random(in: 0..<20, using: &random)
          if choice == 0 {
            let modulus = UInt64.random(in: 2...3, using: &random)
            let removed = try store.compactLog("log") { $0.position % modulus != 0 }
            try context.expect(removed, model.compact(modulus), key: "log", "\(moment): removed")
            continue
          }
          if choice == 1 { model.capacity = Int.random(in: 1...6, using: &random) }
          let count = Int.random(in: 0...3, using: &random)
          let records = (0..<count).map { record("\(round).\(step).\($0)") }
          let appended = try store.append(records, toLog: "log", capacity: model.capacity)
          let shape = appended.map {
            LogAppendShape(positions: $0.positions, evictedCount: $0.evictedCount)
          }
          try context.expect(shape, model.append(records), key: "log", "\(moment): append")
          guard count > 0 else { continue }
          let log = try requireLog(store, "log", context, moment)
          try context.expect(log.records, model.records, key: "log", "\(moment): records")
          try context.expect(log.evictedCount, model.evicted, key: "log", "\(moment): evicted")
          try context.expect(log.nextPosition, model.next, key: "log", "\(moment): nextPosition")
        }
      }
    },
  ]
}

/// What a log should hold, kept the simplest way.
private struct LogModel {
  var capacity: Int
  var records: [LogRecord] = []
  var evicted: UInt64 = 0
  var next: UInt64 = 1

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// Appends `bytes` and returns what the store should report.
  mutating func append(_ bytes: [Data]) -> LogAppendShape? {
    guard !bytes.isEmpty else { return nil }
    let positions = next...(next + UInt64(bytes.count) - 1)
    records += zip(positions, bytes).map { LogRecord(position: $0.0, bytes: $0.1) }
    next += UInt64(bytes.count)
    let excess = max(0, records.count - capacity)
    records.removeFirst(excess)
    evicted += UInt64(excess)
    return LogAppendShape(positions: positions, evictedCount: excess)
  }

  mutating func compact(_ modulus: UInt64) -> Int {
    let before = records.count
    records.removeAll { $0.position % modulus == 0 }
    return before - records.count
  }
}

/// A ``/SharedStore/LogAppend`` without its identity, which a model cannot predict.
private struct LogAppendShape: Equatable {
  var positions: ClosedRange<UInt64>
  var evictedCount: Int
}
