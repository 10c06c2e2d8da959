import AppPipeline
import Foundation
import SequenceTracking
import TrackerSignals

/// The app side's cost as the history grows: `UsagePipeline.wake` draining one new fact, the
/// dashboard of today, the bytes a wake writes, a cold start, the extension's callback while the
/// app works, and the app process's peak memory, on histories of 1, 7 and 40 days.
///
/// Only the public API of `UsagePipeline`, `MonitorRecorder`, `SharedFolder` and
/// `PipelineConfiguration` is used, never the state's representation, so that the rows measure
/// whatever the app side's storage becomes. The histories are in `AppSideBenchmarks+History`.
enum AppSideBenchmarks {
  static let suite = BenchmarkSuite(
    name: "appside",
    summary: "UsagePipeline wake, dashboard, bytes, cold start, memory vs history (1, 7, 40 days)",
    scenarios: [
      Scenario([wakeName]) { try wakeRows($0, &$1) },
      Scenario([dashboardName]) { try dashboardRows($0, &$1) },
      Scenario([bytesName]) { try bytesRows($0, &$1) },
      Scenario([coldStartName]) { try coldStartRows($0, &$1) },
      Scenario([concurrentName]) { try concurrentRows($0, &$1) },
      Scenario([memoryName]) { try memoryRows($0, &$1) },
    ]
  )

  static let wakeName = "UsagePipeline.wake draining 1 new fact"
  static let dashboardName = "UsagePipeline.dashboard for today"
  static let bytesName = "bytes written per drained fact"
  static let coldStartName = "cold start (open + wake + dashboard)"

  static let historyLimit =
    "One new fact is one fact's work whatever the history: applying it, and one durable write "
    + "of about its bytes. Work proportional to the history — reading, decoding, encoding or "
    + "rewriting the retained facts — meets 79 times as many facts at 40 days as at 1 (11,890 "
    + "against 151) and cannot pass."

  // MARK: - Wake

