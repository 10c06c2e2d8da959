import Foundation
import GapDetection
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// A 15-minute pause in use, run the way the documentation shows a newcomer: a day report with
/// the detector's defaults, fed the recorder's history, where the heartbeats start only with
/// the first use at 10:00.
@Suite("A 15-minute pause, with the detector's defaults")
struct FifteenMinutePauseDefaultsTests {
  /// The newcomer's day: 3 minutes of use at 10:00, 15 without, 3 with; the report at 10:21.
  struct Day {
    let zone: TimeZone
    let today: LocalDay
    let start: Date
    let now: Date
    let records: [UsageRecord]
    let recorder = HeartbeatRecorder(store: InMemoryStore(), source: .monitorExtension)

    init() throws {
      zone = try TestSupport.zone("Europe/Paris")
      today = try LocalDay(parsing: "2026-03-08")
      start = try instant("2026-03-08T10:00:00+01:00")
      now = start.addingTimeInterval(21 * 60)
      let app = try AppID("com.duolingo.app")
      records = [
        try UsageRecord(
          app: app, category: .education, start: start, duration: minutes(3),
          source: .thresholdEvent),
        try UsageRecord(
          app: app, category: .education, start: start.addingTimeInterval(18 * 60),
          duration: minutes(3), source: .thresholdEvent),
      ]
    }

    /// Records heartbeats every 30 s from 10:00 to `now`, except during `silent` minutes.
    func beat(silent: Range<Int>? = nil) throws {
      for beat in try heartbeats(from: start, to: now, every: 30) {
        let minute = Int(beat.at.timeIntervalSince(start) / 60)
        if let silent, silent.contains(minute), beat.at > start.addingTimeInterval(180) {
          continue
        }
        try recorder.record(beat)
      }
    }

    /// The report exactly as the GapDetection landing page writes it.
    func report() throws -> GapReport {
      let detector = GapDetector(boundary: DayBoundary(timeZone: zone))
      return detector.report(
        for: today, now: now, heartbeats: try recorder.history().heartbeats, usage: records)
    }
  }

  @Test("heartbeats alive every 30 s: the 15 minutes are idle and no alert is raised")
  func aliveMeansIdle() throws {
    let day = try Day()
    try day.beat()
    let report = try day.report()
    #expect(report.gaps.map(\.classification) == [.idle])
    let gap = try #require(report.gaps.first)
    #expect(gap.interval == DateInterval(start: day.start.addingTimeInterval(180), duration: 900))
    #expect(gap.evidence.map(\.kind) == [.usageSilence])
    #expect(report.windows == [DateInterval(start: day.start, end: day.now)])
    #expect(report.expected == minutes(21))
    #expect(report.tracked == minutes(6))
    #expect(report.idle == minutes(15))
    #expect(report.unknown == .zero)
    #expect(TrackerDownAlert.evaluate(report, policy: .standard).isEmpty)
  }

  @Test("heartbeats silent for the 15 minutes: one 15-minute tracker-down gap and one alert")
  func silentMeansTrackerDown() throws {
    let day = try Day()
    try day.beat(silent: 3..<18)
    let report = try day.report()
    #expect(report.gaps.map(\.classification) == [.trackerDown])
    let gap = try #require(report.gaps.first)
    #expect(gap.interval == DateInterval(start: day.start.addingTimeInterval(180), duration: 900))
    #expect(gap.duration == minutes(15))
    #expect(Set(gap.evidence.map(\.kind)) == [.heartbeatSilence, .usageSilence])
    #expect(report.unknown == minutes(15))
    let alerts = TrackerDownAlert.evaluate(report, policy: .standard)
    #expect(alerts.count == 1)
    #expect(alerts.first?.trackerDown == minutes(15))
    #expect(alerts.first?.window == DateInterval(start: day.start, end: day.now))
  }

  @Test("the diagnostics report with a default detector raises the alert only when silent")
  func diagnosticsReportAgrees() throws {
    for silent in [nil, 3..<18] as [Range<Int>?] {
      let day = try Day()
      try day.beat(silent: silent)
      let report = DiagnosticsReport(
        day: day.today, now: day.now,
        detector: GapDetector(boundary: DayBoundary(timeZone: day.zone)),
        heartbeats: try day.recorder.history().heartbeats, usage: day.records)
      #expect(
        report.alerts.count == (silent == nil ? 0 : 1), "silent: \(String(describing: silent))")
      #expect(report.gaps.gaps.count == 1)
    }
  }

  @Test("the control: tracking expected always turns the morning into an alert")
  func alwaysTurnsTheMorningIntoAnAlert() throws {
    let day = try Day()
    try day.beat()
    let detector = GapDetector(boundary: DayBoundary(timeZone: day.zone), expectation: .always)
    let report = detector.report(
      for: day.today, now: day.now, heartbeats: try day.recorder.history().heartbeats,
      usage: day.records)
    #expect(report.gaps(.trackerDown).map(\.end) == [day.start])
    #expect(TrackerDownAlert.evaluate(report, policy: .standard).count == 1)
  }
}
