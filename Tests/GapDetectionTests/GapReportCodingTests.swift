import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// The JSON forms of reports and their parts: round trips, and values that cannot have come
/// from a detector refused instead of trapping later.
@Suite("Gap report JSON")
struct GapReportCodingTests {
  @Test("a report's JSON form round-trips")
  func reportJSON() throws {
    let t0 = try instant("2026-03-08T09:00:00Z")
    let report = GapDetector(boundary: DayBoundary(timeZone: try zone("Europe/Paris"))).report(
      period: DateInterval(start: t0, duration: 3600), now: t0.addingTimeInterval(3600),
      heartbeats: try heartbeats(from: t0, to: t0.addingTimeInterval(600), every: 30),
      usage: [
        try UsageRecord(
          app: AppID("com.example.app"), start: t0, end: t0.addingTimeInterval(60),
          source: .thresholdEvent)
      ],
      missedSequences: [
        try loss(1...2, after: t0, before: t0.addingTimeInterval(90))
      ])
    let text = try json(report)
    #expect(text.contains(#""class":"tracker_down""#))
    #expect(
      text.contains(
        #""kind":"missed_sequence","missedEpoch":"00000000000000a1","missedFirst":1,"missedLast":2"#
      ))
    #expect(try decode(GapReport.self, text) == report)
  }

  @Test("a window accounting whose parts overflow is a decoding error, not a trap")
  func accountingDecodingDoesNotTrap() async {
    #if compiler(>=6.2)
    await #expect(processExitsWith: .success) {
      exit(GapReportCodingTests.overflowingAccountingIsRefused() ? 0 : 3)
    }
    #else
    // Swift 6.0 and 6.1 have no exit tests: checked in this process, where a trap fails the run.
    #expect(Self.overflowingAccountingIsRefused())
    #endif
  }

  /// Whether decoding a window accounting whose parts overflow throws a `DecodingError`.
  static func overflowingAccountingIsRefused() -> Bool {
    let text =
      #"{"start":"2026-03-08T00:00:00Z","end":"2026-03-08T00:00:01Z","#
      + #""trackedMs":9223372036854775807,"idleMs":1,"unknownMs":0}"#
    do {
      _ = try JSONDecoder().decode(WindowAccounting.self, from: Data(text.utf8))
      return false
    } catch {
      return error is DecodingError
    }
  }

  /// A report's JSON form whose days hold `copies` windows of 9,998 years each.
  static func hugeReport(copies: Int) -> String {
    let window =
      #"{"start":"0001-01-03T00:00:00Z","end":"9999-12-29T00:00:00Z","#
      + #""trackedMs":0,"idleMs":315537465600000,"unknownMs":0}"#
    let days = (0..<copies).map { index in
      #"{"day":"2026-03-"# + (index < 9 ? "0" : "") + "\(index + 1)" + #"","windows":["# + window
        + "]}"
    }
    return #"{"start":"0001-01-03T00:00:00Z","end":"9999-12-29T00:00:00Z","#
      + #""evaluatedAt":"9999-12-29T00:00:00Z","windows":[],"gaps":[],"days":["#
      + days.joined(separator: ",") + "]}"
  }

  @Test("a report whose totals would overflow is a decoding error, not a trap")
  func reportTotalsDoNotTrap() async {
    #if compiler(>=6.2)
    await #expect(processExitsWith: .success) {
      exit(GapReportCodingTests.overflowingTotalsAreRefused() ? 0 : 3)
    }
    #else
    // Swift 6.0 and 6.1 have no exit tests: checked in this process, where a trap fails the run.
    #expect(Self.overflowingTotalsAreRefused())
    #endif
  }

  /// Whether a report whose totals would overflow fails to decode, its totals read if it does not.
  static func overflowingTotalsAreRefused() -> Bool {
    let report = try? JSONDecoder().decode(
      GapReport.self, from: Data(GapReportCodingTests.hugeReport(copies: 30).utf8))
    _ = report?.expected
    _ = report?.days.first?.expected
    return report == nil
  }

  @Test("a report's parts must lie in order inside its period")
  func reportDecodingChecksItsParts() throws {
    #expect(throws: Never.self) { try decode(GapReport.self, Self.hugeReport(copies: 1)) }
    #expect(throws: DecodingError.self) { try decode(GapReport.self, Self.hugeReport(copies: 2)) }
    let t0 = try instant("2026-03-08T09:00:00Z")
    let report = GapDetector(boundary: DayBoundary(timeZone: try zone("UTC"))).report(
      period: DateInterval(start: t0, duration: 3600), now: t0.addingTimeInterval(3600),
      heartbeats: try heartbeats(from: t0, to: t0.addingTimeInterval(600), every: 30),
      usage: [])
    let text = try json(report)
    #expect(try decode(GapReport.self, text) == report)
    for (from, to) in [
      (
        #""end":"2026-03-08T10:00:00Z","evaluatedAt""#,
        #""end":"2026-03-08T11:00:00Z","evaluatedAt""#
      ),
      (#""evaluatedAt":"2026-03-08T10:00:00Z""#, #""evaluatedAt":"2026-03-08T09:30:00Z""#),
      (#""end":"2026-03-08T10:00:00Z","evidence""#, #""end":"2026-03-08T10:30:00Z","evidence""#),
    ] {
      let broken = text.replacingOccurrences(of: from, with: to)
      #expect(broken != text, "the edit applies: \(from)")
      #expect(throws: DecodingError.self, "\(to)") { try decode(GapReport.self, broken) }
    }
    let overlapping =
      #"{"day":"2026-03-08","windows":[{"start":"2026-03-08T00:00:00Z","#
      + #""end":"2026-03-08T02:00:00Z","trackedMs":0,"idleMs":7200000,"unknownMs":0},"#
      + #"{"start":"2026-03-08T01:00:00Z","end":"2026-03-08T03:00:00Z","trackedMs":0,"#
      + #""idleMs":7200000,"unknownMs":0}]}"#
    #expect(throws: DecodingError.self) { try decode(DayAccounting.self, overlapping) }
  }
}