  static func wakeRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let histories = try histories(options)
    var folders = try histories.map { try $0.copy(options) }
    // The fact's bytes for the raw write: a fact recorded and drained before the run.
    let fact = try folders[0].recordFact().json
    try folders[0].wakeDrainingOne()
    let raw = try RawReplace(directory: try options.freshDirectory("appside-raw"), flush: true)
    var operations: [() throws -> TimedSample] = [
      { try TimedSample.of { try raw.write(fact, name: "fact") } }
    ]
    for index in folders.indices {
      operations.append {
        try folders[index].recordFact()
        return try TimedSample.of { try folders[index].wakeDrainingOne() }
      }
    }
    let iterations = options.iterations(60)
    let samples = try TimedSample.roundRobin(iterations: iterations, operations)
    let rawWrite = samples[0].measurement(
      "one raw durable write of the fact's bytes (replace: flush file + dir)", clock: .wall)
    let wakes = histories.indices.map {
      samples[$0 + 1].measurement(histories[$0].baselineName("wake"), clock: .wall)
    }
    let wakesCPU = histories.indices.map {
      samples[$0 + 1].measurement(histories[$0].baselineName("wake"), clock: .cpu)
    }
    let note =
      "each sample: one eventDidReachThreshold recorded through MonitorRecorder (untimed), then "
      + "UsagePipeline.wake(.notification) draining it, on a durable FileStore folder; the "
      + "raw write and the wakes of every history timed in turn, round-robin; the fact's JSON "
      + "is \(fact.count) B"
    for (index, history) in histories.enumerated() {
      let workSize = "1 fact, \(history.workSize) × \(iterations)"
      let isLargest = index == histories.count - 1 && index > 0
      if index > 0 {
        report.add(
          Report.Row(
            suite: suite.name, scenario: wakeName, workSize: workSize,
            figure: .init(wakesCPU[index]), baseline: Report.Baseline(wakesCPU[0]),
            target: isLargest ? .atMost(1.5) : nil, limit: isLargest ? historyLimit : nil,
            note: "\(history.label) against 1 day, in CPU time: the flush is the same at every "
              + "history and its wait varies tenfold with the disk's load; median elapsed "
              + "\(wakes[index].median.formatted) against \(wakes[0].median.formatted); " + note))
      }
      report.add(
        Report.Row(
          suite: suite.name, scenario: wakeName, workSize: workSize,
          figure: .init(wakes[index]), baseline: Report.Baseline(rawWrite),
          target: isLargest ? .atMost(3) : nil,
          limit: isLargest
            ? "Draining one fact must make it durable together with the cursor: one durable "
              + "write of about the fact's bytes, two flushes at most, plus reading the "
              + "outbox's newest frame. 3× leaves room for the app's own record and checks; "
              + "rewriting the retained history at every wake cannot fit." : nil,
          note: "\(history.label) against the raw write, in elapsed time; median CPU "
            + "\(wakesCPU[index].median.formatted); " + note))
    }
  }

  // MARK: - Dashboard

  static func dashboardRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let histories = try histories(options)
    let folders = try histories.map { try $0.copy(options) }
    let retained = try folders.map { try $0.pipeline.facts().count }
    let operations: [() throws -> TimedSample] = folders.map { folder in
      { try TimedSample.of { _ = try folder.dashboard() } }
    }
    let iterations = options.iterations(40)
    let samples = try TimedSample.roundRobin(iterations: iterations, operations)
    let dashboards = histories.indices.map {
      samples[$0].measurement(histories[$0].baselineName("dashboard"), clock: .cpu)
    }
    for (index, history) in histories.enumerated() {
      let isLargest = index == histories.count - 1 && index > 0
      let wall = samples[index].measurement("", clock: .wall).median.formatted
      report.add(
        Report.Row(
          suite: suite.name, scenario: dashboardName,
          workSize: "today, \(history.workSize) × \(iterations)",
          figure: .init(dashboards[index]),
          baseline: index > 0 ? Report.Baseline(dashboards[0]) : nil,
          target: isLargest ? .atMost(1.5) : nil,
          limit: isLargest
            ? "Today's dashboard shows today and the month so far: its work is the facts of "
              + "the month's days (budgets and pace) and today's heartbeats, not the whole "
              + "retention. From 1 day to 40 the month so far grows, which 1.5× allows; "
              + "deriving it from every retained fact at every call meets tens of times as many "
              + "facts at 40 days." : nil,
          note: "CPU time of UsagePipeline.dashboard(for: today, now:), after everything was "
            + "drained; \(retained[index].grouped) facts retained; median elapsed \(wall); the "
            + "histories timed in turn, round-robin"))
    }
  }

  // MARK: - Bytes written

  static func bytesRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let histories = try histories(options)
    let count = options.size(20, quick: 3)
    for history in histories {
      var folder = try history.copy(options)
      var written: [Int] = []
      var characters: [Int] = []
      var facts: [Int] = []
      var changes: [String] = []
      for _ in 0..<count {
        facts.append(try folder.recordFact().json.count)
        let before = try FolderScan(folder.url)
        let io = ProcessIO.now()
        try folder.wakeDrainingOne()
        let ioAfter = ProcessIO.now()
        let after = try FolderScan(folder.url)
        let change = after.written(since: before)
        written.append(change.bytes)
        changes = change.files
        if let io, let ioAfter { characters.append((ioAfter - io).wchar) }
      }
      let median = Measurement.medianOf(written)
      let fact = Measurement.medianOf(facts)
      report.add(
        Report.Row(
          suite: suite.name, scenario: bytesName,
          workSize: "1 fact, \(history.workSize) × \(count)",
          figure: Report.Figure(bytes: median, p99: written.max() ?? median),
          baseline: Report.Baseline(name: "the fact's JSON in the outbox", bytes: fact),
          target: .atMost(4),
          limit: "Draining a fact must write it, or what it changes, once: its bytes with a "
            + "frame, a checksum and the cursor — about 2× — and a compaction amortised over "
            + "many wakes. Rewriting the retained history writes thousands of times the fact.",
          note: "the folder's files stat'ed before and after one wake draining one fact (size, "
            + "inode, mtime): a new or replaced file (new inode) counts its whole size, a file "
            + "that grew in place its new bytes, one rewritten in place its whole size; "
            + "last wake: \(changes.isEmpty ? "nothing written" : changes.joined(separator: ", "))"
            + (characters.isEmpty
              ? "" : "; wchar of the process, median \(Measurement.medianOf(characters).grouped) B")
        ))
    }
  }

  // MARK: - Cold start

  static func coldStartRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let histories = try histories(options)
    var folders = try histories.map { try $0.copy(options) }
    let operations: [() throws -> TimedSample] = folders.indices.map { index in
      {
        try folders[index].recordFact()
        let (url, now) = (folders[index].url, folders[index].now)
        return try TimedSample.of {
          let folder = try SharedFolder(directory: url)
          var pipeline = try UsagePipeline(
            folder: folder, configuration: try History.configuration())
          let drain = try pipeline.wake(.foreground, now: now)
          _ = try pipeline.dashboard(for: History.today, now: now)
          guard drain.applied == 1 else {
            throw BenchmarkError("the cold start drained \(drain.applied) facts, not 1")
          }
        }
      }
    }
    let iterations = options.iterations(20)
    let samples = try TimedSample.roundRobin(iterations: iterations, operations)
    let starts = histories.indices.map {
      samples[$0].measurement(histories[$0].baselineName("cold start"), clock: .cpu)
    }
    for (index, history) in histories.enumerated() {
      let isLargest = index == histories.count - 1 && index > 0
      let wall = samples[index].measurement("", clock: .wall).median.formatted
      report.add(
        Report.Row(
          suite: suite.name, scenario: coldStartName,
          workSize: "\(history.workSize) × \(iterations)", figure: .init(starts[index]),
          baseline: index > 0 ? Report.Baseline(starts[0]) : nil,
          target: isLargest ? .atMost(2) : nil,
          limit: isLargest
            ? "A launch opens the folder, drains what is new and shows today: it may read what "
              + "today's dashboard needs (the month so far) once, but nothing forces it to read "
              + "or rewrite the whole retention. 2× allows a larger month; reading and "
              + "rewriting every retained fact meets tens of times as many at 40 days." : nil,
          note: "SharedFolder(directory:) + UsagePipeline.init + wake(.foreground) draining the "
            + "one fact recorded before it (untimed) + dashboard of today, a fresh pipeline in "
            + "this process (the page cache and the runtime warm), in CPU time (its one flush "
            + "is the same at every history); median elapsed \(wall); the histories timed in "
            + "turn, round-robin"))
    }
  }
}

