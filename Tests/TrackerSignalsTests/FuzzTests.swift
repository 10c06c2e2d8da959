import Foundation
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// Hostile JSON for every `Codable` type of TrackerSignals, and for a planted diagnostic log
/// behind ``DiagnosticLog``: decoding throws or gives a value that round-trips and survives its
/// main operations; it never traps or hangs.
@Suite("Decoding hostile JSON never traps")
struct FuzzTests {
  static let plan = Fuzz.Plan(seed: 0x5EED_0004, makeTargets)

  @Test("every input decodes to a usable value or throws a DecodingError", arguments: plan.targets)
  func fuzz(_ target: Fuzz.Target) throws {
    try Self.plan.run(target)
  }

  // swift-format-ignore: FunctionBodyLength
  static func makeTargets() throws -> [Fuzz.Target] {
    let now = try instant("2026-03-08T12:00:00Z")
    let heartbeat = try Heartbeat(
      at: now, source: .monitorExtension, sequence: 7, memoryBytes: 3_000_000)
    let entry = try DiagnosticEntry(
      id: UUID(), at: now, eventName: "stk:15m:com.a", action: .recordUsage, success: false,
      errorDescription: "disk full", memoryBytes: 1)
    let fact = try MonitorFact(
      .eventDidReachThreshold, activity: "daily", event: "stk:15m:com.a", at: now)
    let history = HeartbeatHistory(
      source: .app, capacity: 10, evictedCount: 3, heartbeats: [heartbeat])
    let boundary = DayBoundary(timeZone: try #require(TimeZone(identifier: "Asia/Tokyo")))
    let today = try boundary.day(containing: now)

    return [
      .decoding([DiagnosticAction.memoryWarning]),
      .decoding([entry]) { entry in
        _ = DiagnosticEntry.failures(in: [entry], on: today, boundary: boundary)
      },
      .decoding([heartbeat]),
      .decoding([history]) { _ = $0.latest },
      .decoding([HeartbeatSource.reportExtension]),
      .decoding([HeartbeatRecordOutcome.duplicate]),
      .decoding([MonitorCallback.intervalWillEndWarning]),
      .decoding([fact]),
      .decoding([RestartAdvice(isDue: true, interval: .seconds(60))]),
      .decoding([RestartPolicy.standard]) { policy in
        for (last, at) in [(now, now), (Date.distantPast, Date.distantFuture), (now, .distantPast)]
        {
          for state in AppState.allCases {
            _ = policy.interval(appState: state, lastEventAt: last, now: at)
          }
        }
      },
      .decoding([AppState.background]),
      Fuzz.Target(description: "stored diagnostic log") { inputs, seed in
        try storedLog(entry, now: now, boundary: boundary, inputs: inputs, seed: seed)
      },
    ]
  }

  /// A planted log record: appending and reading give an answer or a typed error, never a trap.
  ///
  /// The log keeps each entry as its own record; the fuzzed bytes are planted as a record beside
  /// a valid one.
  static func storedLog(
    _ entry: DiagnosticEntry, now: Date, boundary: DayBoundary, inputs: Int, seed: UInt64
  ) throws -> Fuzz.Tally {
    let valid = try JSONEncoder().encode(entry)
    let fresh = try DiagnosticEntry(
      id: UUID(), at: now, eventName: "e", action: .heartbeat, success: false)
    return try Fuzz.runBytes(seeds: [Array(valid)], inputs: inputs, seed: seed) { bytes in
      let store = InMemoryStore()
      let log = try DiagnosticLog(store: store, key: "log", capacity: 2)
      try log.append(entry)
      try store.append([Data(bytes)], toLog: "log", capacity: 2)
      do {
        _ = try log.snapshot()
        _ = try log.todaysFailures(now: now, boundary: boundary)
        try log.append(fresh)
        return true
      } catch {
        return false
      }
    }
  }
}
