import Foundation
import GapDetection
import SharedStore
import UsageModel

/// Merging and gap-detecting a million heartbeats against a plain loop over the same array; the
/// ActivityWatch JSON Lines merge of a million lines end to end, in time and peak memory; and the
/// recorder's hot path against a plain `FileStore.update` and a JSON history.
enum GapDetectionBenchmarks {
  static let suite = BenchmarkSuite(
    name: "gapdetection",
    summary: "1M heartbeats merged + gap-detected vs a plain loop; 1M-line ActivityWatch merge",
    run: run
  )

  static func run(_ options: BenchmarkOptions, _ report: inout Report) throws {
    // The end-to-end merge runs first, so that the peak memory it reports is its own.
    try runEndToEnd(options, &report)
    try runInMemory(options, &report)
    try runLongEvidence(options, &report)
    try runRecorder(options, &report)
  }

  // MARK: - Evidence that spans the whole period

  /// 80 days of a tracker that flaps (alive 60 s, silent 6 minutes), with and without one
  /// notification hole as long as the period: every gap then carries the hole, the case in
  /// which attaching evidence to gaps must not become quadratic.
  static func runLongEvidence(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let days = options.quick ? 10 : 80
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    let end = start.addingTimeInterval(Double(days) * 86_400)
    var beats: [Heartbeat] = []
    var time = start
    while time < end {
      for offset in [0.0, 30, 60] {
        beats.append(try Heartbeat(at: time.addingTimeInterval(offset), source: .monitorExtension))
      }
      time = time.addingTimeInterval(420)
    }
    let hole = try MissedSequence(numbers: 2...900, after: start, before: end)
    guard let utc = TimeZone(identifier: "UTC") else {
      throw UsageModelError.unknownTimeZone(identifier: "UTC")
    }
    let detector = GapDetector(boundary: DayBoundary(timeZone: utc))
    let period = DateInterval(start: start, end: end)
    let rounds = options.quick ? 3 : 10
    var gaps = (0, 0)
    let without = Measurement.bulk("GapDetector.report, flapping tracker", rounds: rounds) {
      let result = detector.report(period: period, now: end, heartbeats: beats, usage: [])
      gaps.0 = result.gaps.count
      consume(result)
    }
    let with = Measurement.bulk(
      "GapDetector.report, flapping tracker + one period-long hole", rounds: rounds
    ) {
      let result = detector.report(
        period: period, now: end, heartbeats: beats, usage: [], missedSequences: [hole])
      gaps.1 = result.gaps.count
      consume(result)
    }
    report.add(
      Report.Row(
        suite: suite.name, measurement: with, baseline: without, target: .atMost(4),
        note: "\(days) days, \(beats.count) heartbeats; \(gaps.0) gaps without the hole, "
          + "\(gaps.1) with it, each carrying the hole"))
  }

  // MARK: - A million heartbeats in memory

  static func runInMemory(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let count = options.quick ? 50_000 : 1_000_000
    let workload = try Workload(count: count)
    let rounds = options.quick ? 3 : 10
    let note =
      "\(count) heartbeats 30 s ± 20 % apart, \(workload.records.count) usage records, "
      + "\(workload.silences) silences"

    let plain = Measurement.bulk("plain loop: longest silence", rounds: rounds) {
      consume(longestSilence(workload.heartbeats))
    }
    let fixed = try Measurement.bulk("merge, fixed 31 s pulse", rounds: rounds) {
      consume(try HeartbeatMerger.merge(workload.heartbeats, pulseTime: .fixed(.seconds(31))))
    }
    let adaptive = try Measurement.bulk("merge, adaptive pulse", rounds: rounds) {
      consume(try HeartbeatMerger.merge(workload.heartbeats, pulseTime: .adaptive(.standard)))
    }
    let detector = GapDetector(boundary: workload.boundary)
    let detect = Measurement.bulk("GapDetector.report", rounds: rounds) {
      consume(
        detector.report(
          period: workload.period, now: workload.period.end, heartbeats: workload.heartbeats,
          usage: workload.records))
    }
    let both = try Measurement.bulk("merge (adaptive) + GapDetector.report", rounds: rounds) {
      consume(try HeartbeatMerger.merge(workload.heartbeats, pulseTime: .adaptive(.standard)))
      consume(
        detector.report(
          period: workload.period, now: workload.period.end, heartbeats: workload.heartbeats,
          usage: workload.records))
    }
    report.add(
      Report.Row(
        suite: suite.name, measurement: both, baseline: plain, target: .atMost(10), note: note))
    for measurement in [fixed, adaptive, detect] {
      report.add(
        Report.Row(
          suite: suite.name, measurement: measurement, baseline: plain, target: nil, note: note))
    }
  }

  /// The floor: one pass over the array reading each heartbeat's instant.
  static func longestSilence(_ heartbeats: [Heartbeat]) -> TimeInterval {
    var longest: TimeInterval = 0
    var previous = heartbeats.first?.at.timeIntervalSince1970 ?? 0
    for heartbeat in heartbeats {
      let time = heartbeat.at.timeIntervalSince1970
      longest = max(longest, time - previous)
      previous = time
    }
    return longest
  }

