import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals

/// Bytes written per simulated day by what an extension records all day long — heartbeats, a
/// diagnostic log, outbox publishes — against the information recorded, compaction included.
enum BytesWrittenBenchmarks {
  static let suite = BenchmarkSuite(
    name: "bytes",
    summary: "bytes written per simulated day (heartbeats, diagnostics, outbox) vs information",
    scenarios: [
      Scenario([heartbeatName]) { try heartbeatRow($0, &$1) },
      Scenario([diagnosticName]) { try diagnosticRow($0, &$1) },
      Scenario([outboxName]) { try outboxRow($0, &$1) },
    ]
  )

  static let heartbeatName = "bytes written by a day of heartbeats, 30 s apart"
  static let diagnosticName = "bytes written by a day of diagnostic entries, 5 min apart"
  static let outboxName = "bytes written by a day of outbox publishes, 1 a minute"

  static let limit =
    "A record's frame adds a few bytes of header and a checksum to the record, and compaction "
    + "rewrites the kept records once per capacity appends, at most once more: 2 to 3× for "
    + "records of 24 to 180 bytes. A log that rewrote its history at each record would write "
    + "thousands of times the information."

  /// Records `capacity` records (so that the log is full), unless `filled` says it is, then
  /// measures whole compaction cycles — `capacity + 1` records each, one compaction each —
  /// covering at least two days (one cycle with `--quick`), and returns the time and the bytes
  /// written scaled to one day of `perDay` records.
  ///
  /// `record` records one record and returns the bytes of information in it. Nothing may be
  /// printed meanwhile.
  static func measure(
    _ name: String, options: BenchmarkOptions, capacity: Int, perDay: Int, filled: Bool = false,
    _ record: () throws -> Int
  ) throws -> (Measurement, ProcessIO, information: Int, records: Int) {
    if !filled {
      for _ in 0..<capacity { _ = try record() }
    }
    let cycles = options.quick ? 1 : (2 * perDay + capacity) / (capacity + 1)
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
    workSize: String, detail: String
  ) -> Report.Row {
    let (measurement, written, information, records) = measured
    return Report.Row(
      suite: suite.name, scenario: measurement.name, workSize: workSize,
      figure: Report.Figure(bytes: written.wchar),
      baseline: Report.Baseline(name: "the information recorded", bytes: information),
      target: .atMost(4), limit: limit,
      note: "bytes passed to write (wchar) per day; \(detail); write_bytes "
        + "\(written.writeBytes.grouped) B (whole pages); a day took "
        + "\(measurement.median.formatted); measured over \(records.grouped) records after "
        + "\(capacity.grouped), whole compaction cycles, scaled to a day")
  }

  // MARK: - The rows

  /// A heartbeat every 30 s, each with a sequence and a memory figure: 24 bytes of information
  /// (an instant, a sequence and a memory figure of 8 bytes each).
  static func heartbeatRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    guard ProcessIO.now() != nil else {
      return report.skip(heartbeatName, reason: "/proc/self/io is not available on this system")
    }
    let directory = try options.freshDirectory("bytes-heartbeats")
    let recorder = try HeartbeatRecorder(directory: directory, source: .monitorExtension)
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    let measured = try measure(
      heartbeatName, options: options, capacity: recorder.capacity, perDay: 2_880
    ) {
      time += 30
      try recorder.record(at: time, sequence: 42, memoryBytes: 3_000_000)
      return 24
    }
    report.add(
      row(
        measured, capacity: recorder.capacity, workSize: "2,880 heartbeats of 24 B",
        detail: "into the default day-long history, FileStore .processCrashSafe; the ring "
          + "rewrote \((2_880 * 92_192).grouped) B a day"))
  }

  /// A diagnostic entry every 5 minutes into the default 100-entry log, on a durable store.
  static func diagnosticRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    guard ProcessIO.now() != nil else {
      return report.skip(diagnosticName, reason: "/proc/self/io is not available on this system")
    }
    let store = try FileStore(directory: try options.freshDirectory("bytes-diagnostics"))
    let log = try SharedFolder(store: store).diagnostics
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    var serial = 0
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let measured = try measure(
      diagnosticName, options: options, capacity: DiagnosticLog.defaultCapacity, perDay: 288
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
        workSize: "288 entries of about 180 B of JSON",
        detail: "into the default 100-entry log, FileStore .durable"))
  }

  /// A monitor fact a minute into the default outbox of 1,024, on a durable store.
  static func outboxRow(_ options: BenchmarkOptions, _ report: inout Report) throws {
    guard ProcessIO.now() != nil else {
      return report.skip(outboxName, reason: "/proc/self/io is not available on this system")
    }
    let store = try FileStore(directory: try options.freshDirectory("bytes-outbox"))
    let capacity = SharedFolderLayout.standard.outboxCapacity
    let outbox = try SequencedOutbox<MonitorFact>(
      store: store, key: SharedFolderLayout.standard.outboxKey, capacity: capacity)
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    var serial = 0
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func fact() throws -> MonitorFact {
      serial += 1
      time += 60
      return try MonitorFact(
        .eventDidReachThreshold, activity: "daily", event: "stk:\(serial % 60)m:app\(serial % 9)",
        at: time)
    }
    // Filled in one append: one flush instead of a thousand, the same file once compacted.
    try outbox.publish(contentsOf: (0..<capacity).map { _ in try fact() }) { _ in }
    let measured = try measure(
      outboxName, options: options, capacity: capacity, perDay: 1_440, filled: true
    ) {
      let fact = try fact()
      try outbox.publish(fact) { _ in }
      return try encoder.encode(fact).count
    }
    report.add(
      row(
        measured, capacity: capacity, workSize: "1,440 monitor facts of about 107 B of JSON",
        detail: "into an outbox of 1,024, FileStore .durable"))
  }
}
