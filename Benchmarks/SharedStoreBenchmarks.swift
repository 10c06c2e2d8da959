import Foundation
import SharedStore

/// `FileStore.update` in both durability modes against one raw replace doing the same file
/// work, and appends to logs against a small update and a raw append.
enum SharedStoreBenchmarks {
  static let suite = BenchmarkSuite(
    name: "sharedstore",
    summary: "FileStore.update vs a raw POSIX replace; log appends vs a small update",
    scenarios: FileStore.Durability.allCases.map(updateScenario)
      + [Scenario([versionedName]) { try versionedRows($0, &$1) }]
      + FileStore.Durability.allCases.map(appendScenario)
  )

  /// The payload size of every update row: a small value such as a counter or a heartbeat.
  static let payloadSize = 256
  /// The size of `FileStore`'s file header, which the raw replace writes too.
  static let headerSize = 32

  // MARK: - Updates

  static func updateScenario(_ durability: FileStore.Durability) -> Scenario {
    let name = "FileStore.update (.\(durability.rawValue))"
    return Scenario([name]) { options, report in
      let durable = durability == .durable
      let iterations = options.iterations(400)
      let raw = try RawReplace(
        directory: try options.freshDirectory("raw-\(durability.rawValue)"), flush: durable)
      var rawCounter: UInt64 = 0
      let store = try FileStore(
        directory: try options.freshDirectory("store-\(durability.rawValue)"),
        durability: durability)
      let (measurement, baseline) = try Measurement.paired(
        name,
        against: durable
          ? "raw durable write (replace: flush file + dir)" : "raw replace (no flush)",
        iterations: iterations,
        baseline: {
          rawCounter += 1
          try raw.write(Data(count: headerSize) + payload(rawCounter), name: "counter")
        },
        measuring: { try bumpCounter(in: store) })
      report.add(
        Report.Row(
          suite: suite.name, scenario: name,
          workSize: "\(payloadSize)-byte value × \(iterations.grouped)",
          figure: .init(measurement), baseline: Report.Baseline(baseline),
          target: durable ? .atMost(1.3) : nil,
          limit: durable
            ? "A durable replace costs two flushes, the file's and the directory's after the "
              + "rename; the store's lock, checks and read of the old value are system calls "
              + "worth microseconds, not a third flush."
            : nil,
          note: "the raw replace writes the same bytes, the store's \(headerSize)-byte header "
            + "included; timed alternately with the baseline"))
      guard durable else { return }
      // The floor a small durable update could reach: one flush. A replaced value cannot; the
      // row of a value kept as versions below has the target.
      let append = try RawAppend(
        directory: try options.freshDirectory("raw-append-update"), flush: true)
      let (again, appended) = try Measurement.paired(
        name, against: "raw durable append of the same bytes (write + flush)",
        iterations: iterations,
        baseline: { try append.append(Data(count: headerSize + payloadSize), name: "counter") },
        measuring: { try bumpCounter(in: store) })
      report.add(
        Report.Row(
          suite: suite.name, scenario: name,
          workSize: "\(payloadSize)-byte value × \(iterations.grouped)",
          figure: .init(again), baseline: Report.Baseline(appended), target: nil, limit: nil,
          note: "the floor of a durable update of a small value: one write and one flush; the "
            + "update writes a temporary file, flushes it, renames it and flushes the "
            + "directory; timed alternately with the baseline"))
    }
  }

