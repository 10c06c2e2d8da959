import Foundation
import SequenceTracking
import SharedStore

/// Publishing, draining and polling a `SequencedOutbox`, against the raw durable write of the
/// SharedStore suite (`RawReplace`) and plain `FileStore` reads, measured in the same run.
enum SequenceTrackingBenchmarks {
  static let suite = BenchmarkSuite(
    name: "sequencetracking",
    summary: "outbox publish, drain and head vs a raw durable write and plain reads",
    scenarios: publishLengths.map(publishScenario) + [
      Scenario([counterName]) { try counterRow($0, &$1) },
      Scenario([drainName, applyName]) { try drainRows($0, &$1) },
      Scenario([headName, unchangedHeadName]) { try headRows($0, &$1) },
    ]
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

  static let counterName = "SequenceCounter.next (.durable)"
  static let drainName = "SequencedOutbox.drain(after: .start)"
  static let applyName = "publish + OutboxConsumer.drain of it"
  static let headName = "SequencedOutbox.head() (changed)"
  static let unchangedHeadName = "SequencedOutbox.head(reusing:) (unchanged)"

  // MARK: - Publishing

  /// The outbox lengths of the publish rows: a publish must cost the same at every one.
  static let publishLengths = [16, 256, 1_024, 4_096]

  static func publishName(_ length: Int) -> String {
    "SequencedOutbox.publish (.durable), outbox of \(length.grouped)"
  }

  static func publishScenario(_ length: Int) -> Scenario {
    Scenario([publishName(length)]) { options, report in
      let iterations = options.iterations(300)
      let raw = try RawAppend(directory: try options.freshDirectory("raw-append"), flush: true)
      let replace = try RawReplace(
        directory: try options.freshDirectory("raw-outbox"), flush: true)
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
      let name = publishName(length)
      let workSize = "\(frame.count)-byte frame × \(iterations.grouped)"
      let (publish, replaced) = try Measurement.paired(
        name, against: "raw durable write of the same bytes (replace: flush file + dir)",
        iterations: iterations, baseline: { try replace.write(frame, name: "outbox") },
        measuring: publishOne)
      report.add(
        Report.Row(
          suite: suite.name, scenario: name, workSize: workSize, figure: .init(publish),
          baseline: Report.Baseline(replaced), target: .atMost(1.2),
          limit: "A publish appends one frame and flushes the outbox's file once; one raw "
            + "durable write flushes twice (the file, then the directory). Compaction comes once "
            + "per capacity publishes.",
          note: "the outbox full and half-way to its next compaction, so every publish evicts "
            + "the oldest entry; the baseline is what every publish was before the outbox "
            + "became a log; timed alternately"))
      let (again, appended) = try Measurement.paired(
        name, against: "raw durable append of the same bytes (write + flush)",
        iterations: iterations, baseline: { try raw.append(frame, name: "outbox-\(length)") },
        measuring: publishOne)
      report.add(
        Report.Row(
          suite: suite.name, scenario: name, workSize: workSize, figure: .init(again),
          baseline: Report.Baseline(appended), target: nil, limit: nil,
          note: "the floor of any durable append: open, write at the end, flush, close; "
            + "timed alternately"))
    }
  }

  static func counterRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(400)
    let raw = try RawReplace(directory: try options.freshDirectory("raw-counter"), flush: true)
    let store = try FileStore(
      directory: try options.freshDirectory("counter-durable"), durability: .durable)
    let counter = try SequenceCounter(store: store, key: "sequence")
    let (next, baseline) = try Measurement.paired(
      counterName, against: "raw durable write, 256 B (replace: flush file + dir)",
      iterations: iterations,
      baseline: { try raw.write(SharedStoreBenchmarks.payload(1), name: "counter") },
      measuring: { _ = try counter.next() })
    report.add(
      Report.Row(
        suite: suite.name, scenario: counterName, workSize: "one number × \(iterations.grouped)",
        figure: .init(next), baseline: Report.Baseline(baseline), target: nil, limit: nil,
        note: "one durable FileStore.update; timed alternately"))
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

    let baseline = try Measurement.bulk(
      "FileStore.read + decode [UsageEvent]", rounds: rounds, clock: .cpu
    ) {
      guard let data = try store.read("array") else { throw BenchmarkError("no array") }
      let decoded = try JSONDecoder().decode([UsageEvent].self, from: data)
      guard decoded.count == drainSize else { throw BenchmarkError("short array") }
    }
    let drain = try Measurement.bulk(drainName, rounds: rounds, clock: .cpu) {
      let batch = try outbox.drain(after: .start)
      guard batch.entries.count == drainSize else { throw BenchmarkError("short drain") }
    }
    report.add(
      Report.Row(
        suite: suite.name, scenario: drainName,
        workSize: "\(drainSize.grouped) entries × \(rounds.grouped)", figure: .init(drain),
        baseline: Report.Baseline(baseline), target: nil, limit: nil,
        note: "\(rate(drainSize, drain)) entries/s (baseline \(rate(drainSize, baseline))/s)"))

    let consumerStore = try FileStore(
      directory: try options.freshDirectory("consumer-durable"), durability: .durable)
    let consumer = try OutboxConsumer(
      outbox: outbox, store: consumerStore, key: "consumer", initialState: 0)
    try consumer.drain { total, entry in total += entry.payload.seconds }
    let raw = try RawReplace(directory: try options.freshDirectory("raw-consumer"), flush: true)
    let iterations = options.iterations(200)
    var index = drainSize
    let (applyOne, small) = try Measurement.paired(
      applyName, against: "raw durable write, 256 B (replace: flush file + dir)",
      iterations: iterations,
      baseline: { try raw.write(SharedStoreBenchmarks.payload(1), name: "record") },
      measuring: {
        index += 1
        try outbox.publish(event(index)) { _ in }
        let batch = try consumer.drain { total, entry in total += entry.payload.seconds }
        guard batch.entries.count == 1 else { throw BenchmarkError("expected one entry") }
      })
    report.add(
      Report.Row(
        suite: suite.name, scenario: applyName, workSize: "one entry × \(iterations.grouped)",
        figure: .init(applyOne), baseline: Report.Baseline(small), target: nil, limit: nil,
        note: "two store writes: the publish (.processCrashSafe outbox of \(drainSize) entries) "
          + "and the exactly-once apply (.durable record); timed alternately"))
  }

