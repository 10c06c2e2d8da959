import Foundation
import SequenceTracking
import SharedStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Publishing, draining and polling a `SequencedOutbox`, against the raw durable write of the
/// SharedStore suite (`RawReplace`) and plain `FileStore` reads, measured in the same run.
enum SequenceTrackingBenchmarks {
  static let suite = BenchmarkSuite(
    name: "sequencetracking",
    summary: "outbox publish, drain and head vs a raw durable replace and plain reads",
    run: run
  )

  /// A usage event as an extension would publish it: about 110 bytes of JSON.
  struct UsageEvent: Codable, Sendable {
    var app: String
    var category: String
    var seconds: Int
    var at: Date
  }

  static func event(_ index: Int) -> UsageEvent {
    UsageEvent(
      app: "com.example.social.app\(index % 50)", category: "social_media", seconds: 60,
      at: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index) * 60))
  }

  /// The outbox capacity of the head rows: a day of events for a busy extension.
  static let capacity = 256
  /// The number of entries of the drain rows.
  static let drainSize = 1024

  static func run(_ options: BenchmarkOptions, _ report: inout Report) throws {
    try publishRows(options, &report)
    try counterRow(options, &report)
    try drainRows(options, &report)
    try headRows(options, &report)
  }

  // MARK: - Publishing

  /// The outbox lengths of the publish rows: a publish must cost the same at every one.
  static let publishLengths = [16, 256, 1_024, 4_096]

  static func publishRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(300)
    let raw = try RawAppend(directory: try options.freshDirectory("raw-append"), flush: true)
    let replace = try RawReplace(directory: try options.freshDirectory("raw-outbox"), flush: true)
    for length in publishLengths {
      let store = try FileStore(
        directory: try options.freshDirectory("outbox-\(length)"), durability: .durable)
      let outbox = try SequencedOutbox<UsageEvent>(store: store, key: "outbox", capacity: length)
      // Full, and half-way to the next compaction: every publish also evicts the oldest entry.
      try outbox.publish(contentsOf: (0..<length).map(event)) { _ in }
      var index = length
      for _ in 0..<(length / 2) {
        index += 1
        try outbox.publish(event(index)) { _ in }
      }
      // The bytes one publish writes: its frame, measured on the file.
      let path = store.directory.appendingPathComponent("outbox").path
      let before = try RawAppend.size(of: path)
      index += 1
      try outbox.publish(event(index)) { _ in }
      let frame = Data(count: try RawAppend.size(of: path) - before)

      func publishOne() throws {
        index += 1
        try outbox.publish(event(index)) { _ in }
      }
      let name = "SequencedOutbox.publish (.durable), outbox of \(length.formatted())"
      let (publish, replaced) = try Measurement.paired(
        name, against: "raw durable write of the same bytes (replace: flush file + dir)",
        iterations: iterations, baseline: { try replace.write(frame, name: "outbox") },
        measuring: publishOne)
      report.add(
        Report.Row(
          suite: suite.name, measurement: publish, baseline: replaced, target: .atMost(1.2),
          note: "\(frame.count)-byte frame per publish; the baseline writes a temporary file "
            + "of those bytes and renames it, as every write did before; timed alternately; "
            + "\(iterations) iterations"))
      let (again, appended) = try Measurement.paired(
        name, against: "raw durable append of the same bytes (write + flush)",
        iterations: iterations, baseline: { try raw.append(frame, name: "outbox-\(length)") },
        measuring: publishOne)
      report.add(
        Report.Row(
          suite: suite.name, measurement: again, baseline: appended, target: nil,
          note: "the floor of any durable append: open, write at the end, flush, close; "
            + "timed alternately; \(iterations) iterations"))
    }
  }

  static func counterRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(400)
    let raw = try RawReplace(directory: try options.freshDirectory("raw-counter"), flush: true)
    let baseline = try Measurement.run(
      "raw POSIX replace, 256 B (flush file + dir)", iterations: iterations
    ) {
      try raw.write(SharedStoreBenchmarks.payload(1), name: "counter")
    }
    let store = try FileStore(
      directory: try options.freshDirectory("counter-durable"), durability: .durable)
    let counter = try SequenceCounter(store: store, key: "sequence")
    let next = try Measurement.run("SequenceCounter.next (.durable)", iterations: iterations) {
      _ = try counter.next()
    }
    report.add(
      Report.Row(
        suite: suite.name, measurement: next, baseline: baseline, target: nil,
        note: "\(iterations) iterations"))
  }

  // MARK: - Draining

  static func drainRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let rounds = options.iterations(60)
    let store = try FileStore(
      directory: try options.freshDirectory("outbox-drain"), durability: .processCrashSafe)
    let outbox = try SequencedOutbox<UsageEvent>(store: store, key: "outbox", capacity: drainSize)
    let events = (0..<drainSize).map(event)
    try outbox.publish(contentsOf: events) { _ in }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try store.write(try encoder.encode(events), for: "array")

    let baseline = try Measurement.bulk("FileStore.read + decode [UsageEvent]", rounds: rounds) {
      guard let data = try store.read("array") else { throw BenchmarkError("no array") }
      let decoded = try JSONDecoder().decode([UsageEvent].self, from: data)
      guard decoded.count == drainSize else { throw BenchmarkError("short array") }
    }
    let drain = try Measurement.bulk("SequencedOutbox.drain(after: .start)", rounds: rounds) {
      let batch = try outbox.drain(after: .start)
      guard batch.entries.count == drainSize else { throw BenchmarkError("short drain") }
    }
    report.add(
      Report.Row(
        suite: suite.name, measurement: drain, baseline: baseline, target: nil,
        note: "\(drainSize) entries per drain: \(rate(drainSize, drain)) entries/s "
          + "(baseline \(rate(drainSize, baseline))/s), \(rounds) rounds"))

    let consumerStore = try FileStore(
      directory: try options.freshDirectory("consumer-durable"), durability: .durable)
    let consumer = try OutboxConsumer(
      outbox: outbox, store: consumerStore, key: "consumer", initialState: 0)
    try consumer.drain { total, entry in total += entry.payload.seconds }
    let raw = try RawReplace(directory: try options.freshDirectory("raw-consumer"), flush: true)
    let iterations = options.iterations(200)
    let small = try Measurement.run(
      "raw POSIX replace, 256 B (flush file + dir)", iterations: iterations
    ) {
      try raw.write(SharedStoreBenchmarks.payload(1), name: "record")
    }
    var index = drainSize
    let applyOne = try Measurement.run(
      "publish + OutboxConsumer.drain of it", iterations: iterations
    ) {
      index += 1
      try outbox.publish(event(index)) { _ in }
      let batch = try consumer.drain { total, entry in total += entry.payload.seconds }
      guard batch.entries.count == 1 else { throw BenchmarkError("expected one entry") }
    }
    report.add(
      Report.Row(
        suite: suite.name, measurement: applyOne, baseline: small, target: nil,
        note: "two store writes: the publish (.processCrashSafe outbox of \(drainSize) entries) "
          + "and the exactly-once apply (.durable record); \(iterations) iterations"))
  }

  // MARK: - Polling

  static func headRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(2000)
    let store = try FileStore(
      directory: try options.freshDirectory("outbox-head"), durability: .processCrashSafe)
    let outbox = try SequencedOutbox<UsageEvent>(store: store, key: "outbox", capacity: capacity)
    try outbox.publish(contentsOf: (0..<capacity).map(event)) { _ in }
    let fresh = try Measurement.run("SequencedOutbox.head() (changed)", iterations: iterations) {
      guard try outbox.head() != nil else { throw BenchmarkError("no head") }
    }
    let log = try Measurement.run("FileStore.readLog of the outbox", iterations: iterations) {
      guard try store.readLog("outbox") != nil else { throw BenchmarkError("no outbox") }
    }
    let cached = try outbox.head()
    let unchanged = try Measurement.run(
      "SequencedOutbox.head(reusing:) (unchanged)", iterations: iterations
    ) {
      guard try outbox.head(reusing: cached) == cached else { throw BenchmarkError("changed") }
    }
    let note = "outbox of \(capacity) entries, \(iterations) iterations"
    report.add(
      Report.Row(
        suite: suite.name, measurement: fresh, baseline: log, target: nil,
        note: "the token, then the header and the newest frame; " + note))
    report.add(
      Report.Row(
        suite: suite.name, measurement: unchanged, baseline: log, target: nil,
        note: "the change token only (the file's header and size); " + note))
  }

  /// Entries per second at the median, rounded to thousands.
  static func rate(_ entries: Int, _ measurement: Measurement) -> String {
    let perSecond = Double(entries) / measurement.median.seconds
    return String(format: "%.0fk", perSecond / 1000)
  }
}

/// A benchmark that did not see what it set up.
struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The baseline of an append: open an existing file, write at its end, flush, close — what any
/// careful appender does, with nothing around it (no lock, no reading of the file).
final class RawAppend {
  let directory: String
  let flush: Bool

  init(directory: URL, flush: Bool) throws {
    self.directory = directory.path
    self.flush = flush
  }

  func append(_ bytes: Data, name: String) throws {
    let path = directory + "/" + name
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw RawReplace.Failure(call: "open", code: errno) }
    let written = bytes.withUnsafeBytes { rawWrite(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw RawReplace.Failure(call: "write", code: errno) }
    if flush {
      #if canImport(Darwin)
      if fcntl(descriptor, F_FULLFSYNC) != 0, fsync(descriptor) != 0 {
        throw RawReplace.Failure(call: "fsync", code: errno)
      }
      #else
      guard fsync(descriptor) == 0 else { throw RawReplace.Failure(call: "fsync", code: errno) }
      #endif
    }
    guard close(descriptor) == 0 else { throw RawReplace.Failure(call: "close", code: errno) }
  }

  /// The size of the file at `path`.
  static func size(of path: String) throws -> Int {
    try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
  }
}

private func rawWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
