import Foundation
import SharedStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// `FileStore.update` in both durability modes against raw POSIX doing the same file work, and
/// appends to logs against a small update and a raw append.
enum SharedStoreBenchmarks {
  static let suite = BenchmarkSuite(
    name: "sharedstore",
    summary: "FileStore.update vs a raw POSIX replace; log appends vs a small update",
    run: run
  )

  /// The payload size of every write: a small value such as a counter or a heartbeat.
  static let payloadSize = 256

  static func run(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(400)
    for durability in FileStore.Durability.allCases {
      let durable = durability == .durable
      let raw = try RawReplace(
        directory: try options.freshDirectory("raw-\(durability.rawValue)"), flush: durable)
      var rawCounter: UInt64 = 0
      let baseline = try Measurement.run(
        durable ? "raw POSIX replace (flush file + dir)" : "raw POSIX replace (no flush)",
        iterations: iterations
      ) {
        rawCounter += 1
        try raw.write(payload(rawCounter), name: "counter")
      }

      let store = try FileStore(
        directory: try options.freshDirectory("store-\(durability.rawValue)"),
        durability: durability)
      let measurement = try Measurement.run(
        "FileStore.update (.\(durability.rawValue))", iterations: iterations
      ) {
        try store.update("counter") { data in
          var counter = data.map { $0.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } } ?? 0
          counter += 1
          data = payload(counter)
        }
      }
      report.add(
        Report.Row(
          suite: suite.name, measurement: measurement, baseline: baseline,
          target: durable ? .atMost(1.3) : nil,
          note: "\(payloadSize)-byte value, \(iterations) iterations"))
    }
    try appendRows(options, &report)
  }

  // MARK: - Logs

  /// An entry of the bounded-log rows: about 70 bytes of JSON, a diagnostic line.
  struct LogLine: Codable, Sendable {
    var at: Date
    var message: String
  }

  /// The capacity of the bounded-log rows.
  static let logCapacity = 10_000

  static func appendRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(300)
    for durability in FileStore.Durability.allCases {
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
        "BoundedLog.append at capacity 10,000 (.\(durability.rawValue))",
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
          suite: suite.name, measurement: append, baseline: updated, target: .atMost(1.5),
          note: "about 70-byte entries, the file half-way between compactions; mean over a "
            + "whole compaction cycle (10,001 appends) "
            + "\((cycle.median / (logCapacity + 1)).formatted); timed alternately with the "
            + "baseline; \(iterations) iterations"))

      let raw = try RawAppend(
        directory: try options.freshDirectory("raw-log-\(durability.rawValue)"),
        flush: durability == .durable)
      let record = Data(count: 100)
      try store.append([record], toLog: "records", capacity: 1_000_000)
      let path = store.directory.appendingPathComponent("records").path
      let before = try RawAppend.size(of: path)
      try store.append([record], toLog: "records", capacity: 1_000_000)
      let frame = Data(count: try RawAppend.size(of: path) - before)
      let (logAppend, rawAppend) = try Measurement.paired(
        "FileStore.append of a 100-byte record (.\(durability.rawValue))",
        against:
          "raw append of the same bytes (\(durability == .durable ? "write + flush" : "write"))",
        iterations: iterations, baseline: { try raw.append(frame, name: "records") },
        measuring: { try store.append([record], toLog: "records", capacity: 1_000_000) })
      report.add(
        Report.Row(
          suite: suite.name, measurement: logAppend, baseline: rawAppend, target: nil,
          note: "a \(frame.count)-byte frame; the difference is the lock, the checks of the "
            + "lock file, and reading the header and the last frame; \(iterations) iterations"))
    }
  }

  /// A deterministic payload whose first eight bytes hold `counter`, big-endian.
  static func payload(_ counter: UInt64) -> Data {
    var data = Data(count: payloadSize)
    for index in 0..<8 { data[index] = UInt8(truncatingIfNeeded: counter >> (56 - 8 * index)) }
    return data
  }
}

/// The baseline: what any careful atomic file replace costs, with nothing else around it.
///
/// Create a temporary file, write, flush, close, rename over the old file, flush the directory
/// (kept open, as FileStore keeps its own). It writes the same number of bytes as FileStore,
/// header included, and flushes the same way (`F_FULLFSYNC` on Darwin, `fsync` elsewhere).
final class RawReplace {
  struct Failure: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "\(call) failed with errno \(code)" }
  }

  let directory: String
  let flush: Bool
  private let directoryDescriptor: Int32

  init(directory: URL, flush: Bool) throws {
    self.directory = directory.path
    self.flush = flush
    directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
    guard directoryDescriptor >= 0 else { throw Failure(call: "open dir", code: errno) }
  }

  deinit { close(directoryDescriptor) }

  func write(_ payload: Data, name: String) throws {
    let bytes = Data(count: 32) + payload
    let temporary = directory + "/.tmp." + name
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw Failure(call: "open", code: errno) }
    let written = bytes.withUnsafeBytes { posixWrite(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw Failure(call: "write", code: errno) }
    if flush { try Self.synchronize(descriptor) }
    guard close(descriptor) == 0 else { throw Failure(call: "close", code: errno) }
    guard rename(temporary, directory + "/" + name) == 0 else {
      throw Failure(call: "rename", code: errno)
    }
    if flush { try Self.synchronize(directoryDescriptor) }
  }

  private static func synchronize(_ descriptor: Int32) throws {
    #if canImport(Darwin)
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
    #endif
    guard fsync(descriptor) == 0 else { throw Failure(call: "fsync", code: errno) }
  }
}

private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
