import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// Hostile JSON for every `Codable` type of GapDetection: decoding throws or gives a value that
/// round-trips and survives its main operations (reports, alerts, text and SVG); it never traps
/// or hangs.
@Suite("Decoding hostile JSON never traps")
struct FuzzTests {
  static let plan = Fuzz.Plan(seed: 0x5EED_0005, makeTargets)

  @Test("every input decodes to a usable value or throws a DecodingError", arguments: plan.targets)
  func fuzz(_ target: Fuzz.Target) throws {
    try Self.plan.run(target)
  }

  // MARK: - Inputs that once failed

  @Test("replay: a policy whose gap threshold is Int64.max ms reports gaps (it trapped)")
  func replayGapThresholdOfInt64Max() throws {
    // Found by this loop before the fix: the detector looked one past the threshold around a
    // period, and Int64.max + 1 trapped.
    let input =
      #"{"alertAfterMs":1,"clockSkewToleranceMs":2000,"gapAfterMs":9223372036854775807,"memory":{"criticalBytes":5767168,"limitBytes":6291456,"warningBytes":4718592},"staleAfterMs":120000,"usageGapAfterMs":600000}"#
    let policy = try #require(try Fuzz.replay(HealthPolicy.self, input))
    let t0 = try instant("2026-03-08T13:00:00Z")
    let report = GapDetector(
      boundary: DayBoundary(timeZone: try zone("America/New_York")),
      expectation: .daily(
        try DailyWindow(start: try TimeOfDay(hour: 8), end: try TimeOfDay(hour: 20)),
        in: try zone("America/New_York")),
      policy: policy
    ).report(
      for: try LocalDay(parsing: "2026-03-08"), now: t0.addingTimeInterval(3_600),
      heartbeats: try heartbeats(from: t0, to: t0.addingTimeInterval(600), every: 30), usage: [])
    #expect(report.gaps.allSatisfy { $0.classification != .trackerDown })
  }

  @Test("replay: a fixed pulse time of Int64.max ms is its own round trip (it was not)")
  func replayPulseTimeOfInt64Max() throws {
    // Found by this loop: decoding kept Int64.max ms, encoding wrote the span the merge uses.
    let input = #"{"fixedMs":9223372036854775807}"#
    let pulse = try #require(try Fuzz.replay(PulseTime.self, input))
    #expect(pulse == .fixed(.milliseconds(315_537_551_999_999)))
  }

