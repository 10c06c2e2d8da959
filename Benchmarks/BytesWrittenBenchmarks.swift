import Foundation
import SequenceTracking
import SharedStore
import TrackerSignals

/// Bytes written per simulated day by what an extension records all day long — heartbeats, a
/// diagnostic log, outbox publishes — against the information recorded, compaction included.
enum BytesWrittenBenchmarks {
  static let suite = BenchmarkSuite(
    name: "bytes",
    summary: "bytes written per simulated day (heartbeats, diagnostics, outbox) vs information",
    run: run
  )

  /// Days recorded before measuring, so that the logs are full and compact as they do for good.
  static let warmupDays = 1
  /// Days measured; the figures are per day, averaged.
  static let measuredDays = 3

  static func run(_ options: BenchmarkOptions, _ report: inout Report) throws {
    guard ProcessIO.now() != nil else {
      print("| bytes | — | not measured: /proc/self/io is not available on this system |")
      return
    }
    try heartbeatRow(options, &report)
    try diagnosticRow(options, &report)
    try outboxRow(options, &report)
  }

  /// Runs `day` for the warm-up days, then measures the others.
  ///
  /// Returns the wall time and the bytes written per day. Nothing may be printed meanwhile.
  static func measure(_ name: String, day: (Int) throws -> Void) throws
    -> (Measurement, ProcessIO)
  {
    for index in 0..<warmupDays { try day(index) }
    let clock = ContinuousClock()
    let start = clock.now
    guard let before = ProcessIO.now() else { throw BenchmarkError("no /proc/self/io") }
    for index in warmupDays..<(warmupDays + measuredDays) { try day(index) }
    guard let after = ProcessIO.now() else { throw BenchmarkError("no /proc/self/io") }
    let elapsed = (clock.now - start) / measuredDays
    let written = after - before
    return (
      Measurement(name: name, samples: [elapsed]),
      ProcessIO(
        wchar: written.wchar / measuredDays, writeBytes: written.writeBytes / measuredDays)
    )
  }

  static func row(
    _ measurement: Measurement, _ written: ProcessIO, information: Int, detail: String
  ) -> Report.Row {
    let ratio = Double(written.wchar) / Double(information)
    return Report.Row(
      suite: suite.name, measurement: measurement, baseline: nil, target: .atMost(4),
      note: "median is the time of one day; ratio is bytes written (wchar) per day, "
        + "\(written.wchar.formatted()) B, over the information recorded, "
        + "\(information.formatted()) B; write_bytes \(written.writeBytes.formatted()) B "
        + "(whole pages); \(detail); days \(warmupDays + 1)–\(warmupDays + measuredDays) "
        + "averaged, compaction included",
      ratioOverride: ratio)
  }

  // MARK: - The rows

  /// A heartbeat every 30 s, each with a sequence and a memory figure: 24 bytes of information
  /// (an instant, a sequence and a memory figure of 8 bytes each).
  static func heartbeatRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let directory = try options.freshDirectory("bytes-heartbeats")
    let recorder = try HeartbeatRecorder(directory: directory, source: .monitorExtension)
    let perDay = 2_880
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    let (measurement, written) = try measure("a day of heartbeats, 30 s apart") { _ in
      for _ in 0..<perDay {
        time += 30
        try recorder.record(at: time, sequence: 42, memoryBytes: 3_000_000)
      }
    }
    report.add(
      row(
        measurement, written, information: perDay * 24,
        detail: "2,880 heartbeats of 24 bytes (instant, sequence, memory) into the default "
          + "day-long history, FileStore .processCrashSafe; the ring rewrote "
          + "\((perDay * 92_192).formatted()) B a day"))
  }

  /// A diagnostic entry every 5 minutes into the default 100-entry log, on a durable store.
  static func diagnosticRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let store = try FileStore(directory: try options.freshDirectory("bytes-diagnostics"))
    let log = DiagnosticLog(store: store)
    let perDay = 288
    var information = 0
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    var serial = 0
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func entry() throws -> DiagnosticEntry {
      serial += 1
      time += 300
      return try DiagnosticEntry(
        id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", serial)) ?? UUID(),
        at: time, eventName: "stk:15m:com.example.app\(serial % 7)", action: .recordUsage,
        success: serial % 5 != 0, errorDescription: serial % 5 == 0 ? "disk full" : nil,
        memoryBytes: 3_000_000 + UInt64(serial))
    }
    var measuring = false
    let (measurement, written) = try measure("a day of diagnostic entries, 5 min apart") {
      index in
      measuring = index >= warmupDays
      for _ in 0..<perDay {
        let entry = try entry()
        if measuring { information += try encoder.encode(entry).count }
        try log.append(entry)
      }
    }
    report.add(
      row(
        measurement, written, information: information / measuredDays,
        detail: "288 entries (their JSON) into the default 100-entry log, FileStore .durable"))
  }

  /// A monitor fact a minute into the default outbox of 1,024, on a durable store.
  static func outboxRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let store = try FileStore(directory: try options.freshDirectory("bytes-outbox"))
    let outbox = try SequencedOutbox<MonitorFact>(
      store: store, key: MonitorRecorder.defaultOutboxKey,
      capacity: MonitorRecorder.defaultOutboxCapacity)
    let perDay = 1_440
    var information = 0
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    var serial = 0
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var measuring = false
    let (measurement, written) = try measure("a day of outbox publishes, 1 a minute") { index in
      measuring = index >= warmupDays
      for _ in 0..<perDay {
        serial += 1
        time += 60
        let fact = try MonitorFact(
          .eventDidReachThreshold, activity: "daily", event: "stk:\(serial % 60)m:app\(serial % 9)",
          at: time)
        if measuring { information += try encoder.encode(fact).count }
        try outbox.publish(fact) { _ in }
      }
    }
    report.add(
      row(
        measurement, written, information: information / measuredDays,
        detail: "1,440 monitor facts (their JSON) into an outbox of 1,024, FileStore .durable"))
  }
}
