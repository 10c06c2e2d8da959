import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

extension AppSideBenchmarks {
  // MARK: - The history: days of threshold callbacks, recorded and drained

  /// A shared folder holding `days` days of a busy person's threshold callbacks, recorded through
  /// `MonitorRecorder` and drained by `UsagePipeline.wake`, kept as a template that every row
  /// copies (a plain copy of the directory) so that no row sees another's facts.
  ///
  /// Every day has an `intervalDidStart` of the daily activity at midnight and 300 threshold
  /// events, 4.5 minutes apart from 00:04:30, over 6 apps in turn: the *k*-th event of an app is
  /// its 5-minute ladder's *k*-th rung (5, 10, … 250 minutes). The last day, today, is recorded
  /// up to 11:15 (150 events); the facts the rows record continue its ladders from 11:20, a
  /// minute apart. The app wakes after every 25 facts (about every 2 hours), as a person opening
  /// it would: without that, the outbox of 1,024 would evict facts before they were drained.
  ///
  /// The history is recorded on stores opened `.processCrashSafe`, so that 40 days take seconds
  /// instead of 12,000 flushes; the files are the same. Every measured operation opens the copy
  /// with `SharedFolder(directory:)`, durable, as the app and the extension do.
  struct History: Sendable {
    /// How many days the history spans, today included.
    let days: Int
    /// The template directory; never written after it is built.
    let template: URL
    /// The facts recorded: threshold events and interval starts.
    let facts: Int

    /// The zone of the person, of the configuration and of the facts.
    static let timeZone = TimeZone(identifier: "America/New_York") ?? .gmt

    /// The day the dashboards are for, and the last day of every history: Friday 2026-03-20,
    /// so that 40 days reach back across the change to daylight saving time (March 8).
    static let today: LocalDay = {
      do {
        return try LocalDay(year: 2026, month: 3, day: 20)
      } catch {
        fatalError("\(error)")
      }
    }()

    /// The six apps, whose events take turns.
    static let apps = [
      "com.burbn.instagram", "com.zhiliaoapp.musically", "com.netflix.Netflix",
      "com.google.ios.youtube", "com.supercell.clashroyale", "com.duolingo.DuolingoMobile",
    ]

    static let eventsPerDay = 300
    /// Today's events recorded in the history; the rows' facts follow them.
    static let eventsToday = 150
    /// The facts between two wakes while the history is recorded.
    static let factsPerWake = 25

