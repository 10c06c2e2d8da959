import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// Every span of the public API is a `DateInterval` with its exact length beside it as a
/// `Duration`, equal to the interval's ends apart to the millisecond.
@Suite("Spans and their exact lengths")
struct SpanLengthTests {
  /// The interval's length in whole milliseconds, as the library rounds its ends.
  func milliseconds(_ interval: DateInterval) -> Duration {
    .milliseconds(
      Int64((interval.end.timeIntervalSince1970 * 1000).rounded())
        - Int64((interval.start.timeIntervalSince1970 * 1000).rounded()))
  }

  /// A report with a gap, evidence, usage, missed numbers and an alert, at instants that are not
  /// whole seconds.
  func report() throws -> (GapReport, GapDetector) {
    let t0 = try instant("2026-03-08T09:00:00.123Z")
    let beats =
      try heartbeats(from: t0, to: t0.addingTimeInterval(600), every: 30)
      + heartbeats(
        from: t0.addingTimeInterval(1700.457), to: t0.addingTimeInterval(3600), every: 30)
    let usage = [
      try UsageRecord(
        app: AppID("com.example.app"), start: t0, end: t0.addingTimeInterval(60.5),
        source: .thresholdEvent)
    ]
    let missed = [
      try loss(3...4, after: t0.addingTimeInterval(100.25), before: t0.addingTimeInterval(700))
    ]
    let detector = GapDetector(
      boundary: DayBoundary(timeZone: try zone("Europe/Paris")),
      expectation: .intervals([
        DateInterval(start: t0, duration: 1800), DateInterval(start: t0 + 2000, duration: 1600),
      ]))
    let report = detector.report(
      period: DateInterval(start: t0.addingTimeInterval(-0.4), duration: 3600),
      now: t0.addingTimeInterval(4000), heartbeats: beats, usage: usage,
      missedSequences: missed)
    return (report, detector)
  }

  @Test("a report's period and windows come with their exact lengths")
  func reportSpans() throws {
    let (report, _) = try report()
    #expect(report.periodDuration == milliseconds(report.period))
    #expect(report.periodDuration == .milliseconds(3_600_000))
    #expect(report.windowDurations == report.windows.map(milliseconds))
    #expect(report.windowDurations == [.milliseconds(1_800_000), .milliseconds(1_599_600)])
    #expect(report.windowDurations.reduce(.zero, +) == report.expected)
  }

  @Test("gaps, evidence and accounting pieces come with their exact lengths")
  func partsSpans() throws {
    let (report, _) = try report()
    #expect(!report.gaps.isEmpty)
    for gap in report.gaps {
      #expect(gap.duration == milliseconds(gap.interval))
      for evidence in gap.evidence {
        #expect(evidence.duration == milliseconds(evidence.interval))
        #expect(evidence.interval == DateInterval(start: evidence.start, end: evidence.end))
      }
    }
    let pieces = report.days.flatMap(\.windows)
    #expect(!pieces.isEmpty)
    for piece in pieces {
      #expect(piece.duration == milliseconds(piece.interval))
      #expect(piece.duration == piece.tracked + piece.idle + piece.unknown)
      #expect(piece.interval == DateInterval(start: piece.start, end: piece.end))
    }
  }

  @Test("an alert's window and a rates window come with their exact lengths")
  func policySpans() throws {
    let (report, detector) = try report()
    let alert = try #require(TrackerDownAlert.evaluate(report, policy: detector.policy).first)
    #expect(alert.windowDuration == milliseconds(alert.window))
    #expect(alert.windowDuration == .milliseconds(1_800_000))
    let window = DateInterval(
      start: try instant("2026-03-01T00:00:00Z").addingTimeInterval(0.000_4),
      end: try instant("2026-03-08T00:00:00Z"))
    let rates = HealthRates(window: window, checks: [], diagnostics: [], sessions: [], alerts: [])
    #expect(rates.windowDuration == .seconds(7 * 86_400))
    #expect(rates.windowDuration == milliseconds(rates.window))
  }

  @Test("missed numbers, usage blocks and activity intervals come with their exact lengths")
  func valueSpans() throws {
    let t0 = try instant("2026-03-08T09:00:00Z")
    let missed = try loss(
      6...8, after: t0.addingTimeInterval(0.0006), before: t0.addingTimeInterval(1200))
    #expect(missed.duration == .milliseconds(1_199_999))
    #expect(missed.interval == DateInterval(start: missed.after, end: missed.before))
    let report = DiagnosticsReport(
      day: try LocalDay(parsing: "2026-03-08"), now: t0.addingTimeInterval(3600),
      detector: GapDetector(boundary: DayBoundary(timeZone: try zone("UTC"))), heartbeats: [],
      usage: [
        try UsageRecord(
          app: AppID("com.example.app"), category: .education, start: t0,
          end: t0.addingTimeInterval(90.25), source: .thresholdEvent)
      ])
    let block = try #require(report.usage.first)
    #expect(block.duration == .milliseconds(90_250))
    #expect(block.interval == DateInterval(start: block.start, end: block.end))
    var merger = HeartbeatMerger<String>(pulseTime: .fixed(.seconds(30)))
    _ = try merger.add(at: t0, duration: .milliseconds(2500), data: "a")
    let finished = merger.finish()
    let interval = try #require(finished)
    #expect(interval.duration == .milliseconds(2500))
    #expect(interval.duration == milliseconds(interval.interval))
  }
}
