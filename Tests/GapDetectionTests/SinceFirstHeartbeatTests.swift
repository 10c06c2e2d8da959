import Foundation
import GapDetection
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The default expectation: tracking was expected from the first heartbeat of the detector's
/// source given to it, and nothing is known before.
@Suite("Tracking expected since the first heartbeat")
struct SinceFirstHeartbeatTests {
  let utc: DayBoundary

  init() throws {
    utc = DayBoundary(timeZone: try zone("UTC"))
  }

  @Test("it is the detector's default")
  func isTheDefault() throws {
    #expect(GapDetector(boundary: utc).expectation == .sinceFirstHeartbeat)
    #expect(GapDetector(boundary: utc).expectation != .always)
  }

  @Test("a tracker dead since yesterday evening is tracker down from midnight, with an alert")
  func deadSinceYesterdayEvening() throws {
    let today = try LocalDay(parsing: "2026-05-15")
    let now = try instant("2026-05-15T09:00:00Z")
    let beats = try heartbeats(
      from: instant("2026-05-14T12:00:00Z"), to: instant("2026-05-14T20:00:00Z"), every: 30)
    let report = GapDetector(boundary: utc).report(
      for: today, now: now, heartbeats: beats, usage: [])
    #expect(report.windows == [DateInterval(start: utc.start(of: today), end: now)])
    #expect(report.gaps.map(\.classification) == [.trackerDown])
    #expect(report.gaps.first?.interval == DateInterval(start: utc.start(of: today), end: now))
    #expect(report.gaps.first?.isOngoing == true)
    #expect(TrackerDownAlert.evaluate(report, policy: .standard).count == 1)
  }

  @Test("given no heartbeat nothing is expected: no windows, no gaps; health says never seen")
  func noHeartbeatExpectsNothing() throws {
    let day = try LocalDay(parsing: "2026-05-15")
    let now = try instant("2026-05-15T12:00:00Z")
    let usage = [
      try UsageRecord(
        app: AppID("com.example.app"), start: instant("2026-05-15T09:00:00Z"),
        duration: minutes(5), source: .thresholdEvent),
      try UsageRecord(
        app: AppID("com.example.app"), start: instant("2026-05-15T11:00:00Z"),
        duration: minutes(5), source: .thresholdEvent),
    ]
    let detector = GapDetector(boundary: utc)
    let report = detector.report(for: day, now: now, heartbeats: [], usage: usage)
    #expect(report.windows.isEmpty)
    #expect(report.gaps.isEmpty)
    #expect(report.expected == .zero)
    #expect(report.days.map(\.windows) == [[]])
    #expect(TrackerDownAlert.evaluate(report, policy: .standard).isEmpty)
    #expect(detector.policy.health(of: nil, at: now).status == .neverSeen)
    // The control: expected always, the same silence is tracker down.
    let always = GapDetector(boundary: utc, expectation: .always).report(
      for: day, now: now, heartbeats: [], usage: usage)
    #expect(always.unknown == .seconds(12 * 3600 - 600))
  }

  @Test("only the detector's source starts the expectation")
  func onlyTheDetectorsSourceCounts() throws {
    let t0 = try instant("2026-05-15T08:00:00Z")
    let now = t0.addingTimeInterval(3 * 3600)
    let app = try heartbeats(from: t0, to: now, every: 30, source: .app)
    let monitor = try heartbeats(from: t0.addingTimeInterval(7200), to: now, every: 30)
    let report = GapDetector(boundary: utc).report(
      period: DateInterval(start: t0, end: now), now: now, heartbeats: app + monitor, usage: [])
    #expect(report.windows == [DateInterval(start: t0.addingTimeInterval(7200), end: now)])
    let appReport = GapDetector(boundary: utc, source: .app).report(
      period: DateInterval(start: t0, end: now), now: now, heartbeats: app + monitor, usage: [])
    #expect(appReport.windows == [DateInterval(start: t0, end: now)])
  }

