import Foundation
import GapDetection
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// Merging and gap-detecting a million heartbeats against a plain loop over the same array; the
/// ActivityWatch JSON Lines merge of a million lines end to end, in time and peak memory; and the
/// recorder's hot path against a plain `FileStore.update` and a JSON history.
enum GapDetectionBenchmarks {
  static let suite = BenchmarkSuite(
    name: "gapdetection",
    summary: "1M heartbeats merged + gap-detected vs a plain loop; 1M-line ActivityWatch merge",
    scenarios: [
      Scenario(LineShape.scenarios) { try runEndToEnd($0, &$1) },
      Scenario(recorderScenarios) { try runRecorder($0, &$1) },
      Scenario([combinedName, fixedName, adaptiveName, reportName]) { try runInMemory($0, &$1) },
      Scenario([longEvidenceName]) { try runLongEvidence($0, &$1) },
    ]
  )

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
    let hole = try SequenceLoss(
      range: SequenceRange(epoch: SequenceEpoch(rawValue: 1), values: 2...900), after: start,
      before: end)
    guard let utc = TimeZone(identifier: "UTC") else {
      throw UsageModelError.unknownTimeZone(identifier: "UTC")
    }
    let detector = GapDetector(boundary: DayBoundary(timeZone: utc))
    let period = DateInterval(start: start, end: end)
    let rounds = options.quick ? 3 : 10
    var gaps = (0, 0)
    let without = Measurement.bulk(
      "GapDetector.report, flapping tracker", rounds: rounds, clock: .cpu
    ) {
      let result = detector.report(period: period, now: end, heartbeats: beats, usage: [])
      gaps.0 = result.gaps.count
      consume(result)
    }
    let with = Measurement.bulk(longEvidenceName, rounds: rounds, clock: .cpu) {
      let result = detector.report(
        period: period, now: end, heartbeats: beats, usage: [], missedSequences: [hole])
      gaps.1 = result.gaps.count
      consume(result)
    }
    report.add(
      Report.Row(
        suite: suite.name, scenario: longEvidenceName,
        workSize: "\(days) days, \(beats.count.grouped) heartbeats", figure: .init(with),
        baseline: Report.Baseline(without), target: .atMost(4),
        limit: "The hole doubles the gaps (\(gaps.0.grouped) without, \(gaps.1.grouped) with), "
          + "and each costs a constant amount, so about 2×; attaching the hole by rescanning "
          + "made it quadratic, 73×.",
        note: "a tracker alive 60 s and silent 6 minutes; every gap carries the hole"))
  }

  static let longEvidenceName = "GapDetector.report, flapping tracker + one period-long hole"

  // MARK: - A million heartbeats in memory

  static func runInMemory(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let count = options.quick ? 50_000 : 1_000_000
    let workload = try Workload(count: count)
    let rounds = options.quick ? 3 : 10
    let workSize = "\(count.grouped) heartbeats"
    let note =
      "30 s ± 20 % apart, \(workload.records.count.grouped) usage records, "
      + "\(workload.silences) silences, America/New_York"

    let plain = Measurement.bulk("plain loop: longest silence", rounds: rounds, clock: .cpu) {
      consume(longestSilence(workload.heartbeats))
    }
    let fixed = Measurement.bulk(fixedName, rounds: rounds, clock: .cpu) {
      consume(HeartbeatMerger.merge(workload.heartbeats, pulseTime: .fixed(.seconds(31))))
    }
    let adaptive = Measurement.bulk(adaptiveName, rounds: rounds, clock: .cpu) {
      consume(HeartbeatMerger.merge(workload.heartbeats, pulseTime: .adaptive(.standard)))
    }
    let detector = GapDetector(boundary: workload.boundary)
    let detect = Measurement.bulk(reportName, rounds: rounds, clock: .cpu) {
      consume(
        detector.report(
          period: workload.period, now: workload.period.end, heartbeats: workload.heartbeats,
          usage: workload.records))
    }
    let both = Measurement.bulk(combinedName, rounds: rounds, clock: .cpu) {
      consume(HeartbeatMerger.merge(workload.heartbeats, pulseTime: .adaptive(.standard)))
      consume(
        detector.report(
          period: workload.period, now: workload.period.end, heartbeats: workload.heartbeats,
          usage: workload.records))
    }
    report.add(
      Report.Row(
        suite: suite.name, scenario: combinedName, workSize: workSize, figure: .init(both),
        baseline: Report.Baseline(plain), target: .atMost(10),
        limit: "One pass reading each heartbeat's instant is the floor of any merge; the merge "
          + "and the report are each a constant number of passes over the heartbeats.",
        note: note))
    for measurement in [fixed, adaptive, detect] {
      report.add(
        Report.Row(
          suite: suite.name, scenario: measurement.name, workSize: workSize,
          figure: .init(measurement), baseline: Report.Baseline(plain), target: nil, limit: nil,
          note: note))
    }
  }

  static let combinedName = "merge (adaptive) + GapDetector.report"
  static let fixedName = "merge, fixed 31 s pulse"
  static let adaptiveName = "merge, adaptive pulse"
  static let reportName = "GapDetector.report"

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

  // MARK: - The recorder's hot path

  static func recorderName(_ capacity: Int) -> String {
    let label = capacity == HeartbeatRecorder.defaultCapacity ? "day" : "week"
    return "HeartbeatRecorder.record into a full \(label) (\(capacity.grouped))"
  }

  static let recorderCapacities = [
    HeartbeatRecorder.defaultCapacity, HeartbeatRecorder.maximumCapacity,
  ]
  static let recorderScenarios = recorderCapacities.map(recorderName)

  static func runRecorder(_ options: BenchmarkOptions, _ report: inout Report) throws {
    var memory = PeakMemory()
    let iterations = options.iterations(300)
    let directory = try options.freshDirectory("recorder")
    let store = try FileStore(directory: directory, durability: .processCrashSafe)
    let small = Data(count: 100)
    func update() throws {
      try store.update("small") { data in
        data = data == small ? Data(count: 101) : small
      }
    }
    var time = Date(timeIntervalSince1970: 1_772_928_000)
    func beat(_ recorder: HeartbeatRecorder) throws {
      time += 30
      try recorder.record(at: time, sequence: 1, memoryBytes: 3_000_000)
    }

    var rows:
      [(capacity: Int, measured: Measurement, baseline: Measurement, cycle: Duration, growth: Int?)] =
        []
    for (source, capacity) in zip(
      [HeartbeatSource.monitorExtension, .reportExtension], recorderCapacities)
    {
      let recorder = try HeartbeatRecorder(store: store, source: source, capacity: capacity)
      // Full, and half-way to the next compaction: the file holds 1.5 × the capacity.
      for _ in 0..<(capacity + capacity / 2) { try beat(recorder) }
      let (measured, baseline) = try Measurement.paired(
        recorderName(capacity), against: "FileStore.update of a 100-byte value (.processCrashSafe)",
        iterations: iterations, baseline: update, measuring: { try beat(recorder) })
      // Any capacity + 1 records in a row include exactly one compaction.
      let cycle = try Measurement.bulk("cycle", rounds: 1, warmup: 0) {
        for _ in 0...capacity { try beat(recorder) }
      }
      // The peak memory of a record that compacts: the file then holds 2 × the capacity.
      let fresh = try HeartbeatRecorder(store: store, source: .app, capacity: capacity)
      for _ in 0..<(2 * capacity) { try beat(fresh) }
      memory.reset()
      try beat(fresh)
      rows.append(
        (capacity, measured, baseline, cycle.median / (capacity + 1), memory.peakGrowth()))
      try fresh.clear()
    }
    // Memory of one ordinary record, untimed: the reset trims the heap.
    let day = HeartbeatRecorder(store: store, source: .monitorExtension)
    memory.reset()
    try beat(day)
    let recordGrowth = memory.peakGrowth()

    let history = StoreKey("naive-history", default: [Heartbeat]())
    try store.set(try day.history().heartbeats, for: history)
    func naiveRecord() throws {
      time += 30
      let beat = try Heartbeat(at: time, source: .monitorExtension)
      try store.update(history) { beats in
        beats.removeFirst()
        beats.append(beat)
      }
    }
    let naive = try Measurement.run(
      "naive: JSON [Heartbeat] of 2,880, decode + append + encode",
      iterations: options.iterations(60), naiveRecord)
    memory.reset()
    try naiveRecord()
    let naiveGrowth = memory.peakGrowth()

    for row in rows {
      report.add(
        Report.Row(
          suite: suite.name, scenario: row.measured.name,
          workSize: "one heartbeat × \(iterations.grouped)", figure: .init(row.measured),
          baseline: Report.Baseline(row.baseline), target: .atMost(1.3),
          limit: "Without flushes both are system calls and copies into the page cache: the "
            + "record reads the log's end and appends about 40 bytes, the update creates, "
            + "writes and renames a file. The history's length must not show.",
          note: "FileStore .processCrashSafe, the file half-way between compactions; timed "
            + "alternately; mean over a whole compaction cycle "
            + "(\((row.capacity + 1).grouped) records, one compaction) \(row.cycle.formatted); "
            + "peak RSS growth of one record \(PeakMemory.kibibytes(recordGrowth)), of the "
            + "record that compacts \(PeakMemory.kibibytes(row.growth))"))
    }
    report.add(
      Report.Row(
        suite: suite.name, scenario: rows[0].measured.name,
        workSize: "one heartbeat × \(iterations.grouped)", figure: .init(rows[0].measured),
        baseline: Report.Baseline(naive), target: .atLeastFaster(3),
        limit: "The JSON array is decoded and encoded whole, 2,880 heartbeats (about 90 KB), at "
          + "every record; the log touches the record's 40 bytes and the end of the file.",
        note: "the same 2,880 heartbeats as a JSON array under one key; peak RSS growth of "
          + "one record \(PeakMemory.kibibytes(naiveGrowth)) for JSON against "
          + "\(PeakMemory.kibibytes(recordGrowth)) for the log"))
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
