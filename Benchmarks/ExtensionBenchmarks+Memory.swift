import Foundation
import TrackerSignals

extension ExtensionBenchmarks {
  // MARK: - Peak resident memory of 10,000 callbacks, in a child process

  static let memoryName = "peak RSS growth of a process making MonitorRecorder callbacks"
  static let memoryControlName = "peak RSS growth of a process making raw durable writes"

  /// The bound on the growth after the first ``memoryWarmup`` callbacks: 256 KB.
  ///
  /// Not a baseline measured in the same run: bytes held do not scale with the machine's speed,
  /// which is why every *time* target is a ratio, and a same-run baseline (the control row)
  /// grows by a few pages at most, so a ratio to it would mean nothing.
  static let memoryBound = 256 * 1024

  /// The callbacks made before the peak is reset, so that what a process allocates once (the
  /// stores, the encoders, the runtime's first use of each type) is not counted: the first 100.
  static let memoryWarmup = 100

  static func memoryRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    guard PeakMemory.status("VmHWM") != nil else {
      return report.skip(memoryName, reason: "/proc/self/status has no VmHWM on this system")
    }
    let count = options.size(10_000, quick: 2_000)
    // Both logs compact during the warm-up, so that what runs once per process — the first
    // compaction's code read in from the binary, 64 KiB around each new page of it — is not
    // counted as growth; the reset then hands the heap's free memory back, so that the heap a
    // compaction needs is counted again when the 10,000 callbacks compact both logs, at their
    // usual pace.
    var directory = try ExtensionDirectory.prepare(
      try options.freshDirectory("monitor-memory"), compactingAfter: memoryWarmup / 2)
    // The fact's bytes, for the control: one callback's frame, measured on the file.
    let outbox = directory.path(SharedFolderLayout.standard.outboxKey)
    let before = try RawAppend.size(of: outbox)
    try directory.callback(MonitorRecorder(folder: try SharedFolder(directory: directory.url)))
    let bytes = try RawAppend.size(of: outbox) - before

