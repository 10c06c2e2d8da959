import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// A 15-minute pause in use, with the tracker alive and with it dead.
///
/// 3 minutes of usage, 15 minutes without, 3 minutes of usage: only the heartbeats tell a dead
/// tracker from a person who put the phone down.
@Suite("A 15-minute pause: idle or tracker down?")
struct FifteenMinutePauseTests {
  struct Scenario {
    let detector: GapDetector
    let start: Date
    let now: Date
    let usage: [UsageRecord]

    init() throws {
      let paris = try zone("Europe/Paris")
      detector = GapDetector(boundary: DayBoundary(timeZone: paris))
      start = try instant("2026-03-08T10:00:00+01:00")
      now = start.addingTimeInterval(21 * 60)
      let app = try AppID("com.duolingo.app")
      usage = [
        try UsageRecord(
          app: app, category: .education, start: start, duration: minutes(3),
          source: .thresholdEvent),
        try UsageRecord(
          app: app, category: .education, start: start.addingTimeInterval(18 * 60),
          duration: minutes(3), source: .thresholdEvent),
      ]
    }

    func report(heartbeats: [Heartbeat]) -> GapReport {
      detector.report(
        period: DateInterval(start: start, end: now), now: now, heartbeats: heartbeats,
        usage: usage)
    }
  }

  @Test("with heartbeats every 30 s the 15 minutes are idle and raise no alert")
  func heartbeatsAliveMeansIdle() throws {
    let scenario = try Scenario()
    let beats = try heartbeats(from: scenario.start, to: scenario.now, every: 30)
    let report = scenario.report(heartbeats: beats)
    #expect(report.gaps.map(\.classification) == [.idle])
    let gap = try #require(report.gaps.first)
    #expect(gap.start == scenario.start.addingTimeInterval(3 * 60))
    #expect(gap.duration == minutes(15))
    #expect(gap.evidence.map(\.kind) == [.usageSilence])
    #expect(report.tracked == minutes(6))
    #expect(report.idle == minutes(15))
    #expect(report.unknown == .zero)
    #expect(TrackerDownAlert.evaluate(report, policy: .standard).isEmpty)
  }

  @Test("an empty usage record inside the pause counts nothing: the pause is still one gap")
  func emptyRecordDoesNotSplitThePause() throws {
    let scenario = try Scenario()
    let empty = try UsageRecord(
      app: AppID("com.duolingo.app"), category: .education,
      start: scenario.start.addingTimeInterval(9 * 60), duration: .zero, source: .thresholdEvent)
    let beats = try heartbeats(from: scenario.start, to: scenario.now, every: 30)
    let report = scenario.detector.report(
      period: DateInterval(start: scenario.start, end: scenario.now), now: scenario.now,
      heartbeats: beats, usage: scenario.usage + [empty])
    // Split at 10:09, the pause was two of 6 and 9 minutes, each under the 10-minute threshold:
    // no gap at all.
    #expect(report.gaps.map(\.classification) == [.idle])
    #expect(report.gaps.first?.duration == minutes(15))
    #expect(report.idle == minutes(15))
  }

  @Test("with heartbeats silent it is a 15-minute tracker-down gap and raises the alert")
  func heartbeatsSilentMeansTrackerDown() throws {
    let scenario = try Scenario()
    let beats =
      try heartbeats(from: scenario.start, to: scenario.start.addingTimeInterval(180), every: 30)
      + heartbeats(
        from: scenario.start.addingTimeInterval(18 * 60), to: scenario.now, every: 30)
    let report = scenario.report(heartbeats: beats)
    #expect(report.gaps.map(\.classification) == [.trackerDown])
    let gap = try #require(report.gaps.first)
    #expect(gap.start == scenario.start.addingTimeInterval(3 * 60))
    #expect(gap.duration == minutes(15))
    #expect(Set(gap.evidence.map(\.kind)) == [.heartbeatSilence, .usageSilence])
    #expect(report.unknown == minutes(15))
    #expect(report.idle == .zero)
    let alerts = TrackerDownAlert.evaluate(report, policy: .standard)
    #expect(alerts.count == 1)
    #expect(alerts.first?.trackerDown == minutes(15))
  }
}