  // swift-format-ignore: FunctionBodyLength
  static func makeTargets() throws -> [Fuzz.Target] {
    let zone = try #require(TimeZone(identifier: "America/New_York"))
    let boundary = DayBoundary(timeZone: zone)
    let day = try LocalDay(parsing: "2026-03-08")
    let t0 = try instant("2026-03-08T13:00:00Z")
    let now = t0.addingTimeInterval(4 * 3_600)
    let beats =
      try heartbeats(from: t0, to: t0.addingTimeInterval(900), every: 30)
      + heartbeats(from: t0.addingTimeInterval(3_000), to: now, every: 60)
    let usage = [
      try UsageRecord(
        app: try AppID("com.a"), category: .gaming, start: t0.addingTimeInterval(60),
        duration: .seconds(600), source: .thresholdEvent)
    ]
    let missed = try SequenceLoss(
      range: SequenceRange(epoch: SequenceEpoch(rawValue: 7), values: 4...9),
      after: t0.addingTimeInterval(900), before: t0.addingTimeInterval(3_000))
    let window = try DailyWindow(start: try TimeOfDay(hour: 8), end: try TimeOfDay(hour: 20))
    let expectations: [TrackingExpectation] = [
      .sinceFirstHeartbeat, .always, .daily(window, in: zone),
      .schedules([.timer(try TimerWindow(start: t0, duration: .seconds(7_200)))], in: zone),
      .intervals([DateInterval(start: t0, duration: 3_600)]),
    ]
    let policy = try HealthPolicy(staleAfter: .seconds(90), alertAfter: .seconds(600))
    let detector = GapDetector(boundary: boundary, expectation: .always, policy: policy)
    let gapReport = detector.report(
      for: day, now: now, heartbeats: beats, usage: usage, missedSequences: [missed])
    let gap = try #require(gapReport.gaps.first)
    let accounting = try #require(gapReport.days.first)
    let alerts = TrackerDownAlert.evaluate(gapReport, policy: policy)
    let entry = try DiagnosticEntry(
      id: UUID(), at: t0, eventName: "e", action: .recordUsage, success: false,
      errorDescription: "disk full")
    let report = DiagnosticsReport(
      day: day, now: now, detector: detector, heartbeats: beats, usage: usage,
      missedSequences: [missed], diagnostics: [entry])
    let health = policy.health(of: beats.last, at: now)
    let rates = HealthRates(
      window: DateInterval(start: t0, end: now), checks: [health], diagnostics: [entry],
      sessions: [DateInterval(start: t0, duration: 600)], alerts: [t0])
    let pulse = try AdaptivePulseTime(initial: .seconds(30), sampleCount: 5)
    let interval = try #require(HeartbeatMerger.merge(beats).first)
    let sighting = try sighting(3, at: t0)

    return [
      .decoding([report]) { report in
        _ = report.text
        _ = report.svg
        _ = report.json()
      },
      .decoding(report.usage) { _ = $0.duration },
      .decoding([gap]) { _ = $0.duration },
      .decoding([GapClass.notificationLoss]),
      .decoding(gap.evidence) { _ = $0.duration },
      .decoding([gapReport]) { report in
        _ = (report.expected, report.tracked, report.idle, report.unknown, report.windowDurations)
        _ = report.time(of: .trackerDown, in: DateInterval(start: .distantPast, end: now))
        _ = TrackerDownAlert.evaluate(report, policy: policy)
      },
      .decoding([missed]) { missed in
        _ = (missed.count, missed.duration)
        _ = detector.report(
          for: day, now: now, heartbeats: beats, usage: usage, missedSequences: [missed])
      },
      .decoding([sighting]) { _ = SequenceSighting.losses(in: [$0, sighting]) },
      .decoding(expectations) { expectation in
        _ = expectation.windows(in: boundary.interval(of: day))
        _ = expectation.duration(in: boundary.interval(of: day))
        _ = GapDetector(boundary: boundary, expectation: expectation).report(
          for: day, now: now, heartbeats: beats, usage: usage)
      },
      .decoding(accounting.windows) { _ = ($0.duration, $0.tracked) },
      .decoding([accounting]) { _ = ($0.expected, $0.tracked, $0.idle, $0.unknown) },
      .decoding([policy, .standard]) { policy in
        _ = policy.health(of: beats.last, at: .distantFuture)
        _ = GapDetector(boundary: boundary, expectation: .daily(window, in: zone), policy: policy)
          .report(for: day, now: now, heartbeats: beats, usage: usage)
      },
      .decoding([health, policy.health(of: nil, at: now)]),
      .decoding([health.status, .clockSkew(ahead: .seconds(5))]) { status in
        if case .clockSkew(let ahead) = status { _ = DiagnosticsReport.relativeTime(ahead) }
      },
      .decoding([MemoryLevel.critical]),
      .decoding([MemoryPolicy.monitorExtension]) { _ = $0.level(forBytes: .max) },
      .decoding([interval]) { _ = $0.duration },
      .decoding([pulse]) { pulse in _ = HeartbeatMerger.merge(beats, pulseTime: .adaptive(pulse)) },
      .decoding([PulseTime.fixed(.seconds(31)), .adaptive(.standard)]) { pulse in
        _ = HeartbeatMerger.merge(beats, pulseTime: pulse)
      },
      .decoding([rates]) { _ = $0.meets(.standard) },
      .decoding([HealthTargets.standard]) { _ = rates.meets($0) },
      .decoding([rates.failures]) { rate in
        _ = rate.description
        _ = rate.fraction
        _ = rate.isBelow(percent: Int.max)
      },
      .decoding(alerts) { _ = ($0.trackerDown, $0.windowDuration) },
    ]
  }
}
