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

  static func run(_ options: BenchmarkOptions, _ report: inout Report) throws {
    guard ProcessIO.now() != nil else {
      print("| bytes | — | not measured: /proc/self/io is not available on this system |")
      return
    }
    try heartbeatRow(options, &report)
    try diagnosticRow(options, &report)
    try outboxRow(options, &report)
  }

  /// Records `capacity` records (so that the log is full), then measures whole compaction
  /// cycles — `capacity + 1` records each, one compaction each — covering at least two days, and
  /// returns the time and the bytes written scaled to one day of `perDay` records.
  ///
  /// `record` records one record and returns the bytes of information in it. Nothing may be
  /// printed meanwhile.
  static func measure(
    _ name: String, capacity: Int, perDay: Int, _ record: () throws -> Int
  ) throws -> (Measurement, ProcessIO, information: Int, records: Int) {
    for _ in 0..<capacity { _ = try record() }
    let cycles = (2 * perDay + capacity) / (capacity + 1)
    let records = cycles * (capacity + 1)
    var information = 0
    let clock = ContinuousClock()
    let start = clock.now
    guard let before = ProcessIO.now() else { throw BenchmarkError("no /proc/self/io") }
    for _ in 0..<records { information += try record() }
    guard let after = ProcessIO.now() else { throw BenchmarkError("no /proc/self/io") }
    let elapsed = clock.now - start
    let written = after - before
    func perDayShare(_ value: Int) -> Int { value * perDay / records }
    return (
      Measurement(name: name, samples: [elapsed * perDay / records]),
      ProcessIO(wchar: perDayShare(written.wchar), writeBytes: perDayShare(written.writeBytes)),
      perDayShare(information), records
    )
  }

  static func row(
    _ measured: (Measurement, ProcessIO, information: Int, records: Int), capacity: Int,
    detail: String
  ) -> Report.Row {
    let (measurement, written, information, records) = measured
    let ratio = Double(written.wchar) / Double(information)
    return Report.Row(
      suite: suite.name, measurement: measurement, baseline: nil, target: .atMost(4),
      note: "median is the time of one day; ratio is bytes written (wchar) per day, "
        + "\(written.wchar.formatted()) B, over the information recorded, "
        + "\(information.formatted()) B; write_bytes \(written.writeBytes.formatted()) B "
        + "(whole pages); \(detail); measured over \(records.formatted()) records after "
        + "\(capacity.formatted()), whole compaction cycles, scaled to a day",
      ratioOverride: ratio)
  }

  // MARK: - The rows

  /// A heartbeat every 30 s, each with a sequence and a memory figure: 24 bytes of information
  /// (an instant, a sequence and a memory figure of 8 bytes each).
  static func heartbeatRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let directory = try options.freshDirectory("bytes-heartbeats")
    let recorder = try HeartbeatRecorder(directory: directory, source: .monitorExtension)
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    let measured = try measure(
      "a day of heartbeats, 30 s apart", capacity: recorder.capacity, perDay: 2_880
    ) {
      time += 30
      try recorder.record(at: time, sequence: 42, memoryBytes: 3_000_000)
      return 24
    }
    report.add(
      row(
        measured, capacity: recorder.capacity,
        detail: "2,880 heartbeats of 24 bytes (instant, sequence, memory) a day into the "
          + "default day-long history, FileStore .processCrashSafe; the ring rewrote "
          + "\((2_880 * 92_192).formatted()) B a day"))
  }

  /// A diagnostic entry every 5 minutes into the default 100-entry log, on a durable store.
  static func diagnosticRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let store = try FileStore(directory: try options.freshDirectory("bytes-diagnostics"))
    let log = DiagnosticLog(store: store)
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    var serial = 0
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let measured = try measure(
      "a day of diagnostic entries, 5 min apart", capacity: DiagnosticLog.defaultCapacity,
      perDay: 288
    ) {
      serial += 1
      time += 300
      let entry = try DiagnosticEntry(
        id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", serial)) ?? UUID(),
        at: time, eventName: "stk:15m:com.example.app\(serial % 7)", action: .recordUsage,
        success: serial % 5 != 0, errorDescription: serial % 5 == 0 ? "disk full" : nil,
        memoryBytes: 3_000_000 + UInt64(serial))
      try log.append(entry)
      return try encoder.encode(entry).count
    }
    report.add(
      row(
        measured, capacity: DiagnosticLog.defaultCapacity,
        detail: "288 entries a day (their JSON) into the default 100-entry log, FileStore "
          + ".durable"))
  }

  /// A monitor fact a minute into the default outbox of 1,024, on a durable store.
  static func outboxRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let store = try FileStore(directory: try options.freshDirectory("bytes-outbox"))
    let capacity = MonitorRecorder.defaultOutboxCapacity
    let outbox = try SequencedOutbox<MonitorFact>(
      store: store, key: MonitorRecorder.defaultOutboxKey, capacity: capacity)
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    var serial = 0
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let measured = try measure(
      "a day of outbox publishes, 1 a minute", capacity: capacity, perDay: 1_440
    ) {
      serial += 1
      time += 60
      let fact = try MonitorFact(
        .eventDidReachThreshold, activity: "daily", event: "stk:\(serial % 60)m:app\(serial % 9)",
        at: time)
      try outbox.publish(fact) { _ in }
      return try encoder.encode(fact).count
    }
    report.add(
      row(
        measured, capacity: capacity,
        detail: "1,440 monitor facts a day (their JSON) into an outbox of 1,024, FileStore "
          + ".durable"))
  }
}
