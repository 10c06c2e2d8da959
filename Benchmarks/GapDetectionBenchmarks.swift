import Foundation
import GapDetection
import SharedStore
import TrackerSignals
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
    var memory = PeakMemory()
    // The end-to-end merge runs first, so that the process peak it reports is its own.
    try runEndToEnd(options, &report, &memory)
    try runRecorder(options, &report, &memory)
    try runInMemory(options, &report)
    try runLongEvidence(options, &report)
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
    let fixed = Measurement.bulk("merge, fixed 31 s pulse", rounds: rounds) {
      consume(HeartbeatMerger.merge(workload.heartbeats, pulseTime: .fixed(.seconds(31))))
    }
    let adaptive = Measurement.bulk("merge, adaptive pulse", rounds: rounds) {
      consume(HeartbeatMerger.merge(workload.heartbeats, pulseTime: .adaptive(.standard)))
    }
    let detector = GapDetector(boundary: workload.boundary)
    let detect = Measurement.bulk("GapDetector.report", rounds: rounds) {
      consume(
        detector.report(
          period: workload.period, now: workload.period.end, heartbeats: workload.heartbeats,
          usage: workload.records))
    }
    let both = Measurement.bulk("merge (adaptive) + GapDetector.report", rounds: rounds) {
      consume(HeartbeatMerger.merge(workload.heartbeats, pulseTime: .adaptive(.standard)))
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

  // MARK: - The recorder's hot path

  static func runRecorder(
    _ options: BenchmarkOptions, _ report: inout Report, _ memory: inout PeakMemory
  ) throws {
    let iterations = options.iterations(300)
    let directory = try options.freshDirectory("recorder")
    let store = try FileStore(directory: directory, durability: .processCrashSafe)
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
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
    let measured = try Measurement.run(
      "HeartbeatRecorder.record into a full day (2,880)", iterations: iterations
    ) {
      time += 30
      try recorder.record(at: time, sequence: 1, memoryBytes: 3_000_000)
    }
    // Memory of one more record, untimed: the reset trims the heap.
    memory.reset()
    time += 30
    try recorder.record(at: time, sequence: 1, memoryBytes: 3_000_000)
    let ringGrowth = memory.peakGrowth()
    let history = StoreKey("naive-history", default: [Heartbeat]())
    try store.set(try recorder.history().heartbeats, for: history)
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

    // A full ring of the largest capacity, written in the documented layout (recording 20,160
    // heartbeats one by one would copy the growing ring 20,160 times).
    let largest = try HeartbeatRecorder(
      store: store, source: .reportExtension, capacity: HeartbeatRecorder.maximumCapacity)
    try store.write(
      fullRing(capacity: HeartbeatRecorder.maximumCapacity, from: time), for: largest.key)
    time += Double(HeartbeatRecorder.maximumCapacity) * 30
    let atMaximum = try Measurement.run(
      "HeartbeatRecorder.record into a full ring of maximumCapacity (20,160)",
      iterations: options.iterations(100)
    ) {
      time += 30
      try largest.record(at: time, sequence: 1, memoryBytes: 3_000_000)
    }
    memory.reset()
    time += 30
    try largest.record(at: time, sequence: 1, memoryBytes: 3_000_000)
    let largestGrowth = memory.peakGrowth()

    report.add(
      Report.Row(
        suite: suite.name, measurement: measured, baseline: baseline, target: .atMost(2),
        note: "92,192-byte ring, FileStore .processCrashSafe, \(iterations) iterations; "
          + "peak RSS growth of one record \(PeakMemory.kibibytes(ringGrowth))"))
    report.add(
      Report.Row(
        suite: suite.name, measurement: measured, baseline: naive, target: .atLeastFaster(3),
        note: "the same 2,880 heartbeats as a JSON array under one key; peak RSS growth of "
          + "one record \(PeakMemory.kibibytes(naiveGrowth)) for JSON against "
          + "\(PeakMemory.kibibytes(ringGrowth)) for the ring"))
    report.add(
      Report.Row(
        suite: suite.name, measurement: atMaximum, baseline: measured, target: nil,
        note: "645,152-byte ring (7x the default), the same store; peak RSS growth of one "
          + "record \(PeakMemory.kibibytes(largestGrowth))"))
  }

  /// The stored bytes of a full ring of `capacity` heartbeats 30 s apart from `start`, in the
  /// layout the `TheHeartbeatHotPath` article documents.
  static func fullRing(capacity: Int, from start: Date) -> Data {
    var bytes: [UInt8] = Array("STKH".utf8)
    bytes.reserveCapacity(32 + 32 * capacity)
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    append(UInt16(1))
    append(UInt16(32))
    append(UInt32(capacity))
    append(UInt32(capacity))
    append(UInt32(0))
    append(UInt32(0))
    append(UInt64(capacity))
    let first = Int64(start.timeIntervalSince1970 * 1000)
    for index in 0..<capacity {
      append(first + Int64(index) * 30_000)
      append(UInt64(1))
      append(UInt64(3_000_000))
      bytes += [0b11, 0, 0, 0, 0, 0, 0, 0]
    }
    return Data(bytes)
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
