import ActivityWatchInterop
import Foundation
import GapDetection
import TrackerSignals
import UsageModel

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension GapDetectionBenchmarks {
  // MARK: - A million ActivityWatch lines, end to end

  /// The shapes of input the end-to-end merge is timed on.
  enum LineShape: String {
    /// One spelling per app, ActivityWatch's own export form, durations 0.0: consecutive data of
    /// one app are byte-identical, so the merge never canonicalises.
    case uniform = "uniform data"
    /// Each line spells its app's data one of four ways (keys reordered, spacing, `\u` escapes)
    /// and has a duration with digits below the millisecond: three comparisons in four must
    /// canonicalise both sides.
    case varied = "varied data spellings"

    /// The pulse times the merge of this input is timed with, and the target of each: the
    /// largest ratio (of CPU times) to reading the file and finding its line breaks that meets
    /// it — twice the worst ratio measured when the targets were set, rounded up to ten
    /// (Performance.md).
    var pulses: [(name: String, pulse: PulseTime, maximumRatio: Double)] {
      switch self {
      case .uniform:
        return [
          ("fixed 30 s", .fixed(.seconds(30)), 80), ("adaptive", .adaptive(.standard), 60),
        ]
      case .varied: return [("fixed 30 s", .fixed(.seconds(30)), 130)]
      }
    }

    func scenario(_ pulseName: String) -> String {
      "ActivityWatch JSON Lines merge, \(pulseName) pulse, \(rawValue)"
    }

    static let scenarios = [LineShape.uniform, .varied].flatMap { shape in
      shape.pulses.map { shape.scenario($0.name) }
    }
  }

  static let mergeLimit =
    "Reading a file and finding its line breaks runs at memory speed; the merge must also parse "
    + "every line's JSON (a timestamp, a number, the data's strings), compare, and write the "
    + "events: a constant CPU cost per byte, tens of times a memchr scan, and no more."

  static func runEndToEnd(_ options: BenchmarkOptions, _ report: inout Report) throws {
    var memory = PeakMemory()
    // A quick run merges 200,000 lines: with fewer, the merge's fixed costs (creating and
    // renaming its output) weigh on the ratio.
    let count = options.size(1_000_000, quick: 200_000)
    let directory = try options.freshDirectory("activitywatch")
    let output = directory.appendingPathComponent("events.jsonl")
    let rounds = options.quick ? 2 : 5
    var uniformFixed: Measurement?
    for shape in [LineShape.uniform, .varied] {
      let input = directory.appendingPathComponent("heartbeats-\(shape).jsonl")
      let size = try writeActivityWatchLines(count: count, shape: shape, to: input)
      // For comparing with ActivityWatch's own merge by hand
      // (Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Performance.md).
      let keep = keptPath(shape)
      if let keep {
        try? FileManager.default.removeItem(atPath: keep)
        try FileManager.default.copyItem(at: input, to: URL(fileURLWithPath: keep))
      }
      let workSize = "\(count.grouped) lines, \(size / 1_000_000) MB"
      for (name, pulse, maximumRatio) in shape.pulses {
        var summary = ActivityWatchMergeSummary()
        // CPU time, alternately with the baseline, a round each: both see the same load.
        let (measurement, lines) = try Measurement.paired(
          shape.scenario(name),
          against: "read(2) the file into a 1 MiB buffer + memchr line breaks",
          iterations: rounds, warmup: 1, clock: .cpu,
          baseline: { consume(countLines(input)) },
          measuring: {
            summary = try ActivityWatchJSONLines.merge(
              contentsOf: input, into: output, pulseTime: pulse)
          })
        // A fast merge of a broken input proves nothing: the baseline must have split every
        // line, and the merge must have read them all and written events.
        guard countLines(input) == count, summary.malformedLineCount == 0,
          summary.eventsWritten > 0
        else {
          throw BenchmarkError(
            "\(measurement.name): \(countLines(input)) lines of \(count), "
              + "\(summary.malformedLineCount) malformed, \(summary.eventsWritten) events written")
        }
        // Memory in one more run, untimed: the reset trims the heap.
        memory.reset()
        _ = try ActivityWatchJSONLines.merge(contentsOf: input, into: output, pulseTime: pulse)
        let growth = memory.describeGrowth()
        if let keep {
          let kept = keep + "." + name.replacingOccurrences(of: " ", with: "-") + ".merged.jsonl"
          try? FileManager.default.removeItem(atPath: kept)
          try FileManager.default.copyItem(at: output, to: URL(fileURLWithPath: kept))
        }
        let perMillion = measurement.median.seconds * 1_000_000 / Double(count)
        report.add(
          Report.Row(
            suite: suite.name, scenario: measurement.name, workSize: workSize,
            figure: .init(measurement), baseline: Report.Baseline(lines),
            target: .atMost(maximumRatio), limit: mergeLimit,
            note: "\(summary.eventsWritten.grouped) events out, "
              + "\(summary.malformedLineCount) malformed; "
              + String(format: "%.2f s per million lines; ", perMillion)
              + "peak RSS growth of a merge \(growth); timed alternately with the baseline"))
        if shape == .uniform, name == "fixed 30 s" { uniformFixed = measurement }
        if shape == .varied, let uniformFixed {
          report.add(
            Report.Row(
              suite: suite.name, scenario: measurement.name, workSize: workSize,
              figure: .init(measurement), baseline: Report.Baseline(uniformFixed), target: nil,
              limit: nil, note: "the cost of comparing differently spelt data canonically"))
        }
      }
    }
  }

  /// Where to keep the input of `shape` (and its outputs next to it), when the environment
  /// variable `STK_GAPDETECTION_KEEP_INPUT` names a path: that path for the uniform input,
  /// `<path>.varied` for the varied one.
  static func keptPath(_ shape: LineShape) -> String? {
    guard let keep = ProcessInfo.processInfo.environment["STK_GAPDETECTION_KEEP_INPUT"] else {
      return nil
    }
    return shape == .uniform ? keep : keep + ".varied"
  }

  /// The apps of the generated input, with a window title each.
  static let apps = [
    ("Safari", "ScreenTimeKit — Documentation"), ("Mail", "Inbox (3)"),
    ("Duolingo", "Lesson 12: Past tense"), ("Xcode", "GapDetector.swift"),
    ("Messages", "Family"), ("YouTube", "How clocks change"), ("Notes", "Shopping"),
    ("Terminal", "swift test"),
  ]

  /// The data of `app` in one of four spellings of equal value.
  static func spelling(_ app: Int, _ variant: Int) -> String {
    let (name, title) = apps[app]
    switch variant {
    case 0: return "{\"app\": \"\(name)\", \"title\": \"\(title)\"}"
    case 1: return "{\"title\":\"\(title)\",\"app\":\"\(name)\"}"
    case 2:
      // The app's first letter and the title's last character as \u escapes.
      let first = String(format: "\\u%04x", name.unicodeScalars.first?.value ?? 0x41)
      let last = String(format: "\\u%04x", title.unicodeScalars.last?.value ?? 0x41)
      return
        "{ \"app\" : \"\(first)\(name.dropFirst())\" , \"title\" : \"\(title.dropLast())\(last)\" }"
    default: return "{\"title\": \"\(title)\",  \"app\": \"\(name)\"}"
    }
  }

  /// Writes `count` heartbeats in ActivityWatch's export form: eight apps, a new app drawn at
  /// one heartbeat in twenty, 30 s ± 20 % apart, microsecond timestamps with `+00:00`.
  static func writeActivityWatchLines(count: Int, shape: LineShape, to url: URL) throws -> Int {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var random = SeededRandom(seed: 0x0005_2026)
    let durations = ["0.0", "0.5", "1.25", "0.0006", "30.000001", "2e-3", "0"]
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
      let data: String
      let duration: String
      switch shape {
      case .uniform:
        data = spelling(app, 0)
        duration = "0.0"
      case .varied:
        data = spelling(app, Int(random.next() % 4))
        duration = durations[Int(random.next() % UInt64(durations.count))]
      }
      buffer +=
        "{\"id\": \(index + 1), \"timestamp\": \"\(stamp).\(fraction)+00:00\", "
        + "\"duration\": \(duration), \"data\": \(data)}\n"
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

  /// The floor of any line-oriented merge: reads the file with `read(2)` into one 1 MiB buffer,
  /// as the merge does, and counts its line breaks with `memchr`.
  static func countLines(_ url: URL) -> Int {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return -1 }
    defer { close(descriptor) }
    let size = 1 << 20
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    var lines = 0
    while true {
      let count = read(descriptor, buffer, size)
      guard count > 0 else { return count == 0 ? lines : -1 }
      var position = 0
      while position < count, let found = memchr(buffer + position, 0x0A, count - position) {
        lines += 1
        position = buffer.distance(to: found) + 1
      }
    }
  }
}