  // MARK: - Polling

  static func headRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(2000)
    let store = try FileStore(
      directory: try options.freshDirectory("outbox-head"), durability: .processCrashSafe)
    let outbox = try SequencedOutbox<UsageEvent>(store: store, key: "outbox", capacity: capacity)
    try outbox.publish(contentsOf: (0..<capacity).map(event)) { _ in }
    let fresh = try Measurement.run(headName, iterations: iterations) {
      guard try outbox.head() != nil else { throw BenchmarkError("no head") }
    }
    let log = try Measurement.run("FileStore.readLog of the outbox", iterations: iterations) {
      guard try store.readLog("outbox") != nil else { throw BenchmarkError("no outbox") }
    }
    let cached = try outbox.head()
    let unchanged = try Measurement.run(unchangedHeadName, iterations: iterations) {
      guard try outbox.head(reusing: cached) == cached else { throw BenchmarkError("changed") }
    }
    let workSize = "outbox of \(capacity) entries × \(iterations.grouped)"
    report.add(
      Report.Row(
        suite: suite.name, scenario: headName, workSize: workSize, figure: .init(fresh),
        baseline: Report.Baseline(log), target: nil, limit: nil,
        note: "the token, then the header and the newest frame"))
    report.add(
      Report.Row(
        suite: suite.name, scenario: unchangedHeadName, workSize: workSize,
        figure: .init(unchanged), baseline: Report.Baseline(log), target: nil, limit: nil,
        note: "the change token only (the file's header and size)"))
  }

  /// Entries per second at the median, rounded to thousands.
  static func rate(_ entries: Int, _ measurement: Measurement) -> String {
    let perSecond = Double(entries) / measurement.median.seconds
    return String(format: "%.0fk", perSecond / 1000)
  }
}
