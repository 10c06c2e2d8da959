import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals

/// The monitor extension's hot path: a `MonitorRecorder` callback on a real `FileStore`
/// directory, timed against one raw durable write of the fact's bytes, and the peak resident
/// memory of a process doing 10,000 callbacks (in `ExtensionBenchmarks+Memory.swift`).
enum ExtensionBenchmarks {
  static let suite = BenchmarkSuite(
    name: "extension",
    summary: "MonitorRecorder callbacks vs one raw durable write; peak RSS of 10,000 callbacks",
    scenarios: [
      Scenario([callbackName, floorName]) { try callbackRows($0, &$1) },
      Scenario([memoryName, memoryControlName]) { try memoryRows($0, &$1) },
    ]
  )

  static let callbackName = "MonitorRecorder.eventDidReachThreshold"

  static func callbackRows(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let iterations = options.iterations(300)
    var directory = try ExtensionDirectory.prepare(try options.freshDirectory("monitor"))
    let recorder = MonitorRecorder(folder: try SharedFolder(directory: directory.url))
    // The fact's bytes: the frame one callback appends to the outbox, measured on the file; the
    // heartbeat's frame, for the note.
    let outbox = directory.path(SharedFolderLayout.standard.outboxKey)
    let heartbeats = directory.path(recorder.heartbeats.key)
    let (outboxBefore, heartbeatsBefore) = (
      try RawAppend.size(of: outbox), try RawAppend.size(of: heartbeats)
    )
    try directory.callback(recorder)
    let frame = Data(count: try RawAppend.size(of: outbox) - outboxBefore)
    let heartbeatFrame = try RawAppend.size(of: heartbeats) - heartbeatsBefore

    let replace = try RawReplace(directory: try options.freshDirectory("raw-fact"), flush: true)
    let workSize = "one callback × \(iterations.grouped)"
    let note =
      "a \(frame.count)-byte fact frame (durable) and a \(heartbeatFrame)-byte heartbeat frame, "
      + "which carries the outbox's high-water mark (without a flush), per callback; the outbox of \(SharedFolderLayout.standard.outboxCapacity.grouped) "
      + "and the day's heartbeat history both full and half-way to their next compaction; "
      + "timed alternately with the baseline"
    let (callback, written) = try Measurement.paired(
      callbackName,
      against: "one raw durable write of the fact's bytes (replace: flush file + dir)",
      iterations: iterations, baseline: { try replace.write(frame, name: "fact") },
      measuring: { try directory.callback(recorder) })
    report.add(
      Report.Row(
        suite: suite.name, scenario: callbackName, workSize: workSize, figure: .init(callback),
        baseline: Report.Baseline(written), target: .atMost(1.5),
        limit: "A callback's only durable work is appending the fact: one flush of the outbox's "
          + "file. The heartbeat, which carries the outbox's mark, is appended without a flush, "
          + "and the logs' ends are read from the page cache. One raw durable write is two flushes; the target allows the "
          + "callback no more than the write an integrator would otherwise do.",
        note: note))

    let append = try RawAppend(directory: try options.freshDirectory("raw-append"), flush: true)
    let (again, appended) = try Measurement.paired(
      callbackName, against: "raw durable append of the fact's bytes (write + flush)",
      iterations: iterations, baseline: { try append.append(frame, name: "facts") },
      measuring: { try directory.callback(recorder) })
    report.add(
      Report.Row(
        suite: suite.name, scenario: callbackName, workSize: workSize, figure: .init(again),
        baseline: Report.Baseline(appended), target: .atMost(1.2),
        limit: "The floor of a durable callback is this append of its fact and its one flush. "
          + "The callback adds the folder's lock, taken once for its two writes (a flock and "
          + "an lstat of the lock file), one fstatat of each of its two logs' files, kept open "
          + "since the previous callback with their newest record decoded (the heartbeat's, "
          + "which carries the outbox's high-water mark, is read before the fact is numbered), "
          + "one fstatat that finds no mark log, and the heartbeat's write without a flush: 9 "
          + "system calls against the raw append's 4.",
        note: "the floor of a durable callback: open, write at the end, flush, close; " + note))

    // The callback's own system calls, with no Swift work between them: how much of the row
    // above the system calls are, and how much the work around them.
    let calls = try RawCallback(directory: try options.freshDirectory("raw-callback"))
    let heartbeat = Data(count: heartbeatFrame)
    let (floor, appendedAgain) = try Measurement.paired(
      floorName, against: "raw durable append of the fact's bytes (write + flush)",
      iterations: iterations, baseline: { try append.append(frame, name: "facts") },
      measuring: { try calls.call(fact: frame, heartbeat: heartbeat) })
    report.add(
      Report.Row(
        suite: suite.name, scenario: floorName,
        workSize: "one callback's calls × \(iterations.grouped)",
        figure: .init(floor), baseline: Report.Baseline(appendedAgain), target: nil, limit: nil,
        note: "flock, lstat of the lock file, fstatat of a missing mark log and of the two "
          + "logs' files, pwrite of the \(frame.count)-byte fact frame, its flush, pwrite of the "
          + "\(heartbeatFrame)-byte heartbeat frame, unlock, on descriptors kept open: the "
          + "callback's system calls as strace shows them, with nothing between them; the "
          + "callback's ratio above this one is the Swift work around them; timed alternately"))
  }

