import ActivityWatchInterop
import Foundation
import GapDetection
import TrackerSignals
import UsageModel

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
  }

  static func runEndToEnd(
    _ options: BenchmarkOptions, _ report: inout Report, _ memory: inout PeakMemory
  ) throws {
    let count = options.quick ? 50_000 : 1_000_000
    let directory = try options.freshDirectory("activitywatch")
    let output = directory.appendingPathComponent("events.jsonl")
    let rounds = options.quick ? 2 : 5
    let budget = Measurement(
      name: "budget: 2 s per million lines",
      samples: [.milliseconds(2000 * Int64(count) / 1_000_000)])
    var uniformFixed: Measurement?
    for shape in [LineShape.uniform, .varied] {
      let input = directory.appendingPathComponent("heartbeats-\(shape).jsonl")
      let size = try writeActivityWatchLines(count: count, shape: shape, to: input)
      // For comparing with ActivityWatch's own merge by hand (Documentation/Performance.md).
      let keep = keptPath(shape)
      if let keep {
        try? FileManager.default.removeItem(atPath: keep)
        try FileManager.default.copyItem(at: input, to: URL(fileURLWithPath: keep))
      }
      let lines = Measurement.bulk("read + split lines only (memchr)", rounds: rounds) {
        consume(countLines(input))
      }
      let pulses: [(String, PulseTime)] =
        shape == .uniform
        ? [("fixed 30 s", .fixed(.seconds(30))), ("adaptive", .adaptive(.standard))]
        : [("fixed 30 s", .fixed(.seconds(30)))]
      for (name, pulse) in pulses {
        var summary = ActivityWatchMergeSummary()
        let measurement = try Measurement.bulk(
          "ActivityWatch JSON Lines merge, \(name) pulse, \(shape.rawValue)", rounds: rounds,
          warmup: 0
        ) {
          summary = try ActivityWatchJSONLines.merge(
            contentsOf: input, into: output, pulseTime: pulse)
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
        let note =
          "\(count) lines, \(size / 1_000_000) MB in, \(summary.eventsWritten) events out, "
          + "\(summary.malformedLineCount) malformed; peak RSS growth of a merge \(growth), "
          + "process peak so far \(memory.describeProcessPeak()) (budget 100 MB)"
        report.add(
          Report.Row(
            suite: suite.name, measurement: measurement, baseline: budget, target: .atMost(1.0),
            note: note))
        report.add(
          Report.Row(
            suite: suite.name, measurement: measurement, baseline: lines, target: nil,
            note: "the same run against reading the file and finding its line breaks"))
        if shape == .uniform, name == "fixed 30 s" { uniformFixed = measurement }
        if shape == .varied, let uniformFixed {
          report.add(
            Report.Row(
              suite: suite.name, measurement: measurement, baseline: uniformFixed, target: nil,
              note: "the cost of comparing differently spelt data canonically"))
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
}