  @Test("the first heartbeat is a sign of life: a silence after it beyond 300 s is a gap")
  func silenceAfterTheFirstHeartbeat() throws {
    let t0 = try instant("2026-05-15T10:00:00Z")
    let now = t0.addingTimeInterval(3600)
    let beats =
      [try Heartbeat(at: t0, source: .monitorExtension)]
      + (try heartbeats(from: t0.addingTimeInterval(301), to: now, every: 30))
    let report = GapDetector(boundary: utc).report(
      for: try LocalDay(parsing: "2026-05-15"), now: now, heartbeats: beats.shuffled(), usage: [])
    #expect(report.gaps(.trackerDown).map(\.interval) == [DateInterval(start: t0, duration: 301)])
    // The control: 300 s is not longer than the threshold.
    let graced = GapDetector(boundary: utc).report(
      for: try LocalDay(parsing: "2026-05-15"), now: now,
      heartbeats: [try Heartbeat(at: t0, source: .monitorExtension)]
        + (try heartbeats(from: t0.addingTimeInterval(300), to: now, every: 30)), usage: [])
    #expect(graced.gaps.isEmpty)
  }

  @Test("heartbeats only after the period: nothing of the period is expected")
  func firstHeartbeatAfterThePeriod() throws {
    let yesterday = try LocalDay(parsing: "2026-05-14")
    let now = try instant("2026-05-15T12:00:00Z")
    let beats = try heartbeats(from: instant("2026-05-15T08:00:00Z"), to: now, every: 30)
    let report = GapDetector(boundary: utc).report(
      for: yesterday, now: now, heartbeats: beats, usage: [])
    #expect(report.windows.isEmpty)
    #expect(report.gaps.isEmpty)
  }

  @Test("time before the oldest heartbeat a bounded history kept is not judged")
  func evictedHeartbeatsAreNotJudged() throws {
    let recorder = try HeartbeatRecorder(
      store: InMemoryStore(), source: .monitorExtension, capacity: 10)
    let t0 = try instant("2026-05-15T10:00:00Z")
    for beat in try heartbeats(from: t0, to: t0.addingTimeInterval(19 * 30), every: 30) {
      try recorder.record(beat)
    }
    let history = try recorder.history()
    #expect(history.evictedCount == 10)
    let now = t0.addingTimeInterval(19 * 30)
    let report = GapDetector(boundary: utc).report(
      for: try LocalDay(parsing: "2026-05-15"), now: now, heartbeats: history.heartbeats,
      usage: [])
    #expect(report.windows == [DateInterval(start: t0.addingTimeInterval(300), end: now)])
    #expect(report.gaps.isEmpty)
  }

  @Test("windows(in:firstHeartbeat:) and its duration are the windows a detector looks at")
  func windowsFollowTheFirstHeartbeat() throws {
    let t0 = try instant("2026-05-15T08:00:00Z")
    let period = DateInterval(start: t0, duration: 4 * 3600)
    let expectation = TrackingExpectation.sinceFirstHeartbeat
    #expect(expectation.windows(in: period).isEmpty)
    #expect(expectation.duration(in: period) == .zero)
    let first = t0.addingTimeInterval(5400.000_4)
    let rounded = t0.addingTimeInterval(5400)
    #expect(
      expectation.windows(in: period, firstHeartbeat: first)
        == [DateInterval(start: rounded, end: period.end)])
    #expect(expectation.duration(in: period, firstHeartbeat: first) == .seconds(9000))
    #expect(
      expectation.windows(in: period, firstHeartbeat: t0.addingTimeInterval(-60)) == [period])
    #expect(expectation.windows(in: period, firstHeartbeat: period.end).isEmpty)
    #expect(TrackingExpectation.always.windows(in: period, firstHeartbeat: first) == [period])
    let report = GapDetector(boundary: utc).report(
      period: period, now: period.end,
      heartbeats: try heartbeats(from: first, to: period.end, every: 30), usage: [])
    #expect(report.windows == expectation.windows(in: period, firstHeartbeat: first))
    #expect(report.expected == expectation.duration(in: period, firstHeartbeat: first))
  }

  @Test("its JSON form is the documented one")
  func json() throws {
    let text = #"{"kind":"since_first_heartbeat"}"#
    #expect(try TestSupport.json(TrackingExpectation.sinceFirstHeartbeat) == text)
    #expect(try decode(TrackingExpectation.self, text) == .sinceFirstHeartbeat)
    #expect(try decode(TrackingExpectation.self, #"{"kind":"always"}"#) == .always)
    let unknown = try decodingError(TrackingExpectation.self, #"{"kind":"sometimes"}"#)
    #expect(codingKey(of: unknown) == "kind")
  }
}