  static let floorName = "the callback's system calls alone"
}

/// A shared store directory as a monitor extension finds it in the middle of a busy day, and
/// the callbacks it receives.
///
/// The outbox holds 1.5 × its capacity of facts (full, and half-way to its next compaction), and
/// the heartbeat history 1.5 × a day: every callback evicts the oldest fact and heartbeat, and
/// compactions come at their usual pace, once per capacity records.
struct ExtensionDirectory {
  let url: URL
  /// When the next callback runs.
  private(set) var now: Date
  /// The number of the next callback, which names its event.
  private var serial = 0

  /// Fills a fresh directory as the type describes, or, with `compactingAfter`, so that both
  /// logs compact at that callback.
  ///
  /// It writes through stores without flushes, so that filling takes milliseconds; the files
  /// are as the callbacks and a compaction leave them: the older facts in frames of about 4 KB,
  /// as a compaction packs them (one frame of 1,024 facts, which no extension writes, would cost
  /// the next compaction 0.5 MB to decode), and the newer ones a frame each.
  ///
  /// - Parameters:
  ///   - url: The directory.
  ///   - compactingAfter: When given, the outbox and the heartbeat history each hold twice
  ///     their capacity less this many records, so that the callback after that many compacts
  ///     both.
  /// - Returns: The directory, with the time of its next callback.
  /// - Throws: What the stores throw.
  static func prepare(_ url: URL, compactingAfter: Int? = nil) throws -> ExtensionDirectory {
    let store = try FileStore(directory: url, durability: .processCrashSafe)
    let capacity = SharedFolderLayout.standard.outboxCapacity
    let outbox = try SequencedOutbox<MonitorFact>(
      store: store, key: SharedFolderLayout.standard.outboxKey, capacity: capacity)
    let heartbeats = try HeartbeatRecorder(directory: url, source: .monitorExtension)
    let beats =
      compactingAfter.map { 2 * heartbeats.capacity - $0 }
      ?? heartbeats.capacity + heartbeats.capacity / 2
    let facts = compactingAfter.map { 2 * capacity - $0 } ?? capacity + capacity / 2
    var directory = ExtensionDirectory(
      url: url, now: Date(timeIntervalSince1970: 1_772_928_000))
    var pending: [MonitorFact] = []
    for index in 0..<beats {
      directory.now += 30
      try heartbeats.record(at: directory.now, sequence: UInt64(index), memoryBytes: 3_000_000)
      guard index >= beats - facts else { continue }
      pending.append(try directory.nextFact())
      // The first capacity facts in appends of 26 (about 4 KB, the frames a compaction packs),
      // the rest one by one.
      if pending.count == 26 || index >= beats - facts + capacity {
        try outbox.publish(contentsOf: pending) { _ in }
        pending = []
      }
    }
    directory.now += 30
    return directory
  }

  /// Opens a directory that ``prepare(_:)`` filled, in another process: the next callback runs
  /// 30 s after the newest heartbeat.
  static func resume(_ url: URL) throws -> ExtensionDirectory {
    let heartbeats = try HeartbeatRecorder(directory: url, source: .monitorExtension)
    guard let latest = try heartbeats.latest() else {
      throw BenchmarkError("no heartbeat in \(url.path)")
    }
    return ExtensionDirectory(url: url, now: latest.at + 30)
  }

  /// The threshold event of the next callback.
  private mutating func nextFact() throws -> MonitorFact {
    serial += 1
    return try MonitorFact(
      .eventDidReachThreshold, activity: "daily", event: event(serial), at: now)
  }

  /// An event name as ThresholdEventName spells them: `stk:15m:com.example.app3`.
  private func event(_ serial: Int) -> String {
    Self.eventNames[serial % Self.eventNames.count]
  }

  /// The 180 names ``event(_:)`` cycles through, made once before anything is timed.
  ///
  /// The platform hands a callback its event's name (`DeviceActivityEvent.Name.rawValue`): the
  /// time to format one is the caller's, not the callback's. Formatted inside the timed closure,
  /// the name cost about 0.02 of the callback's ratio to the raw append.
  private static let eventNames = (0..<180).map {
    "stk:\($0 % 60 + 1)m:com.example.app\($0 % 9)"
  }

  /// Makes one `eventDidReachThreshold` callback, 30 s after the previous one, and checks that
  /// it wrote its fact and its heartbeat.
  mutating func callback(_ recorder: MonitorRecorder) throws {
    serial += 1
    let response = recorder.eventDidReachThreshold(
      event(serial), activity: "daily", now: now, memoryBytes: 3_000_000)
    guard response.succeeded, response.notification != nil else {
      throw BenchmarkError("callback failed: \(response.failures)")
    }
    now += 30
  }

  /// The path of the file that holds `key` (FileStore writes an uppercase letter as `^` and the
  /// lowercase letter: Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/FileFormat.md).
  func path(_ key: String) -> String {
    var name = ""
    for character in key {
      if character.isUppercase {
        name += "^" + character.lowercased()
      } else {
        name.append(character)
      }
    }
    return url.appendingPathComponent(name).path
  }
}
