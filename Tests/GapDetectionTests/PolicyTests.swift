import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// The alert threshold and the tracker's success metrics.
@Suite("Policies")
struct PolicyTests {
  let t0 = Date(timeIntervalSince1970: 1_772_960_400)

  func report(silence: TimeInterval, windows: [DateInterval]? = nil) throws -> GapReport {
    let beats =
      try heartbeats(from: t0, to: t0.addingTimeInterval(600), every: 30)
      + heartbeats(
        from: t0.addingTimeInterval(600 + silence), to: t0.addingTimeInterval(7200), every: 30)
    let detector = GapDetector(
      boundary: DayBoundary(timeZone: try zone("UTC")),
      expectation: windows.map(TrackingExpectation.intervals) ?? .always)
    return detector.report(
      period: DateInterval(start: t0, duration: 7200), now: t0.addingTimeInterval(7200),
      heartbeats: beats, usage: [])
  }

  @Test(
    "tracker-down time that reaches 15 minutes alerts; a millisecond less does not",
    arguments: [(900.0, true), (899.999, false), (2000, true), (301, false)])
  func alertThreshold(silence: TimeInterval, alerts: Bool) throws {
    let found = TrackerDownAlert.evaluate(try report(silence: silence), policy: .standard)
    #expect(found.isEmpty == !alerts)
    if alerts {
      #expect(found.first?.trackerDown == .milliseconds(Int64((silence * 1000).rounded())))
      #expect(found.first?.threshold == .seconds(900))
    }
  }

  @Test("the threshold applies per window: a silence split by a window boundary does not alert")
  func alertPerWindow() throws {
    let one = [DateInterval(start: t0, duration: 7200)]
    let split = [
      DateInterval(start: t0, duration: 1100),
      DateInterval(start: t0.addingTimeInterval(1101), duration: 6000),
    ]
    #expect(
      TrackerDownAlert.evaluate(try report(silence: 1000, windows: one), policy: .standard).count
        == 1)
    let report = try report(silence: 1000, windows: split)
    #expect(report.gaps(.trackerDown).map(\.duration) == [.seconds(500), .seconds(499)])
    #expect(TrackerDownAlert.evaluate(report, policy: .standard).isEmpty)
  }

  @Test("an alert's JSON form is the documented one")
  func alertJSON() throws {
    let alert = try #require(
      TrackerDownAlert.evaluate(try report(silence: 900), policy: .standard).first)
    let text = try json(alert)
    #expect(
      text
        == #"{"thresholdMs":900000,"trackerDownMs":900000,"windowEnd":"2026-03-08T11:00:00Z","windowStart":"2026-03-08T09:00:00Z"}"#
    )
    #expect(try decode(TrackerDownAlert.self, text) == alert)
  }

  @Test("health rates count within the window and compare exactly with the standard targets")
  func healthRates() throws {
    let window = DateInterval(start: t0, duration: 86_400)
    let policy = HealthPolicy.standard
    let beat = try Heartbeat(at: t0, source: .monitorExtension)
    var checks = (0..<98).map { policy.health(of: beat, at: t0.addingTimeInterval(Double($0))) }
    checks.append(policy.health(of: beat, at: t0.addingTimeInterval(500)))
    checks.append(policy.health(of: nil, at: t0.addingTimeInterval(600)))
    checks.append(policy.health(of: beat, at: t0.addingTimeInterval(-86_400)))  // outside
    let entry = { (index: Int, success: Bool) in
      try DiagnosticEntry(
        id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index)) ?? UUID(),
        at: self.t0.addingTimeInterval(Double(index)), eventName: "e", action: .recordUsage,
        success: success)
    }
    var entries = try (0..<200).map { try entry($0, $0 != 7) }
    entries.append(try entry(7, false))  // the same entry twice counts once
    let sessions = (0..<20).map {
      DateInterval(start: t0.addingTimeInterval(Double($0) * 3600), duration: 600)
    }
    let alerts = [
      t0.addingTimeInterval(100), t0.addingTimeInterval(200), t0.addingTimeInterval(1800),
    ]
    let rates = HealthRates(
      window: window, checks: checks, diagnostics: entries, sessions: sessions, alerts: alerts)
    #expect(try rates.staleChecks == Rate(count: 2, total: 100))
    #expect(try rates.failures == Rate(count: 1, total: 200))
    #expect(try rates.alertedSessions == Rate(count: 1, total: 20))
    #expect(!rates.staleChecks.isBelow(percent: 2), "2 of 100 is not below 2 %")
    #expect(rates.failures.isBelow(percent: 1))
    #expect(!rates.meets(.standard))
    #expect(rates.staleChecks.description == "2/100 (2.0%)")
    #expect(try decode(HealthRates.self, json(rates)) == rates)
  }

  @Test("a rate's JSON form is validated as its initialiser validates")
  func rateDecodingValidates() throws {
    #expect(try decode(Rate.self, #"{"count":3,"total":200}"#) == Rate(count: 3, total: 200))
    for text in [
      #"{"count":5,"total":1}"#, #"{"count":-3,"total":-1}"#, #"{"count":-1,"total":5}"#,
    ] {
      #expect(throws: DecodingError.self, "\(text)") { try decode(Rate.self, text) }
    }
  }

  @Test("a rate of huge counts compares and prints without trapping")
  func rateArithmeticDoesNotTrap() async throws {
    #if compiler(>=6.2)
    await #expect(processExitsWith: .success) { exit(try PolicyTests.useHugeRate() ? 0 : 3) }
    #else
    // Swift 6.0 and 6.1 have no exit tests: checked in this process, where a trap fails the run.
    #expect(try Self.useHugeRate())
    #endif
  }

  /// Whether a rate of huge counts compares and prints: not below 2 % nor `Int.max` percent.
  static func useHugeRate() throws -> Bool {
    let rate = try Rate(count: Int.max / 10, total: Int.max / 10)
    return !rate.isBelow(percent: 2) && rate.isBelow(percent: Int.max) && !rate.description.isEmpty
  }

  @Test("a rate of huge counts compares and prints exactly")
  func rateArithmeticIsExact() throws {
    let most = try Rate(count: Int.max / 10, total: Int.max / 10)
    #expect(!most.isBelow(percent: 100))
    #expect(most.isBelow(percent: 101))
    #expect(most.description == "\(Int.max / 10)/\(Int.max / 10) (100.0%)")
    let third = try Rate(count: Int.max / 3, total: Int.max)
    #expect(third.isBelow(percent: 34))
    #expect(!third.isBelow(percent: 33))
    #expect(third.description.hasSuffix("(33.3%)"))
    let tiny = try Rate(count: 1, total: Int.max)
    #expect(tiny.isBelow(percent: 1))
    #expect(!tiny.isBelow(percent: 0))
  }

  @Test("health targets are percentages from 0 to 100")
  func healthTargetsValidate() throws {
    #expect(throws: GapDetectionError.self) {
      try HealthTargets(staleChecksPercent: -1, failuresPercent: 1, alertedSessionsPercent: 5)
    }
    #expect(throws: GapDetectionError.self) {
      try HealthTargets(staleChecksPercent: 2, failuresPercent: 101, alertedSessionsPercent: 5)
    }
    let text = #"{"alertedSessionsPercent":5,"failuresPercent":1,"staleChecksPercent":2}"#
    #expect(try json(HealthTargets.standard) == text)
    #expect(try decode(HealthTargets.self, text) == .standard)
    let negative = text.replacingOccurrences(of: ":1,", with: ":-1,")
    #expect(codingKey(of: try decodingError(HealthTargets.self, negative)) == "failuresPercent")
  }
}
