import AppPipeline
import Foundation
import SequenceTracking
import TrackerSignals

extension AppSideBenchmarks {
  // MARK: - The extension's callback while the app works

  static let concurrentName =
    "MonitorRecorder.eventDidReachThreshold while the app wakes in a tight loop"

  /// The callback on the largest history's folder, alone and while another thread of this
  /// process runs `wake` + `dashboard` in a loop on the same folder, timed alternately.
  static func concurrentRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    guard let days = historyDays(options).last else { return }
    let history = try Histories.shared.history(days: days, options)
    var folder = try history.copy(options)
    let url = folder.url
    let end = History.midnight(0) + 86_340
    // The app's own pipeline, on its own SharedFolder, as another process would open it.
    let app = AppLoop {
      var pipeline = try UsagePipeline(
        folder: try SharedFolder(directory: url), configuration: try History.configuration())
      return {
        try pipeline.wake(.notification, now: end)
        _ = try pipeline.dashboard(for: History.today, now: end)
      }
    }
    defer { app.stop() }
    let iterations = options.iterations(100)
    let warmup = 3
    var phase = 0.0
    var alone: [Duration] = []
    var loaded: [Duration] = []
    for round in 0..<(warmup + iterations) {
      app.pause()
      let quiet = try folder.recordFact().elapsed
      // Each loaded callback starts at another phase of the loop's cycle (golden-ratio steps of
      // the mean cycle so far, which the warm-up rounds measure; a first guess of 10 ms).
      let cycle = app.meanCycle ?? .milliseconds(10)
      app.resume()
      phase = (phase + 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
      Thread.sleep(forTimeInterval: (cycle * phase).seconds)
      let busy = try folder.recordFact().elapsed
      guard round >= warmup else { continue }
      alone.append(quiet)
      loaded.append(busy)
    }
    app.pause()
    try app.check()
    let cycles = app.cycles
    let meanCycle = app.meanCycle?.formatted ?? "unmeasured"
    // The median hides a drain that holds the lock for less than half of its cycle: the note
    // gives the means and how many loaded callbacks took more than 1.5× the idle median.
    let idle = Measurement(name: "", samples: alone).median
    let slow = loaded.filter { $0 > idle * 1.5 }.count
    func mean(_ samples: [Duration]) -> String {
      (samples.reduce(.zero, +) / max(1, samples.count)).formatted
    }
    report.add(
      Report.Row(
        suite: suite.name, scenario: concurrentName,
        workSize: "one callback, \(history.workSize) × \(iterations)",
        figure: .init(Measurement(name: concurrentName, samples: loaded)),
        baseline: Report.Baseline(
          Measurement(name: "the same callback, the app idle", samples: alone)),
        target: .atMost(1.5),
        limit: "The callback's append and the app's writes take the same folder lock: a drain "
          + "that writes about one fact's bytes under it makes a callback wait one flush at "
          + "most, and on 2 cores the two share the disk and the CPU. A drain that decodes, "
          + "encodes or rewrites the retained history under the lock makes it wait for all of "
          + "that.",
        note: "eventDidReachThreshold through MonitorRecorder on a durable folder, while a "
          + "thread of this process loops wake(.notification) + dashboard(today) on the same "
          + "folder through its own SharedFolder, against the callback with the loop paused; "
          + "timed alternately; each loaded callback starts at a phase spread over the loop's "
          + "mean cycle (\(meanCycle), a drain and a dashboard); \(cycles) cycles of the loop; "
          + "\(slow) of \(loaded.count) loaded callbacks took more than 1.5× the idle median; "
          + "means \(mean(loaded)) loaded against \(mean(alone)) idle"))
  }

  /// A thread that runs a body in a loop while resumed: the app waking in a tight loop.
  final class AppLoop: @unchecked Sendable {
    private let condition = NSCondition()
    private var wanted = false
    private var busy = false
    private var stopped = false
    private var finished = false
    private var failure: (any Error)?
    private var completed = 0
    private var busyTime = Duration.zero

    /// Starts the thread, which builds its body with `make` and waits to be resumed.
    init(_ make: @escaping @Sendable () throws -> () throws -> Void) {
      let thread = Thread { [self] in run(make) }
      thread.start()
    }

    /// The cycles completed so far.
    var cycles: Int {
      condition.lock()
      defer { condition.unlock() }
      return completed
    }

    /// The mean duration of a cycle so far, or `nil` before the first.
    var meanCycle: Duration? {
      condition.lock()
      defer { condition.unlock() }
      return completed == 0 ? nil : busyTime / completed
    }

    /// Lets the loop run, and returns once a cycle has begun.
    func resume() {
      condition.lock()
      defer { condition.unlock() }
      let before = completed
      wanted = true
      condition.broadcast()
      while !busy, completed == before, !finished { condition.wait() }
    }

    /// Stops the loop after its current cycle, and returns once that cycle has ended.
    func pause() {
      condition.lock()
      defer { condition.unlock() }
      wanted = false
      while busy { condition.wait() }
    }

    /// Ends the thread.
    func stop() {
      condition.lock()
      defer { condition.unlock() }
      stopped = true
      wanted = false
      condition.broadcast()
      while !finished { condition.wait() }
    }

    /// Throws what the loop's body threw, if it did.
    func check() throws {
      condition.lock()
      defer { condition.unlock() }
      if let failure { throw BenchmarkError("the app's loop failed: \(failure)") }
    }

    private func run(_ make: () throws -> () throws -> Void) {
      var body: (() throws -> Void)?
      do {
        body = try make()
      } catch {
        condition.lock()
        failure = error
        condition.unlock()
      }
      while let cycle = body {
        condition.lock()
        while !wanted, !stopped { condition.wait() }
        if stopped {
          condition.unlock()
          break
        }
        busy = true
        condition.broadcast()
        condition.unlock()
        var thrown: (any Error)?
        let start = ContinuousClock.now
        do { try cycle() } catch { thrown = error }
        let elapsed = ContinuousClock.now - start
        condition.lock()
        busy = false
        completed += 1
        busyTime += elapsed
        if let thrown {
          failure = thrown
          body = nil
        }
        condition.broadcast()
        condition.unlock()
      }
      condition.lock()
      finished = true
      busy = false
      condition.broadcast()
      condition.unlock()
    }
  }
}