    /// The app's settings, as an app with budgets and rewards has them: categories for the six
    /// apps, the daily monitoring schedule, March's budgets, XP for learning, tracking expected
    /// from 07:00, and the default retention of 40 days.
    static func configuration() throws -> PipelineConfiguration {
      var configuration = PipelineConfiguration(userId: "user-123", timeZone: timeZone)
      configuration.rules = CategoryRules([
        try .prefix("com.burbn.", .socialMedia),
        try .prefix("com.zhiliaoapp.", .socialMedia),
        .exact(try AppID("com.netflix.Netflix"), .entertainment),
        try .prefix("com.google.ios.", .entertainment),
        try .prefix("com.supercell.", .gaming),
        try .prefix("com.duolingo.", .education),
      ])
      configuration.monitoring = try MonitoringPlan([
        MonitoredActivity(
          name: "daily",
          schedule: .daily(
            try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
      ])
      configuration.plans = [
        try MonthlyPlan(
          month: LocalMonth(year: 2026, month: 3),
          amounts: [
            .socialMedia: .seconds(300 * 3600), .entertainment: .seconds(300 * 3600),
            .gaming: .seconds(150 * 3600),
          ],
          excluded: [.education], granularity: .minutes)
      ]
      configuration.rewards = try UsageRewards(xpPerMinute: [.education: 2])
      configuration.expectation = .daily(
        try DailyWindow(start: TimeOfDay(hour: 7), end: .midnight), in: timeZone)
      return configuration
    }

    /// Midnight of the day `offset` days from today.
    static func midnight(_ offset: Int) -> Date {
      DayBoundary(timeZone: timeZone).interval(of: today.advanced(by: offset)).start
    }

    /// The `index`-th threshold event of a day: its name and its offset from midnight.
    static func event(_ index: Int) throws -> (name: String, after: TimeInterval) {
      let app = try AppID(apps[index % apps.count])
      let rung = index / apps.count + 1
      let name = try ThresholdEventName(app: app, threshold: .seconds(rung * 300))
      return (name.rawValue, TimeInterval((index + 1) * 270))
    }

    /// Records the history into `directory` and returns it.
    static func build(days: Int, into directory: URL) throws -> History {
      let store = try FileStore(directory: directory, durability: .processCrashSafe)
      let folder = try SharedFolder(store: store)
      let recorder = MonitorRecorder(folder: folder, timeZone: { timeZone })
      var pipeline = try UsagePipeline(folder: folder, configuration: try configuration())
      var facts = 0
      var now = Date.distantPast
      func recorded(_ response: MonitorResponse) throws {
        guard response.succeeded, response.notification != nil else {
          throw BenchmarkError("a callback of the history failed: \(response.failures)")
        }
        facts += 1
        if facts % factsPerWake == 0 { try pipeline.wake(.notification, now: now) }
      }
      for offset in (1 - days)...0 {
        let midnight = midnight(offset)
        now = midnight + 1
        try recorded(recorder.intervalDidStart(for: "daily", now: now, memoryBytes: 3_000_000))
        for index in 0..<(offset == 0 ? eventsToday : eventsPerDay) {
          let (name, after) = try event(index)
          now = midnight + after
          try recorded(
            recorder.eventDidReachThreshold(
              name, activity: "daily", now: now, memoryBytes: 3_000_000))
        }
      }
      try pipeline.wake(.foreground, now: now)
      return History(days: days, template: directory, facts: facts)
    }

    /// A working copy of the template in a fresh directory, opened as the app and the extension
    /// open it, its pipeline woken once (nothing to drain) so that its cursor is known.
    func copy(_ options: BenchmarkOptions) throws -> AppFolder {
      let url = try options.freshDirectory("appside-\(days)d")
      try FileManager.default.removeItem(at: url)
      try FileManager.default.copyItem(at: template, to: url)
      var folder = try AppFolder(url: url, history: self)
      try folder.pipeline.wake(.foreground, now: folder.now)
      return folder
    }

    /// `1 day`, `40 days`.
    var label: String { days == 1 ? "1 day" : "\(days) days" }

    /// `the same wake, 40-day history`: `name` and the history.
    func baselineName(_ name: String) -> String { "the same \(name), \(days)-day history" }

    /// `40-day history (11,851 facts)`.
    var workSize: String { "\(days)-day history (\(facts.grouped) facts)" }
  }

  /// A working copy of a history: the extension's recorder and the app's pipeline on the same
  /// durable folder, and the facts still to record today.
  struct AppFolder {
    let url: URL
    let history: History
    let recorder: MonitorRecorder
    var pipeline: UsagePipeline
    /// The number of the next fact to record.
    private var serial = 0
    /// When the last fact was recorded: the `now` of the rows' wakes and dashboards.
    private(set) var now: Date

    /// The most facts a copy can record: today's ladders, a minute apart, up to 23:59.
    static let capacity = 750

    init(url: URL, history: History) throws {
      self.url = url
      self.history = history
      let folder = try SharedFolder(directory: url)
      recorder = MonitorRecorder(folder: folder, timeZone: { History.timeZone })
      pipeline = try UsagePipeline(folder: folder, configuration: try History.configuration())
      now = History.midnight(0) + TimeInterval(History.eventsToday * 270)
    }

    /// Opens a second pipeline on the same folder, as a freshly launched app does.
    func openPipeline() throws -> UsagePipeline {
      try UsagePipeline(
        folder: try SharedFolder(directory: url), configuration: try History.configuration())
    }

    /// Records the next threshold event of today through the recorder, as the extension would.
    ///
    /// - Returns: The fact's JSON as the outbox stores it, and the time the callback took.
    @discardableResult
    mutating func recordFact() throws -> (json: Data, elapsed: Duration) {
      guard serial < Self.capacity else {
        throw BenchmarkError("the copy of the \(history.label) history has no fact left today")
      }
      let (name, _) = try History.event(History.eventsToday + serial)
      now = History.midnight(0) + TimeInterval(11 * 3600 + 20 * 60 + serial * 60)
      serial += 1
      let start = ContinuousClock.now
      let response = recorder.eventDidReachThreshold(
        name, activity: "daily", now: now, memoryBytes: 3_000_000)
      let elapsed = ContinuousClock.now - start
      guard response.succeeded, response.notification != nil, let fact = response.fact else {
        throw BenchmarkError("callback failed: \(response.failures)")
      }
      return (try AppSideBenchmarks.json(fact), elapsed)
    }

    /// Wakes the pipeline as the extension's notification does, and checks that it drained
    /// exactly one fact.
    mutating func wakeDrainingOne() throws {
      let drain = try pipeline.wake(.notification, now: now)
      guard drain.applied == 1 else {
        throw BenchmarkError("the wake drained \(drain.applied) facts, not 1")
      }
    }

    /// The dashboard of today as of the last fact.
    func dashboard() throws -> Dashboard {
      try pipeline.dashboard(for: History.today, now: now)
    }
  }

  /// A fact's JSON as the outbox stores it (sorted keys, unescaped slashes).
  static func json(_ fact: MonitorFact) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(fact)
  }

