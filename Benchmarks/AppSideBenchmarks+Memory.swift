import AppPipeline
import Foundation
import SequenceTracking
import TrackerSignals

extension AppSideBenchmarks {
  // MARK: - Peak resident memory of the app process, in a child process

  static let memoryName = "peak RSS of the app process"

  /// Each history's folder opened by a child process of the benchmark itself (as
  /// ``ExtensionBenchmarks/MemoryChild`` does for the extension), which drains the one fact
  /// recorded before it and shows today's dashboard; the row is the child's peak resident size.
  static func memoryRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    guard PeakMemory.status("VmHWM") != nil else {
      return report.skip(memoryName, reason: "/proc/self/status has no VmHWM on this system")
    }
    let histories = try histories(options)
    let runs = options.quick ? 1 : 3
    var children: [[AppMemoryChild]] = []
    for history in histories {
      var folder = try history.copy(options)
      var results: [AppMemoryChild] = []
      for _ in 0..<runs {
        try folder.recordFact()
        results.append(try AppMemoryChild.spawn(directory: folder.url, now: folder.now))
      }
      children.append(results)
    }
    let peaks = children.map { $0.map(\.peak) }
    for (index, history) in histories.enumerated() {
      let isLargest = index == histories.count - 1 && index > 0
      let median = Measurement.medianOf(peaks[index])
      let start = Measurement.medianOf(children[index].map(\.start))
      let growth = Measurement.medianOf(children[index].map { $0.peak - $0.start })
      report.add(
        Report.Row(
          suite: suite.name, scenario: memoryName,
          workSize: "open + wake + dashboard, \(history.workSize) × \(runs)",
          figure: Report.Figure(bytes: median, p99: peaks[index].max() ?? median),
          baseline: index > 0
            ? Report.Baseline(
              name: "the same process, 1-day history", bytes: Measurement.medianOf(peaks[0]))
            : nil,
          target: isLargest ? .atMost(1.25) : nil,
          limit: isLargest
            ? "A Swift process with Foundation is about 20 MiB resident before it opens "
              + "anything; the app needs today's heartbeats and the month so far in memory, a "
              + "few MiB at most. Holding every retained fact, decoded and as JSON, adds tens of "
              + "MiB at 40 days." : nil,
          note: "VmHWM of a child process (Benchmarks \(AppMemoryChild.flag)) that opens the "
            + "folder, wakes draining the fact recorded before it and derives today's "
            + "dashboard, median of \(runs); its resident size before opening "
            + PeakMemory.mebibytes(start) + ", growth to the peak "
            + PeakMemory.mebibytes(growth)))
    }
  }

  /// The hidden subcommand the memory row runs in a child process of the benchmark itself:
  /// `Benchmarks --app-memory-child DIRECTORY NOW`, `NOW` in seconds since 1970.
  ///
  /// The child reads `VmHWM`, opens the folder with `SharedFolder(directory:)` and a
  /// `UsagePipeline`, wakes it (it must drain exactly one fact), derives today's dashboard,
  /// reads `VmHWM` again and prints the figures as one line of JSON.
  struct AppMemoryChild: Codable {
    static let flag = "--app-memory-child"

    /// `VmHWM` when the child started its work: the runtime's and Foundation's own.
    var start: Int
    /// `VmHWM` after the dashboard: the process's peak.
    var peak: Int
    var seconds: Double

    /// Runs a child on `directory` and returns what it measured.
    static func spawn(directory: URL, now: Date) throws -> AppMemoryChild {
      try ChildProcess.run(
        [flag, directory.path, String(now.timeIntervalSince1970)], name: "the app memory child")
    }

    /// The child's side: runs when the benchmark is started with ``flag``; returns the exit
    /// status.
    static func main(_ arguments: [String]) -> Int32 {
      guard arguments.count == 2, let seconds = Double(arguments[1]) else {
        FileHandle.standardError.write(Data("usage: \(flag) DIRECTORY NOW\n".utf8))
        return 2
      }
      let now = Date(timeIntervalSince1970: seconds)
      do {
        guard let start = PeakMemory.status("VmHWM") else {
          throw BenchmarkError("VmHWM is unreadable")
        }
        let clock = ContinuousClock()
        let started = clock.now
        let folder = try SharedFolder(directory: URL(fileURLWithPath: arguments[0]))
        var pipeline = try UsagePipeline(folder: folder, configuration: History.configuration())
        let drain = try pipeline.wake(.foreground, now: now)
        guard drain.applied == 1 else {
          throw BenchmarkError("the wake drained \(drain.applied) facts, not 1")
        }
        _ = try pipeline.dashboard(for: History.today, now: now)
        let elapsed = clock.now - started
        guard let peak = PeakMemory.status("VmHWM") else {
          throw BenchmarkError("VmHWM is unreadable")
        }
        let result = AppMemoryChild(start: start, peak: peak, seconds: elapsed.seconds)
        FileHandle.standardOutput.write(try JSONEncoder().encode(result) + Data("\n".utf8))
        return 0
      } catch {
        FileHandle.standardError.write(Data("app memory child failed: \(error)\n".utf8))
        return 1
      }
    }
  }
}