  // MARK: - A million ActivityWatch lines, end to end

  static func runEndToEnd(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let count = options.quick ? 50_000 : 1_000_000
    let directory = try options.freshDirectory("activitywatch")
    let input = directory.appendingPathComponent("heartbeats.jsonl")
    let output = directory.appendingPathComponent("events.jsonl")
    let size = try writeActivityWatchLines(count: count, to: input)
    if let keep = ProcessInfo.processInfo.environment["STK_GAPDETECTION_KEEP_INPUT"] {
      try? FileManager.default.removeItem(atPath: keep)
      try FileManager.default.copyItem(at: input, to: URL(fileURLWithPath: keep))
    }
    let rounds = options.quick ? 2 : 5
    let lines = Measurement.bulk("read + split lines only (memchr)", rounds: rounds) {
      consume(countLines(input))
    }
    var summaries: [String: ActivityWatchMergeSummary] = [:]
    var peaks: [String: Int] = [:]
    var rows: [(Measurement, String)] = []
    for (name, pulse) in [
      ("fixed 30 s", PulseTime.fixed(.seconds(30))), ("adaptive", .adaptive(.standard)),
    ] {
      var peak = 0
      let measurement = try Measurement.bulk(
        "ActivityWatch JSON Lines merge, \(name) pulse", rounds: rounds, warmup: 0
      ) {
        let before = resetPeakMemory()
        summaries[name] = try ActivityWatchJSONLines.merge(
          contentsOf: input, into: output, pulseTime: pulse)
        peak = max(peak, peakMemory() - before)
      }
      peaks[name] = peak
      rows.append((measurement, name))
      // For comparing with ActivityWatch's own merge by hand (Documentation/Performance.md).
      if let keep = ProcessInfo.processInfo.environment["STK_GAPDETECTION_KEEP_INPUT"] {
        let kept = keep + "." + name.replacingOccurrences(of: " ", with: "-") + ".merged.jsonl"
        try? FileManager.default.removeItem(atPath: kept)
        try FileManager.default.copyItem(at: output, to: URL(fileURLWithPath: kept))
      }
    }
    let budget = Measurement(
      name: "budget: 2 s per million lines",
      samples: [.milliseconds(2000 * Int64(count) / 1_000_000)])
    for (measurement, name) in rows {
      let summary = summaries[name] ?? ActivityWatchMergeSummary()
      let peak = peaks[name] ?? 0
      let note =
        "\(count) lines, \(size / 1_000_000) MB in, \(summary.eventsWritten) events out; "
        + "peak RSS growth \(String(format: "%.1f", Double(peak) / 1_048_576)) MiB, process peak "
        + "\(String(format: "%.1f", Double(processPeakMemory()) / 1_048_576)) MiB (budget 100 MB)"
      report.add(
        Report.Row(
          suite: suite.name, measurement: measurement, baseline: budget, target: .atMost(1.0),
          note: note))
      report.add(
        Report.Row(
          suite: suite.name, measurement: measurement, baseline: lines, target: nil,
          note: "the same run against reading the file and finding its line breaks"))
    }
  }

  /// Writes `count` heartbeats in ActivityWatch's export form: eight apps, a new app drawn at
  /// one heartbeat in twenty, 30 s ± 20 % apart, microsecond timestamps with `+00:00`.
  static func writeActivityWatchLines(count: Int, to url: URL) throws -> Int {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var random = SeededRandom(seed: 0x0005_2026)
    let apps = [
      ("Safari", "ScreenTimeKit — Documentation"), ("Mail", "Inbox (3)"),
      ("Duolingo", "Lesson 12: Past tense"), ("Xcode", "GapDetector.swift"),
      ("Messages", "Family"), ("YouTube", "How clocks change"), ("Notes", "Shopping"),
      ("Terminal", "swift test"),
    ]
    var app = 0
    var milliseconds: Int64 = 1_772_928_000_000
    var buffer = ""
    var size = 0
    for index in 0..<count {
      if random.next() % 20 == 0 { app = Int(random.next() % UInt64(apps.count)) }
      // `2026-03-08T06:00:00Z` of the whole second, then ActivityWatch's microseconds.
      let stamp = ISO8601Instant.format(milliseconds / 1000 * 1000).dropLast()
      let millis = milliseconds % 1000
      let fraction = (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)000"
      buffer +=
        "{\"id\": \(index + 1), \"timestamp\": \"\(stamp).\(fraction)+00:00\", "
        + "\"duration\": 0.0, \"data\": {\"app\": \"\(apps[app].0)\", \"title\": \"\(apps[app].1)\"}}\n"
      milliseconds += 24_000 + Int64(random.next() % 12_001)
      if buffer.utf8.count > 1 << 22 {
        size += buffer.utf8.count
        handle.write(Data(buffer.utf8))
        buffer = ""
      }
    }
    size += buffer.utf8.count
    handle.write(Data(buffer.utf8))
    return size
  }