  // MARK: - The histories of one run

  /// The histories of the run, each built once, on first use, and shared by every scenario.
  final class Histories: @unchecked Sendable {
    static let shared = Histories()
    private let lock = NSLock()
    private var built: [String: History] = [:]

    /// The history of `days` days under `options`' scratch directory, built if needed.
    func history(days: Int, _ options: BenchmarkOptions) throws -> History {
      lock.lock()
      defer { lock.unlock() }
      let key = "\(options.scratchDirectory.path) \(days)"
      if let history = built[key], FileManager.default.fileExists(atPath: history.template.path) {
        return history
      }
      let clock = ContinuousClock()
      let start = clock.now
      let history = try History.build(
        days: days, into: try options.freshDirectory("appside-template-\(days)d"))
      let elapsed = (clock.now - start).formatted
      let line =
        "    recorded the \(history.label) history (\(history.facts.grouped) facts) in "
        + elapsed
      FileHandle.standardError.write(Data((line + "\n").utf8))
      built[key] = history
      return history
    }
  }

  /// The histories a row compares: 1, 7 and 40 days, or 1 and 3 with `--quick`.
  static func historyDays(_ options: BenchmarkOptions) -> [Int] {
    options.quick ? [1, 3] : [1, 7, PipelineConfiguration.defaultRetentionDays]
  }

  static func histories(_ options: BenchmarkOptions) throws -> [History] {
    try historyDays(options).map { try Histories.shared.history(days: $0, options) }
  }
}

// MARK: - Timing on both clocks

/// One sample of an operation, on both clocks.
struct TimedSample {
  var wall: Duration
  var cpu: Duration

  /// Times `body` on both clocks.
  static func of(_ body: () throws -> Void) rethrows -> TimedSample {
    let (wall, cpu) = (TimeBase.wall.now(), TimeBase.cpu.now())
    try body()
    return TimedSample(wall: TimeBase.wall.now() - wall, cpu: TimeBase.cpu.now() - cpu)
  }

  /// Runs `operations` in turn, one sample of each per round.
  ///
  /// `iterations` rounds follow `warmup` untimed ones, so that all see the same disk and the same
  /// load. Each operation does its own untimed setup and returns the sample of the part it times.
  ///
  /// - Returns: The samples of each operation, in the order of `operations`.
  static func roundRobin(
    iterations: Int, warmup: Int = 3, _ operations: [() throws -> TimedSample]
  ) throws -> [[TimedSample]] {
    for _ in 0..<warmup {
      for operation in operations { _ = try operation() }
    }
    var samples = Array(repeating: [TimedSample](), count: operations.count)
    for _ in 0..<iterations {
      for (index, operation) in operations.enumerated() { samples[index].append(try operation()) }
    }
    return samples
  }
}

extension Array where Element == TimedSample {
  /// The samples on one clock, as a measurement named `name`.
  func measurement(_ name: String, clock: TimeBase) -> Measurement {
    Measurement(name: name, samples: map { clock == .cpu ? $0.cpu : $0.wall }, clock: clock)
  }
}
