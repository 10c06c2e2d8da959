import Foundation
import SequenceTracking
import SharedStore

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

  /// The outbox capacity of the publish rows: a day of events for a busy extension.
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

  static func publishRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(400)
    let store = try FileStore(
      directory: try options.freshDirectory("outbox-durable"), durability: .durable)
    let outbox = try SequencedOutbox<UsageEvent>(store: store, key: "outbox", capacity: capacity)
    // Steady state: the outbox is full, so every publish also evicts the oldest entry.
    try outbox.publish(contentsOf: (0..<capacity).map(event)) { _ in }
    guard let stored = try store.read("outbox") else { throw BenchmarkError("no outbox") }

    let raw = try RawReplace(directory: try options.freshDirectory("raw-outbox"), flush: true)
    let sameBytes = try Measurement.run(
      "raw POSIX replace, same bytes (flush file + dir)", iterations: iterations
    ) {
      try raw.write(stored, name: "outbox")
    }
    let small = try Measurement.run(
      "raw POSIX replace, 256 B (flush file + dir)", iterations: iterations
    ) {
      try raw.write(SharedStoreBenchmarks.payload(1), name: "counter")
    }
    var index = capacity
    var notified = 0
    let publish = try Measurement.run(
      "SequencedOutbox.publish (.durable)", iterations: iterations
    ) {
      index += 1
      try outbox.publish(event(index)) { _ in notified += 1 }
    }
    let note = "outbox of \(capacity) entries, \(stored.count / 1024) KiB, \(iterations) iterations"
    report.add(
      Report.Row(
        suite: suite.name, measurement: publish, baseline: sameBytes, target: .atMost(1.5),
        note: note))
    report.add(
      Report.Row(
        suite: suite.name, measurement: publish, baseline: small, target: nil,
        note: "the same publishes against a 256-byte raw write"))
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
    try store.write(encoder.encode(events), for: "array")

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
    let read = try Measurement.run("FileStore.read of the outbox", iterations: iterations) {
      guard try store.read("outbox") != nil else { throw BenchmarkError("no outbox") }
    }
    let fresh = try Measurement.run("SequencedOutbox.head() (changed)", iterations: iterations) {
      guard try outbox.head() != nil else { throw BenchmarkError("no head") }
    }
    let cached = try outbox.head()
    let unchanged = try Measurement.run(
      "SequencedOutbox.head(reusing:) (unchanged)", iterations: iterations
    ) {
      guard try outbox.head(reusing: cached) == cached else { throw BenchmarkError("changed") }
    }
    let note = "outbox of \(capacity) entries, \(iterations) iterations"
    report.add(
      Report.Row(suite: suite.name, measurement: fresh, baseline: read, target: nil, note: note))
    report.add(
      Report.Row(
        suite: suite.name, measurement: unchanged, baseline: read, target: nil,
        note: "header and change token only; " + note))
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