  /// Reads the file in 1 MiB chunks and counts its line breaks.
  static func countLines(_ url: URL) -> Int {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return -1 }
    defer { try? handle.close() }
    var lines = 0
    while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      chunk.withUnsafeBytes { bytes in
        var position = 0
        while position < bytes.count, let base = bytes.baseAddress,
          let found = memchr(base + position, 0x0A, bytes.count - position)
        {
          lines += 1
          position = base.distance(to: UnsafeRawPointer(found)) + 1
        }
      }
    }
    return lines
  }

  /// Resets the process's peak resident size to its current size (Linux `clear_refs`), and
  /// returns the current size in bytes; elsewhere returns the current peak.
  static func resetPeakMemory() -> Int {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    return processPeakMemory()
  }

  /// The peak resident size in bytes since the last reset.
  static func peakMemory() -> Int { processPeakMemory() }

  /// `VmHWM` of `/proc/self/status` on Linux, `ru_maxrss` (bytes) elsewhere.
  static func processPeakMemory() -> Int {
    #if os(Linux)
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
    #else
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #endif
  }

  // MARK: - The recorder's hot path

  static func runRecorder(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(300)
    let directory = try options.freshDirectory("recorder")
    let store = try FileStore(directory: directory, durability: .processCrashSafe)
    let recorder = try HeartbeatRecorder(store: store, source: .monitorExtension)
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    for _ in 0..<HeartbeatRecorder.defaultCapacity {
      try recorder.record(at: time, sequence: 1, memoryBytes: 3_000_000)
      time += 30
    }
    let small = Data(count: 100)
    let baseline = try Measurement.run(
      "FileStore.update of a 100-byte value (.processCrashSafe)", iterations: iterations
    ) {
      try store.update("small") { data in
        data = data == small ? Data(count: 101) : small
      }
    }
    var before = resetPeakMemory()
    let measured = try Measurement.run(
      "HeartbeatRecorder.record into a full day (2,880)", iterations: iterations
    ) {
      time += 30
      try recorder.record(at: time, sequence: 1, memoryBytes: 3_000_000)
    }
    let ringPeak = peakMemory() - before
    let history = StoreKey("naive-history", default: [Heartbeat]())
    try store.set(try recorder.history().heartbeats, for: history)
    before = resetPeakMemory()
    let naive = try Measurement.run(
      "naive: JSON [Heartbeat] of 2,880, decode + append + encode",
      iterations: options.iterations(60)
    ) {
      time += 30
      let beat = try Heartbeat(at: time, source: .monitorExtension)
      try store.update(history) { beats in
        beats.removeFirst()
        beats.append(beat)
      }
    }
    let naivePeak = peakMemory() - before
    func kibibytes(_ bytes: Int) -> String { "\(max(0, bytes) / 1024) KiB" }
    report.add(
      Report.Row(
        suite: suite.name, measurement: measured, baseline: baseline, target: .atMost(2),
        note: "92,192-byte ring, FileStore .processCrashSafe, \(iterations) iterations; "
          + "peak RSS growth while recording \(kibibytes(ringPeak))"))
    report.add(
      Report.Row(
        suite: suite.name, measurement: measured, baseline: naive, target: .atLeastFaster(3),
        note: "the same 2,880 heartbeats as a JSON array under one key; peak RSS growth "
          + "\(kibibytes(naivePeak)) for JSON against \(kibibytes(ringPeak)) for the ring"))
  }
}

// Helpers of this suite, nested so that they cannot clash with other suites' names.
extension GapDetectionBenchmarks {
  /// A year of heartbeats 30 s ± 20 % apart (one 10-minute silence in 2,000), with a usage
  /// record over one heartbeat interval in 50.
  struct Workload {
    let heartbeats: [Heartbeat]
    let records: [UsageRecord]
    let boundary: DayBoundary
    let period: DateInterval
    let silences: Int

    init(count: Int) throws {
      guard let timeZone = TimeZone(identifier: "America/New_York") else {
        throw UsageModelError.unknownTimeZone(identifier: "America/New_York")
      }
      boundary = DayBoundary(timeZone: timeZone)
      var random = SeededRandom(seed: 0x0005_0001)
      let app = try AppID("com.example.app")
      var time = Date(timeIntervalSince1970: 1_767_225_600)
      let start = time
      var heartbeats: [Heartbeat] = []
      var records: [UsageRecord] = []
      heartbeats.reserveCapacity(count)
      var silences = 0
      for _ in 0..<count {
        heartbeats.append(try Heartbeat(at: time, source: .monitorExtension))
        var step = Double(24_000 + random.next() % 12_001) / 1000
        if random.next() % 2_000 == 0 {
          step = 600
          silences += 1
        }
        if random.next() % 50 == 0 {
          records.append(
            try UsageRecord(app: app, start: time, duration: step, source: .heartbeat))
        }
        time += step
      }
      self.heartbeats = heartbeats
      self.records = records
      self.silences = silences
      period = DateInterval(start: start, end: time)
    }
  }

  /// SplitMix64, so that every run measures the same data.
  struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }

  /// Keeps a result alive so that the optimiser cannot drop the work that produced it.
  @inline(never)
  static func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
  }
}