  /// Increments the 8-byte counter at the start of the `counter` value by one update.
  static func bumpCounter(in store: FileStore) throws {
    try store.update("counter") { data in
      var counter = data.map { $0.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } } ?? 0
      counter += 1
      data = payload(counter)
    }
  }

  // MARK: - Values kept as versions

  static let versionedName = "typed update of a value kept as versions (.durable)"

  /// A small value of about ``payloadSize`` bytes of JSON: a counter and its padding.
  struct Versioned: Codable, Sendable {
    var counter: UInt64
    var padding = String(repeating: "p", count: payloadSize - 32)
  }

  static func versionedRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(400)
    let store = try FileStore(
      directory: try options.freshDirectory("store-versions"), durability: .durable)
    let key = StoreKey(
      "counter", default: Versioned(counter: 0), storage: .versions(keeping: 16))
    try store.update(key) { $0.counter += 1 }
    let record = try JSONEncoder().encode(try store.value(for: key)).count
    let append = try RawAppend(
      directory: try options.freshDirectory("raw-append-versions"), flush: true)
    // The record and its frame: a checksum, a position and the terminating byte.
    let frame = Data(count: record + 16)
    let (measurement, baseline) = try Measurement.paired(
      versionedName, against: "raw durable append of the same bytes (write + flush)",
      iterations: iterations,
      baseline: { try append.append(frame, name: "counter") },
      measuring: { try store.update(key) { $0.counter += 1 } })
    report.add(
      Report.Row(
        suite: suite.name, scenario: versionedName,
        workSize: "\(record)-byte value × \(iterations.grouped)",
        figure: .init(measurement), baseline: Report.Baseline(baseline), target: .atMost(1.3),
        limit: "A change of a value kept as versions appends one frame and flushes the file "
          + "once, like the raw append; the lock, the read of the newest version, decoding and "
          + "encoding are microseconds. One change in 17 compacts the log by a rename (two "
          + "flushes): it shows in the p99, not the median.",
        note:
          "StoreKey(storage: .versions(keeping: 16)) and store.update(key) { $0.counter += 1 }, "
          + "the way OutboxConsumer commits a drain; timed alternately with the baseline"))
  }

  // MARK: - Logs

  /// An entry of the bounded-log rows: about 70 bytes of JSON, a diagnostic line.
  struct LogLine: Codable, Sendable {
    var at: Date
    var message: String
  }

  /// The capacity of the bounded-log rows.
  static let logCapacity = 10_000

  static func appendScenario(_ durability: FileStore.Durability) -> Scenario {
    let boundedName = "BoundedLog.append at capacity 10,000 (.\(durability.rawValue))"
    let appendName = "FileStore.append of a 100-byte record (.\(durability.rawValue))"
    return Scenario([boundedName, appendName]) { options, report in
      let durable = durability == .durable
      let iterations = options.iterations(300)
      let store = try FileStore(
        directory: try options.freshDirectory("log-\(durability.rawValue)"),
        durability: durability)
      let small = Data(count: 100)
      func update() throws {
        try store.update("small") { data in
          data = data == small ? Data(count: 101) : small
        }
      }
      let log = try BoundedLog<LogLine>(store: store, key: "log", capacity: logCapacity)
      var index = 0
      func line() -> LogLine {
        index += 1
        return LogLine(
          at: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index)),
          message: "threshold event \(index) recorded for com.example.app")
      }
      // Full, and half-way to the next compaction.
      for _ in 0..<15 { try log.append(contentsOf: (0..<1_000).map { _ in line() }) }
      let (append, updated) = try Measurement.paired(
        boundedName,
        against: "FileStore.update of a 100-byte value (.\(durability.rawValue))",
        iterations: iterations, baseline: update,
        measuring: {
          guard try log.append(line()) == 1 else { throw BenchmarkError("nothing evicted") }
        })
      let cycle = try Measurement.bulk("cycle", rounds: 1, warmup: 0) {
        for _ in 0...logCapacity { try log.append(line()) }
      }
      report.add(
        Report.Row(
          suite: suite.name, scenario: boundedName,
          workSize: "about 70-byte entry × \(iterations.grouped)",
          figure: .init(append), baseline: Report.Baseline(updated), target: .atMost(1.5),
          limit: durable
            ? "An append flushes the log's file once; an update writes a temporary file and "
              + "flushes it and the directory: one flush against two. The compaction, once per "
              + "10,001 appends, rewrites about 0.75 MB."
            : "Without flushes an append is one write at the end of the file, where an update "
              + "creates, writes and renames a file (which ext4 makes costly).",
          note: "the file half-way between compactions; mean over a whole compaction cycle "
            + "(10,001 appends, not alternated) \((cycle.median / (logCapacity + 1)).formatted); "
            + "timed alternately with the baseline"))

      let raw = try RawAppend(
        directory: try options.freshDirectory("raw-log-\(durability.rawValue)"), flush: durable)
      let record = Data(count: 100)
      try store.append([record], toLog: "records", capacity: 1_000_000)
      let path = store.directory.appendingPathComponent("records").path
      let before = try RawAppend.size(of: path)
      try store.append([record], toLog: "records", capacity: 1_000_000)
      let frame = Data(count: try RawAppend.size(of: path) - before)
      let (logAppend, rawAppend) = try Measurement.paired(
        appendName,
        against: "raw append of the same bytes (\(durable ? "write + flush" : "write"))",
        iterations: iterations, baseline: { try raw.append(frame, name: "records") },
        measuring: { try store.append([record], toLog: "records", capacity: 1_000_000) })
      report.add(
        Report.Row(
          suite: suite.name, scenario: appendName,
          workSize: "\(frame.count)-byte frame × \(iterations.grouped)",
          figure: .init(logAppend), baseline: Report.Baseline(rawAppend), target: nil, limit: nil,
          note: "the difference is the lock, the check of the lock file and an lstat of the "
            + "log's file, which the store keeps open between appends; timed alternately with "
            + "the baseline"))
    }
  }

  /// A deterministic payload whose first eight bytes hold `counter`, big-endian.
  static func payload(_ counter: UInt64) -> Data {
    var data = Data(count: payloadSize)
    for index in 0..<8 { data[index] = UInt8(truncatingIfNeeded: counter >> (56 - 8 * index)) }
    return data
  }
}