// MARK: - Helpers

extension Measurement {
  /// The median of `values` (the upper one of an even count, as `percentile(50)` picks).
  static func medianOf(_ values: [Int]) -> Int {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[max(0, (sorted.count + 1) / 2 - 1)]
  }
}

extension Report.Figure {
  /// A count of bytes measured several times: its median and its largest.
  init(bytes median: Int, p99: Int) {
    self.init(bytes: median)
    self.p99 = Double(p99)
  }
}

/// The files of a folder as `stat` sees them, to count what a wake wrote.
struct FolderScan {
  struct File: Equatable {
    var inode: Int
    var size: Int
    var modified: Date
  }

  var files: [String: File] = [:]

  init(_ url: URL) throws {
    let manager = FileManager.default
    for name in try manager.contentsOfDirectory(atPath: url.path) {
      let attributes = try manager.attributesOfItem(atPath: url.appendingPathComponent(name).path)
      files[name] = File(
        inode: (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1,
        size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
        modified: attributes[.modificationDate] as? Date ?? .distantPast)
    }
  }

  /// The bytes written since `earlier`, by comparing the two scans.
  ///
  /// A new file, or one replaced (a new inode), counts its whole size; a file that grew in place,
  /// its new bytes; one changed in place without growing (rewritten), its whole size. A file
  /// created and removed in between is not seen.
  func written(since earlier: FolderScan) -> (bytes: Int, files: [String]) {
    var bytes = 0
    var changed: [String] = []
    for (name, file) in files.sorted(by: { $0.key < $1.key }) {
      guard let old = earlier.files[name] else {
        bytes += file.size
        changed.append("\(name) new (\(file.size.grouped) B)")
        continue
      }
      guard old != file else { continue }
      if old.inode != file.inode {
        bytes += file.size
        changed.append("\(name) replaced (\(file.size.grouped) B)")
      } else if file.size > old.size {
        bytes += file.size - old.size
        changed.append("\(name) appended (\((file.size - old.size).grouped) B)")
      } else if file.size > 0 {
        bytes += file.size
        changed.append("\(name) rewritten (\(file.size.grouped) B)")
      }
    }
    return (bytes, changed)
  }
}
