import Foundation
import GapDetection
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The diagnostic log, and the report as text and JSON (the SVG has its own suite).
@Suite("Diagnostics")
struct DiagnosticsTests {
  func entry(_ at: Date, success: Bool, id: Int, description: String? = nil) throws
    -> DiagnosticEntry
  {
    try DiagnosticEntry(
      id: UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", id))") ?? UUID(),
      at: at, eventName: "stk:15m:com.duolingo", action: .recordUsage, success: success,
      errorDescription: description, memoryBytes: 3_000_000)
  }

  @Test(
    "relative times read in whole units, rounded down",
    arguments: [
      (0, "0s ago"), (45_999, "45s ago"), (60_000, "1m ago"), (3_599_999, "59m ago"),
      (7_200_000, "2h ago"), (-5_000, "in 5s"),
    ] as [(Int64, String)])
  func relativeTimes(milliseconds: Int64, text: String) {
    #expect(DiagnosticsReport.relativeTime(.milliseconds(milliseconds)) == text)
  }

  @Test("relative time of any duration does not trap")
  func relativeTimeDoesNotTrap() async {
    #if compiler(>=6.2)
    await #expect(processExitsWith: .success) {
      exit(DiagnosticsTests.describeExtremeTimes() ? 0 : 3)
    }
    #else
    // Swift 6.0 and 6.1 have no exit tests: checked in this process, where a trap fails the run.
    #expect(Self.describeExtremeTimes())
    #endif
  }

  /// Whether the relative times of the most extreme durations are all described.
  static func describeExtremeTimes() -> Bool {
    [
      DiagnosticsReport.relativeTime(.milliseconds(Int64.min)),
      DiagnosticsReport.relativeTime(.seconds(Int64.min)),
      DiagnosticsReport.relativeTime(.seconds(Int64.max)),
    ].allSatisfy { !$0.isEmpty }
  }

  @Test("relative time of extreme durations reads right")
  func relativeTimeOfExtremes() {
    #expect(DiagnosticsReport.relativeTime(.milliseconds(Int64.min)) == "in 2562047788015h")
    #expect(DiagnosticsReport.relativeTime(.seconds(Int64.max)) == "2562047788015215h ago")
    #expect(DiagnosticsReport.relativeTime(.seconds(Int64.min)) == "in 2562047788015215h")
    #expect(DiagnosticsReport.relativeTime(.milliseconds(-999)) == "in 0s")
  }

  // MARK: - The example day

  /// A day in Paris with a 15-minute pause in use and the tracker dead for it, a notification
  /// loss, two categories of usage and one failed entry.
  static func exampleReport(memoryBytes: UInt64 = 3_355_443) throws -> DiagnosticsReport {
    let paris = try zone("Europe/Paris")
    let boundary = DayBoundary(timeZone: paris)
    let day = try LocalDay(parsing: "2026-03-08")
    let at = { (text: String) in try instant("2026-03-08T" + text + "+01:00") }
    let beats =
      try heartbeats(from: at("10:00:00"), to: at("10:03:00"), every: 30)
      + heartbeats(from: at("10:18:00"), to: at("10:21:00"), every: 30)
    let usage = [
      try UsageRecord(
        app: AppID("com.duolingo"), category: .education, start: at("10:00:00"),
        end: at("10:03:00"), source: .thresholdEvent),
      try UsageRecord(
        app: AppID("com.duolingo"), category: .education, start: at("10:18:00"),
        end: at("10:21:00"), source: .thresholdEvent),
    ]
    let diagnostics = [
      try DiagnosticEntry(
        id: UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID(), at: at("10:02:00"),
        eventName: "stk:15m:com.duolingo", action: .postNotification, success: false,
        errorDescription: "notification center unavailable", memoryBytes: 3_355_443)
    ]
    let detector = GapDetector(
      boundary: boundary,
      expectation: .intervals([DateInterval(start: try at("10:00:00"), end: try at("10:30:00"))]))
    return DiagnosticsReport(
      day: day, now: try at("10:21:30"), detector: detector,
      heartbeats: try beats.map {
        try Heartbeat(at: $0.at, source: .monitorExtension, memoryBytes: memoryBytes)
      },
      usage: usage, diagnostics: diagnostics)
  }

  @Test("the text report reads as a diagnostics export, section by section")
  func textReport() throws {
    let expected = """
      Tracking Diagnostics
      Generated: 2026-03-08 10:21:30 (Europe/Paris, UTC+01:00)

      === EXTENSION HEALTH ===
      Status: Healthy
      Last Heartbeat: 30s ago
      Memory Usage: 3.2 MB (normal)

      === TRACKING ON 2026-03-08 ===
      Expected: 21m 30s · Tracked: 6m 00s · Idle: 30s · Unknown: 15m 00s
      ALERT: tracker down for 15m 00s between 10:00 and 10:21

      === DATA GAPS ===
      15m 00s gap: 10:03 - 10:18 (tracker down: heartbeat silence, usage silence)

      === ERROR LOG ===
      Failures today: 1
      [2026-03-08 10:02:00] post_notification: notification center unavailable

      """
    #expect(try Self.exampleReport().text == expected)
  }

  @Test(
    "a memory figure reads in megabytes rounded half up, whatever its size",
    arguments: [
      // Where `bytes × 10` fits and adding half a megabyte does not: this trapped.
      (1_844_674_407_370_902_733, "1759218604441.6 MB"),
      (1_844_674_407_370_955_161, "1759218604441.6 MB"),
      (UInt64.max, "17592186044416.0 MB"),
      (524_287, "0.5 MB"), (52_428, "0.0 MB"), (52_429, "0.1 MB"),
    ] as [(UInt64, String)])
  func memoryFigureOfAnySize(bytes: UInt64, text: String) throws {
    let report = try Self.exampleReport(memoryBytes: bytes)
    #expect(report.text.split(separator: "\n").contains { $0.hasPrefix("Memory Usage: \(text) (") })
  }

  @Test("health is judged from the recorder's latest heartbeat, not the largest instant")
  func healthFromTheRecordersLatest() throws {
    let store = InMemoryStore()
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    // The device clock was set back an hour at 10:30; the tracker kept beating.
    for beat in try heartbeats(
      from: instant("2026-03-08T10:00:00Z"), to: instant("2026-03-08T10:30:00Z"), every: 30)
      + heartbeats(
        from: instant("2026-03-08T09:30:00Z"), to: instant("2026-03-08T09:40:00Z"), every: 30)
    {
      try recorder.record(beat)
    }
    let now = try instant("2026-03-08T09:40:20Z")
    let appBeat = try Heartbeat(at: now, source: .app)
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let report = DiagnosticsReport(
      day: try LocalDay(parsing: "2026-03-08"), now: now, detector: GapDetector(boundary: boundary),
      heartbeats: try recorder.history().heartbeats + [appBeat], usage: [])
    #expect(report.health.status == .healthy(age: .seconds(20)))
    #expect(try report.health == HealthPolicy.standard.health(of: recorder.latest(), at: now))
    #expect(!report.heartbeats.contains(now), "the app's heartbeat is not the tracker's")
  }

  @Test("the JSON report round-trips")
  func jsonReport() throws {
    let report = try Self.exampleReport()
    let data = report.json()
    #expect(try JSONDecoder().decode(DiagnosticsReport.self, from: data) == report)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""generatedAt" : "2026-03-08T09:21:30Z""#))
  }

  @Test("strings from outside cannot forge lines of the text report")
  func textReportKeepsStringsOnTheirLines() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let day = try LocalDay(parsing: "2026-03-08")
    let entry = try DiagnosticEntry(
      id: UUID(uuidString: "00000000-0000-0000-0000-000000000009") ?? UUID(),
      at: instant("2026-03-08T10:00:00Z"), eventName: "stk:15m:x", action: .recordUsage,
      success: false, errorDescription: "boom\nStatus: Healthy\r\n\u{2028}=== FORGED ===\u{7}")
    let report = DiagnosticsReport(
      title: "Diagnostics\n=== FORGED ===", day: day, now: try instant("2026-03-08T12:00:00Z"),
      detector: GapDetector(boundary: boundary), heartbeats: [], usage: [], diagnostics: [entry])
    let lines = report.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(!lines.contains { $0.hasPrefix("=== FORGED") || $0.hasPrefix("Status: Healthy") })
    #expect(lines.first == #"Diagnostics\n=== FORGED ==="#)
    #expect(
      lines.contains(
        #"[2026-03-08 10:00:00] record_usage: boom\nStatus: Healthy\r\n\u{2028}=== FORGED ===\u{7}"#
      ))
    #expect(!report.json().isEmpty)
    let decoded = try JSONDecoder().decode(DiagnosticsReport.self, from: report.json())
    #expect(decoded.errors.first?.errorDescription == entry.errorDescription, "JSON keeps it")
  }
}