    let callbacks = try MemoryChild.spawn(.callbacks, directory: directory.url, count: count)
    let control = try MemoryChild.spawn(
      .rawWrites(bytes: bytes), directory: try options.freshDirectory("raw-memory"), count: count)
    if let failure = callbacks.resetFailure {
      // Growth above an unreset peak understates the growth: not a figure to PASS.
      return report.skip(memoryName, reason: "the peak could not be reset: \(failure)")
    }
    let bound = Report.Baseline(
      name: "bound: 256 KB after the first \(memoryWarmup) (the issue's; not measured)",
      bytes: memoryBound)
    let workSize = "\(count.grouped) callbacks"
    report.add(
      Report.Row(
        suite: suite.name, scenario: memoryName, workSize: workSize,
        figure: Report.Figure(bytes: callbacks.growth), baseline: bound, target: .atMost(1),
        limit: "A monitor extension runs in about 6 MB. A callback holds the fact, the heartbeat "
          + "and the ends of two logs; once per capacity records a compaction reads the log and "
          + "writes the kept records 16 KiB at a time, holding one piece and its records, never "
          + "the whole log. Anything that grows with the number of callbacks would pass 256 KB.",
        note: callbacks.note
          + "; both logs compact once during the warm-up; then the outbox compacts every 1,025 "
          + "callbacks and the heartbeat history every 2,881, "
          + (count >= 2_931
            ? "so compactions of both fall inside the run"
            : "so this short run holds no compaction of the heartbeat history")))
    report.add(
      Report.Row(
        suite: suite.name, scenario: memoryControlName,
        workSize: "\(count.grouped) writes of \(bytes) B",
        figure: Report.Figure(bytes: control.growth),
        baseline: bound, target: nil, limit: nil,
        note: control.note + "; the control: what the measurement shows for a process that "
          + "allocates nothing that grows"))
  }

  /// The hidden subcommand a memory row runs in a child process of the benchmark itself:
  /// `Benchmarks --memory-child callbacks|raw-writes DIRECTORY COUNT BYTES`.
  ///
  /// The child makes ``memoryWarmup`` operations, resets the peak resident size to the resident
  /// size (`5` into `/proc/self/clear_refs`, after trimming the heap, so that memory the warm-up
  /// freed is not reused unseen), reads `VmHWM`, makes `COUNT` operations, reads `VmHWM` again,
  /// and prints
  /// the figures as one line of JSON. Only that work happens in the child, so the parent's
  /// memory (a million records of other suites) cannot pollute it.
  struct MemoryChild: Codable {
    /// What the child does.
    enum Work {
      /// `eventDidReachThreshold` callbacks on a directory that ``ExtensionDirectory`` prepared.
      case callbacks
      /// One raw durable write of `bytes` bytes each.
      case rawWrites(bytes: Int)
      /// Callbacks that also decide and apply their shields (ShieldBenchmarks).
      case shieldCallbacks
    }

    static let flag = "--memory-child"

    var operations: Int
    /// `VmHWM` after the warm-up, before the reset: the peak of the child so far.
    var peakBeforeReset: Int
    /// `VmHWM` after the warm-up and the reset: the resident size then.
    var before: Int
    /// `VmHWM` after the operations.
    var after: Int
    /// Why the reset failed, if it did: `before` is then the unreset peak.
    var resetFailure: String?
    var seconds: Double

    var growth: Int { max(0, after - before) }

    var note: String {
      "VmHWM after \(operations.grouped) operations minus VmHWM after \(memoryWarmup) more "
        + "of warm-up, in a child process doing only this; resident size after the warm-up "
        + PeakMemory.mebibytes(before) + ", peak before the reset "
        + PeakMemory.mebibytes(peakBeforeReset)
        + (resetFailure.map {
          "; the peak was NOT reset (\($0)): growth above the startup peak "
            + "only"
        } ?? "")
        + String(format: "; %.0f operations/s", Double(operations) / max(seconds, 1e-9))
    }

    /// Runs the child for `work` and returns what it measured.
    static func spawn(_ work: Work, directory: URL, count: Int) throws -> MemoryChild {
      let arguments: [String]
      switch work {
      case .callbacks:
        arguments = [flag, "callbacks", directory.path, String(count), "0"]
      case .rawWrites(let bytes):
        arguments = [flag, "raw-writes", directory.path, String(count), String(bytes)]
      case .shieldCallbacks:
        arguments = [flag, "shield-callbacks", directory.path, String(count), "0"]
      }
      return try ChildProcess.run(arguments, name: "the memory child")
    }

    /// The child's side: runs when the benchmark is started with ``flag``; returns the exit
    /// status.
    static func main(_ arguments: [String]) -> Int32 {
      guard arguments.count == 4, let count = Int(arguments[2]), let bytes = Int(arguments[3])
      else {
        FileHandle.standardError.write(Data("usage: \(flag) KIND DIRECTORY COUNT BYTES\n".utf8))
        return 2
      }
      let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
      do {
        let operation: () throws -> Void
        switch arguments[0] {
        case "callbacks":
          var extensionDirectory = try ExtensionDirectory.resume(directory)
          let recorder = MonitorRecorder(folder: try SharedFolder(directory: directory))
          operation = { try extensionDirectory.callback(recorder) }
        case "shield-callbacks":
          operation = try ShieldBenchmarks.memoryOperation(directory)
        case "raw-writes":
          let raw = try RawReplace(directory: directory, flush: true)
          let fact = Data(count: bytes)
          operation = { try raw.write(fact, name: "fact") }
        default:
          throw BenchmarkError("unknown kind '\(arguments[0])'")
        }
        let result = try measure(count: count, operation)
        let encoded = try JSONEncoder().encode(result)
        FileHandle.standardOutput.write(encoded + Data("\n".utf8))
        return 0
      } catch {
        FileHandle.standardError.write(Data("memory child failed: \(error)\n".utf8))
        return 1
      }
    }

    private static func measure(count: Int, _ operation: () throws -> Void) throws -> MemoryChild {
      // Allocated before the warm-up: reading the peak after the work allocates nothing.
      let peak = StatusField("VmHWM")
      let clock = ContinuousClock()
      // The clock's code, read in from the binary now rather than between the readings.
      let warmup = clock.now
      for _ in 0..<memoryWarmup { try operation() }
      _ = (clock.now - warmup).seconds
      guard let peakBeforeReset = peak.current() else {
        throw BenchmarkError("VmHWM is unreadable")
      }
      var memory = PeakMemory()
      memory.reset(trimmingHeap: true)
      guard let before = peak.current() else {
        throw BenchmarkError("VmHWM is unreadable")
      }
      let start = clock.now
      for _ in 0..<count { try operation() }
      let elapsed = clock.now - start
      guard let after = peak.current() else {
        throw BenchmarkError("VmHWM is unreadable")
      }
      return MemoryChild(
        operations: count, peakBeforeReset: peakBeforeReset, before: before, after: after,
        resetFailure: memory.resetFailure, seconds: elapsed.seconds)
    }

    /// This executable: `/proc/self/exe` where it exists, else what the process was started as.
    static func selfExecutable() -> URL {
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        return URL(fileURLWithPath: path)
      }
      if let url = Bundle.main.executableURL { return url }
      return URL(fileURLWithPath: CommandLine.arguments[0])
    }
  }
}
