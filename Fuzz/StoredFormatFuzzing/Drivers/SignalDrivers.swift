import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// The instant the signal drivers record at: 2026-03-08T12:00:00Z.
let fuzzNow = Date(timeIntervalSince1970: 1_772_971_200)

/// A heartbeat history's records (the `TheHeartbeatHotPath` article) read by `latest` and
/// `history` and recorded to.
final class HeartbeatsDriver: StoredFormatDriver {
  let key: String
  let companions: [String: [UInt8]] = [:]
  let seeds: [[UInt8]]
  private let recorder: HeartbeatRecorder

  init(_ sandbox: StoredFormatSandbox) throws {
    let recorder = try HeartbeatRecorder(
      store: sandbox.store, source: .monitorExtension, capacity: 8)
    self.recorder = recorder
    key = recorder.key
    func record(_ count: Int, sequence: Bool, memory: Bool) throws -> [UInt8] {
      try sandbox.written(recorder.key) { _ in
        for index in 0..<count {
          try recorder.record(
            at: fuzzNow.addingTimeInterval(Double(30 * index)),
            sequence: sequence ? UInt64(index) : nil, memoryBytes: memory ? 3_000_000 : nil)
        }
      }
    }
    /// Records with any fields, beside a valid one.
    func log(_ records: [[UInt8]]) -> [UInt8] {
      var valid: [UInt8] = [1, 0]
      withUnsafeBytes(of: Int64(1_772_971_200_000).littleEndian) { valid += $0 }
      let all = [valid] + records
      return Array(
        LogFileFormat.file(
          header: LogFileFormat.Header(
            tokenBase: 1, identity: 2, capacity: 8, evicted: 0, nextPosition: 1),
          records: all.enumerated().map { LogRecord(position: UInt64($0 + 1), bytes: Data($1)) }))
    }
    let earliest = withUnsafeBytes(of: Int64(-62_135_424_000_000).littleEndian, Array.init)
    let latest = withUnsafeBytes(of: Int64(253_402_041_600_000).littleEndian, Array.init)
    let ones = [UInt8](repeating: 0xFF, count: 8)
    seeds = [
      try record(1, sequence: false, memory: false),
      try record(3, sequence: true, memory: true),
      try record(20, sequence: true, memory: false),
      log([[1, 3] + earliest + ones + ones, [1, 1] + latest + ones, [1, 2] + earliest + ones]),
      log([[2, 0] + earliest, [1, 4] + earliest, [1, 0] + earliest + [0]]),
      Array(StoreFileFormat.encode(payload: Data([1, 0] + latest), generation: 3)),
    ]
  }

  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let recorder = recorder
    let name = StoredBytes.fileName(forKey: key)
    let latest = try probe.read("latest") { try recorder.latest() }
    let history = try probe.read("history") { try recorder.history() }
    if let history = history.value {
      try probe.require(
        latest.returned, "latest", "refused a history that history() read: \(latest)")
      try probe.require(
        latest.value == .some(history.heartbeats.last), "latest",
        "is not the history's newest heartbeat")
      try probe.require(
        history.heartbeats.count <= history.capacity, "history",
        "\(history.heartbeats.count) heartbeats for a capacity of \(history.capacity)")
    }

    let heartbeat: Heartbeat
    do {
      heartbeat = try Heartbeat(
        at: fuzzNow.addingTimeInterval(86_400), source: .monitorExtension, sequence: 99,
        memoryBytes: 1)
    } catch {
      throw probe.violation("Heartbeat", "the heartbeat to record is invalid: \(error)")
    }
    let recorded = try probe.change("record", mayChange: [name]) {
      try recorder.record(heartbeat)
    }
    if recorded.returned {
      let after = try probe.read("latest after record") { try recorder.latest() }
      try probe.require(
        after.value == .some(heartbeat), "record",
        "latest() afterwards is \(String(describing: after.value))")
      let again = try probe.change("record again", mayChange: [name]) {
        try recorder.record(heartbeat)
      }
      try probe.require(
        again.value == .duplicate, "record again", "gave \(again), not a duplicate")
    }
    return history.returned
  }
}

