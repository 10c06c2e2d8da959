import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// Values no sane caller passes, through GapDetection's public API: each gives a defined result
/// or a typed error, never a trap, a hang or unbounded memory.
@Suite("Hostile values give a defined result or a typed error")
struct HostileValueTests {
  static let unusableDates = [
    Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity),
    Date(timeIntervalSince1970: -.infinity), .distantPast, Date(timeIntervalSince1970: 1e300),
  ]

  @Test("a report at an unusable instant counts it as the nearest supported one")
  func reportsAtUnusableInstants() throws {
    let boundary = DayBoundary(timeZone: try zone("Europe/Paris"))
    let day = try LocalDay(parsing: "2026-03-08")
    let t0 = try instant("2026-03-08T09:00:00Z")
    let beats = try heartbeats(from: t0, to: t0.addingTimeInterval(600), every: 30)
    let detector = GapDetector(boundary: boundary, expectation: .always)
    for date in Self.unusableDates {
      let report = detector.report(for: day, now: date, heartbeats: beats, usage: [])
      #expect(report.period.duration <= 86_400)
      let health = HealthPolicy.standard.health(of: beats.last, at: date)
      #expect(health.checkedAt.timeIntervalSince1970.isFinite)
      let diagnostics = DiagnosticsReport(
        day: day, now: date, detector: detector, heartbeats: beats, usage: [])
      #expect(!diagnostics.text.isEmpty)
      #expect(diagnostics.svg.hasPrefix("<?xml"))
      #expect(!diagnostics.json().isEmpty)
      // A period with an unusable bound is clamped, not refused.
      _ = detector.report(
        period: DateInterval(start: date, duration: 3_600), now: t0, heartbeats: beats, usage: [])
      #expect(throws: SignalValuesError.self) { try sighting(1, at: date) }
      #expect(throws: SignalValuesError.self) {
        try loss(1...2, after: date, before: t0)
      }
    }
  }

  @Test("heartbeats from the future are clock skew; a report before them counts them as not yet")
  func clockGoesBack() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let t0 = try instant("2026-03-08T09:00:00Z")
    let future = try heartbeats(
      from: t0.addingTimeInterval(3_600), to: t0.addingTimeInterval(7_200), every: 30)
    let health = HealthPolicy.standard.health(of: future.last, at: t0)
    #expect(health.status == .clockSkew(ahead: .seconds(7_200)))
    #expect(!health.isHealthy)
    let report = GapDetector(boundary: boundary, expectation: .always).report(
      for: try LocalDay(parsing: "2026-03-08"), now: t0, heartbeats: future, usage: [])
    #expect(report.period.end == t0)
    #expect(report.gaps.allSatisfy { $0.end <= t0 })
    #expect(DiagnosticsReport.relativeTime(.seconds(-90)) == "in 1m")
    // Evaluated before the day began, the period is empty, and the report its own round trip.
    let early = GapDetector(boundary: boundary, expectation: .always).report(
      for: try LocalDay(parsing: "2026-03-09"), now: t0, heartbeats: future, usage: [])
    #expect(early.period.duration == 0)
    #expect(try decode(GapReport.self, json(early)) == early)
  }

  @Test("extreme durations are refused by a policy and clamped by a merger's pulse time")
  func extremeDurations() throws {
    for duration in [Duration.seconds(Int64.max), .seconds(Int64.min), .milliseconds(-1)] {
      #expect(throws: GapDetectionError.self) { try HealthPolicy(staleAfter: duration) }
      #expect(throws: GapDetectionError.self) { try AdaptivePulseTime(initial: duration) }
      var merger = HeartbeatMerger<Int>(pulseTime: .fixed(duration))
      let t0 = try instant("2026-03-08T09:00:00Z")
      _ = try merger.add(at: t0, data: 1)
      _ = try merger.add(at: t0.addingTimeInterval(60), data: 1)
      #expect(throws: GapDetectionError.self) {
        try merger.add(at: t0, duration: duration, data: 1)
      }
      _ = DiagnosticsReport.relativeTime(duration)
    }
    _ = try HealthPolicy(
      staleAfter: .milliseconds(Int64.max), gapAfter: .milliseconds(Int64.max),
      usageGapAfter: .milliseconds(Int64.max), alertAfter: .milliseconds(Int64.max),
      clockSkewTolerance: .milliseconds(Int64.max))
  }

  @Test("a million heartbeats of one day merge and report in bounded memory")
  func aMillionHeartbeats() throws {
    let t0 = try instant("2026-03-08T00:00:00Z")
    let beats = try (0..<1_000_000).map {
      try Heartbeat(at: t0.addingTimeInterval(Double($0) * 0.08), source: .monitorExtension)
    }
    let intervals = HeartbeatMerger.merge(beats, pulseTime: .fixed(.seconds(1)))
    #expect(intervals.count == 1)
    #expect(intervals.first?.heartbeatCount == 1_000_000)
    let report = GapDetector(boundary: DayBoundary(timeZone: try zone("UTC"))).report(
      for: try LocalDay(parsing: "2026-03-08"), now: t0.addingTimeInterval(86_400),
      heartbeats: beats, usage: [])
    #expect(report.gaps.count == 1)
  }

  @Test("1 MB titles and descriptions render on one line each, escaped")
  func megabyteText() throws {
    let megabyte = String(repeating: "<&\n", count: 350_000)
    let t0 = try instant("2026-03-08T09:00:00Z")
    let entry = try DiagnosticEntry(
      id: UUID(), at: t0, eventName: megabyte, action: .recordUsage, success: false,
      errorDescription: megabyte)
    let report = DiagnosticsReport(
      title: megabyte, day: try LocalDay(parsing: "2026-03-08"), now: t0,
      detector: GapDetector(boundary: DayBoundary(timeZone: try zone("UTC"))), heartbeats: [],
      usage: [], diagnostics: [entry])
    let text = report.text
    #expect(!text.contains("<&\n<&"))
    #expect(text.split(separator: "\n").count < 40)
    #expect(!report.svg.contains("<&"))
    #expect(throws: Never.self) {
      try JSONDecoder().decode(DiagnosticsReport.self, from: report.json())
    }
  }

  @Test("an unknown time zone in a stored expectation is a DecodingError")
  func unknownTimeZones() throws {
    for identifier in ["Mars/Olympus", "", "../../etc/passwd"] {
      #expect(throws: DecodingError.self) {
        try decode(
          TrackingExpectation.self,
          #"{"kind":"schedules","timeZone":"\#(identifier)","schedules":[]}"#)
      }
    }
  }
}