/// The records of a `BoundedLog` of diagnostic entries, through `DiagnosticLog` and
/// `BoundedLog`: read, appended to (with and without the check for an entry already there) and
/// pruned.
final class DiagnosticLogDriver: StoredFormatDriver {
  let key = SharedFolderLayout.standard.diagnosticsKey
  let companions: [String: [UInt8]] = [:]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox
  private let diagnostics: DiagnosticLog
  private let bounded: BoundedLog<DiagnosticEntry>
  private let entry: DiagnosticEntry
  private let boundary = DayBoundary(timeZone: TimeZone(secondsFromGMT: 3_600) ?? .current)

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    let key = key
    diagnostics = try DiagnosticLog(store: sandbox.store, key: key, capacity: 5)
    bounded = try BoundedLog(store: sandbox.store, key: key, capacity: 5)
    func entry(_ index: Int, success: Bool = false) throws -> DiagnosticEntry {
      try DiagnosticEntry(
        id: UUID(uuid: (UInt8(index), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
        at: fuzzNow.addingTimeInterval(Double(-3_600 * index)), eventName: "stk:15m:com.a",
        action: index.isMultiple(of: 2) ? .recordUsage : .heartbeat, success: success,
        errorDescription: success ? nil : "disk full", memoryBytes: UInt64(index))
    }
    self.entry = try entry(99)
    let diagnostics = diagnostics
    let entries = try (0..<12).map { try entry($0, success: $0.isMultiple(of: 3)) }
    let valid = try JSONEncoder().encode(entries[0])
    let junk = [Data(), Data("{}".utf8), Data("[".utf8), valid + Data(" ".utf8)]
    seeds = [
      try sandbox.written(key) { _ in try diagnostics.append(entries[0]) },
      try sandbox.written(key) { _ in
        for entry in entries { try diagnostics.append(entry) }
      },
      try sandbox.written(key) { _ in
        for entry in entries.prefix(4) + entries.prefix(2) { try diagnostics.append(entry) }
      },
      Array(
        LogFileFormat.file(
          header: LogFileFormat.Header(
            tokenBase: 1, identity: 2, capacity: 5, evicted: 3, nextPosition: 4),
          records: ([valid] + junk).enumerated().map {
            LogRecord(position: UInt64($0 + 4), bytes: $1)
          })),
    ]
  }

  // swift-format-ignore: FunctionBodyLength
  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let (diagnostics, bounded, boundary) = (diagnostics, bounded, boundary)
    let name = StoredBytes.fileName(forKey: key)
    let snapshot = try probe.read("DiagnosticLog.snapshot") { try diagnostics.snapshot() }
    try probe.read("todaysFailures") {
      try diagnostics.todaysFailures(now: fuzzNow, boundary: boundary)
    }
    let contents = try probe.read("BoundedLog.snapshot") { try bounded.snapshot() }
    try probe.require(
      snapshot.returned == contents.returned, "DiagnosticLog.snapshot",
      "disagrees with BoundedLog.snapshot: \(snapshot) and \(contents)")
    if let (entries, evicted) = snapshot.value, let contents = contents.value {
      var seen = Set<UUID>()
      try probe.require(
        entries == contents.entries.filter { seen.insert($0.id).inserted }
          && evicted == contents.evictedCount, "DiagnosticLog.snapshot",
        "is not the bounded log's entries, each once")
    }

    let entry = entry
    let appended = try probe.change("DiagnosticLog.append", mayChange: [name]) {
      try diagnostics.append(entry)
    }
    if appended.returned {
      // An append reads the end of the log only: damage before it is the next full read's.
      let store = sandbox.store
      let key = key
      let after = try probe.read("readLog(newest: 1) after append") {
        try store.readLog(key, newest: 1)?.records.last.map {
          try JSONDecoder().decode(DiagnosticEntry.self, from: $0.bytes)
        }
      }
      try probe.require(
        after.value == .some(entry), "DiagnosticLog.append",
        "the newest entry afterwards is not the one appended: \(after)")
    }

    try probe.restore()
    try probe.change("BoundedLog.append", mayChange: [name]) { try bounded.append(entry) }

    try probe.restore()
    let cutoff = fuzzNow.addingTimeInterval(-4 * 3_600)
    let pruned = try probe.change("prune", mayChange: [name]) {
      try bounded.prune(before: cutoff) { $0.at }
    }
    if pruned.returned {
      let after = try probe.read("entries after prune") { try bounded.entries() }
      try probe.require(
        after.value?.allSatisfy { $0.at >= cutoff } == true, "prune",
        "the entries afterwards are not all after the cutoff: \(after)")
    }
    return contents.returned
  }
}
