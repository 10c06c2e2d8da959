import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// Gaps from heartbeat silence, usage silence and missed sequence numbers, clipped to the
/// windows of expected tracking, across midnight and clock changes.
@Suite("Gap detection")
struct GapDetectorTests {
  func record(_ start: Date, _ end: Date, app: String = "com.example.app") throws -> UsageRecord {
    try UsageRecord(app: AppID(app), start: start, end: end, source: .thresholdEvent)
  }

  func checkAccounting(_ report: GapReport, sourceLocation: SourceLocation = #_sourceLocation) {
    for day in report.days {
      for window in day.windows {
        #expect(
          window.tracked + window.idle + window.unknown == window.duration,
          "\(day.day) \(window.start)", sourceLocation: sourceLocation)
      }
    }
    for (gap, next) in zip(report.gaps, report.gaps.dropFirst()) {
      #expect(gap.end <= next.start, "gaps overlap", sourceLocation: sourceLocation)
    }
  }

  @Test("a heartbeat from the future is clock skew and does not hide the silence since")
  func clockSkew() throws {
    let start = try instant("2026-03-08T09:00:00Z")
    let now = start.addingTimeInterval(40 * 60)
    let future = try Heartbeat(at: start.addingTimeInterval(3 * 3600), source: .monitorExtension)
    let beats =
      try heartbeats(from: start, to: start.addingTimeInterval(30 * 60), every: 30) + [future]
    let detector = GapDetector(boundary: DayBoundary(timeZone: try zone("UTC")))
    let report = detector.report(
      period: DateInterval(start: start, duration: 3600), now: now, heartbeats: beats.shuffled(),
      usage: [])
    #expect(report.gaps.map(\.classification) == [.trackerDown])
    #expect(report.gaps.first?.start == start.addingTimeInterval(30 * 60))
    #expect(report.gaps.first?.end == now)
    #expect(report.gaps.first?.isOngoing == true)
    #expect(report.period.end == now)
    let health = detector.policy.health(of: beats.max { $0.at < $1.at }, at: now)
    #expect(health.status == .clockSkew(ahead: .seconds(140 * 60)))
    checkAccounting(report)
  }

  @Test("another source's heartbeats do not hide a dead monitor extension")
  func otherSourcesDoNotHideADeadMonitor() throws {
    let t0 = try instant("2026-05-14T09:00:00Z")
    let monitor = try heartbeats(from: t0, to: t0.addingTimeInterval(600), every: 30)
    let app = try heartbeats(from: t0, to: t0.addingTimeInterval(3600), every: 30, source: .app)
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let period = DateInterval(start: t0, duration: 3600)
    let report = GapDetector(boundary: boundary).report(
      period: period, now: period.end, heartbeats: monitor + app, usage: [])
    #expect(GapDetector(boundary: boundary).source == .monitorExtension)
    #expect(report.unknown == minutes(50))
    // The control: the app's own detector finds it alive throughout.
    let appReport = GapDetector(boundary: boundary, source: .app).report(
      period: period, now: period.end, heartbeats: monitor + app, usage: [])
    #expect(appReport.unknown == .zero)
  }

  @Test("heartbeats in any order give the same report")
  func orderDoesNotMatter() throws {
    let start = try instant("2026-03-08T09:00:00Z")
    var beats = try heartbeats(from: start, to: start.addingTimeInterval(3600), every: 30)
    beats.removeSubrange(40..<70)
    let detector = GapDetector(boundary: DayBoundary(timeZone: try zone("UTC")))
    let period = DateInterval(start: start, duration: 3600)
    let sorted = detector.report(period: period, now: period.end, heartbeats: beats, usage: [])
    var random = SeededGenerator(seed: 3)
    let shuffled = detector.report(
      period: period, now: period.end, heartbeats: beats.shuffled(using: &random), usage: [])
    #expect(sorted == shuffled)
    #expect(sorted.gaps.count == 1)
  }

  @Test("a gap spanning midnight is one gap, split between the two days' accounting")
  func gapSpanningMidnight() throws {
    let paris = try zone("Europe/Paris")
    let boundary = DayBoundary(timeZone: paris)
    let first = try LocalDay(parsing: "2026-05-14")
    let period = DateInterval(
      start: boundary.start(of: first), end: boundary.start(of: first.advanced(by: 2)))
    let silenceStart = try instant("2026-05-14T23:50:00+02:00")
    let silenceEnd = try instant("2026-05-15T00:20:00+02:00")
    let beats =
      try heartbeats(from: period.start, to: silenceStart, every: 30)
      + heartbeats(from: silenceEnd, to: period.end, every: 30)
    let report = GapDetector(boundary: boundary).report(
      period: period, now: period.end, heartbeats: beats, usage: [])
    #expect(report.gaps.count == 1)
    #expect(report.gaps.first?.start == silenceStart)
    #expect(report.gaps.first?.end == silenceEnd)
    #expect(report.days.map(\.day) == [first, first.advanced(by: 1)])
    #expect(report.days.map(\.unknown) == [minutes(10), minutes(20)])
    #expect(report.days.map(\.expected) == [.seconds(86_400), .seconds(86_400)])
    checkAccounting(report)
    // The two days' own reports, as an app makes them, find the same minutes.
    let days = [first, first.advanced(by: 1)].map { day in
      GapDetector(boundary: boundary).report(
        for: day, now: period.end, heartbeats: beats, usage: [])
    }
    #expect(days.map(\.unknown) == [minutes(10), minutes(20)])
    #expect(
      days.map { $0.gaps(.trackerDown).map(\.interval) } == [
        [DateInterval(start: silenceStart, end: boundary.start(of: first.advanced(by: 1)))],
        [DateInterval(start: boundary.start(of: first.advanced(by: 1)), end: silenceEnd)],
      ])
  }

  @Test("a window across midnight is accounted piecewise, and silence outside it is no gap")
  func windowAcrossMidnight() throws {
    let paris = try zone("Europe/Paris")
    let boundary = DayBoundary(timeZone: paris)
    let night = try DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7))
    let day = try LocalDay(parsing: "2026-05-14")
    let period = DateInterval(
      start: boundary.start(of: day), end: boundary.start(of: day.advanced(by: 2)))
    let beats = try heartbeats(
      from: instant("2026-05-14T21:00:00+02:00"), to: instant("2026-05-14T23:00:00+02:00"),
      every: 30)
    let report = GapDetector(boundary: boundary, expectation: .daily(night, in: paris)).report(
      period: period, now: period.end, heartbeats: beats, usage: [])
    #expect(
      try report.windows.map(\.start) == [
        instant("2026-05-14T00:00:00+02:00"), instant("2026-05-14T21:00:00+02:00"),
        instant("2026-05-15T21:00:00+02:00"),
      ])
    let dead = report.gaps.filter { $0.start == (try? instant("2026-05-14T23:00:00+02:00")) }
    #expect(dead.count == 1)
    #expect(try dead.first?.end == instant("2026-05-15T07:00:00+02:00"))
    #expect(report.days.map { $0.windows.count } == [2, 2])
    #expect(report.days[0].windows[1].unknown == minutes(60))
    #expect(report.days[1].windows[0].unknown == minutes(7 * 60))
    checkAccounting(report)
  }

  @Test(
    "on a day with a clock change the accounting adds up to its real length",
    arguments: [
      ("America/New_York", "2026-03-08", 23), ("America/New_York", "2026-11-01", 25),
      ("Europe/Paris", "2026-03-29", 23), ("Europe/Paris", "2026-10-25", 25),
      ("Australia/Lord_Howe", "2026-04-05", 24),
    ])
  func clockChangeDays(identifier: String, dayText: String, hours: Int) throws {
    let boundary = DayBoundary(timeZone: try zone(identifier))
    let day = try LocalDay(parsing: dayText)
    let interval = boundary.interval(of: day)
    if identifier != "Australia/Lord_Howe" {
      #expect(interval.duration == TimeInterval(hours * 3600))
    }
    // Silent from 00:30 for two real hours, across the change.
    let silenceStart = interval.start.addingTimeInterval(1800)
    let silenceEnd = silenceStart.addingTimeInterval(7200)
    let beats =
      try heartbeats(from: interval.start, to: silenceStart, every: 30)
      + heartbeats(from: silenceEnd, to: interval.end, every: 30)
    let usage = [
      try record(silenceEnd.addingTimeInterval(600), silenceEnd.addingTimeInterval(1200))
    ]
    let report = GapDetector(boundary: boundary).report(
      for: day, now: interval.end, heartbeats: beats, usage: usage)
    #expect(report.gaps(.trackerDown).map(\.duration) == [.seconds(7200)])
    #expect(report.days.count == 1)
    #expect(report.expected == .seconds(Int64(interval.duration)))
    #expect(report.tracked + report.idle + report.unknown == .seconds(Int64(interval.duration)))
    #expect(report.unknown == .seconds(7200))
    #expect(report.tracked == .seconds(600))
    checkAccounting(report)
  }

  @Test("overlapping evidence is merged into sorted, non-overlapping gaps by precedence")
  func overlappingEvidence() throws {
    let t0 = try instant("2026-03-08T09:00:00Z")
    func at(_ minute: Double) -> Date { t0.addingTimeInterval(minute * 60) }
    // Usage until 09:50 and from 10:40; heartbeats silent 10:00-10:20; numbers lost 10:10-10:30
    // and, overlapping, 10:25-10:32.
    let usage = [try record(at(0), at(50)), try record(at(100), at(120))]
    let beats =
      try heartbeats(from: at(0), to: at(60), every: 30)
      + heartbeats(from: at(80), to: at(120), every: 30)
    let missed = [
      try loss(6...8, after: at(70), before: at(90)),
      try loss(9...9, after: at(85), before: at(92)),
    ]
    let report = GapDetector(boundary: DayBoundary(timeZone: try zone("UTC"))).report(
      period: DateInterval(start: at(0), end: at(120)), now: at(120), heartbeats: beats,
      usage: usage, missedSequences: missed)
    #expect(report.gaps.map(\.classification) == [.idle, .trackerDown, .notificationLoss, .idle])
    #expect(report.gaps.map(\.start) == [at(50), at(60), at(80), at(92)])
    #expect(report.gaps.map(\.end) == [at(60), at(80), at(92), at(100)])
    #expect(
      Set(report.gaps[1].evidence.map(\.kind)) == [
        .heartbeatSilence, .usageSilence, .missedSequence,
      ])
    #expect(report.gaps[2].evidence.compactMap(\.missed?.values) == [6...8, 9...9])
    #expect(report.unknown == minutes(32))
    #expect(report.idle == minutes(18))
    #expect(report.tracked == minutes(70))
    checkAccounting(report)
  }

  @Test("heartbeats start with the window: silence shorter than the grace at its start is no gap")
  func windowStartGrace() throws {
    let paris = try zone("Europe/Paris")
    let school = try DailyWindow(start: TimeOfDay(hour: 9), end: TimeOfDay(hour: 17))
    let day = try LocalDay(parsing: "2026-05-14")
    let boundary = DayBoundary(timeZone: paris)
    let beats =
      try heartbeats(
        from: instant("2026-05-14T09:04:00+02:00"), to: instant("2026-05-14T12:00:00+02:00"),
        every: 30)
      + heartbeats(
        from: instant("2026-05-14T13:00:00+02:00"), to: instant("2026-05-14T16:56:00+02:00"),
        every: 30)
    let report = GapDetector(boundary: boundary, expectation: .daily(school, in: paris)).report(
      for: day, now: boundary.interval(of: day).end, heartbeats: beats, usage: [])
    #expect(report.gaps.map(\.classification) == [.trackerDown])
    #expect(try report.gaps.first?.start == instant("2026-05-14T12:00:00+02:00"))
    #expect(report.expected == .seconds(8 * 3600))
    #expect(report.unknown == .seconds(3600))
  }

  @Test("missed sequence numbers are found between sightings, per epoch")
  func missedSequences() throws {
    let t0 = try instant("2026-03-08T09:00:00Z")
    let other = SequenceEpoch(rawValue: 0xB2)
    // Within an epoch, numbers at or below the highest seen lose nothing; a new epoch started
    // from 1, so its numbers below the first sighting were lost since the previous sighting.
    let sightings =
      try [(5, 0), (9, 20), (9, 21), (10, 22), (2, 30), (4, 40)].map {
        try sighting(UInt64($0.0), at: t0.addingTimeInterval(Double($0.1) * 60))
      } + [try sighting(3, of: other, at: t0.addingTimeInterval(50 * 60))]
    let missed = SequenceSighting.losses(in: sightings.reversed())
    #expect(
      missed.map(\.range) == [
        SequenceRange(epoch: testEpoch, values: 6...8), SequenceRange(epoch: other, values: 1...2),
      ])
    #expect(missed.map(\.count) == [3, 2])
    #expect(missed.first?.after == t0)
    #expect(missed.first?.before == t0.addingTimeInterval(1200))
    #expect(missed.last?.after == t0.addingTimeInterval(2400))
  }

  @Test("a period entirely before now ends where it ends; one after now is empty")
  func periodCutAtNow() throws {
    let t0 = try instant("2026-03-08T09:00:00Z")
    let detector = GapDetector(
      boundary: DayBoundary(timeZone: try zone("UTC")), expectation: .always)
    let past = detector.report(
      period: DateInterval(start: t0, duration: 600), now: t0.addingTimeInterval(3600),
      heartbeats: [], usage: [])
    #expect(past.gaps.map(\.isOngoing) == [false])
    #expect(past.unknown == .seconds(600))
    let future = detector.report(
      period: DateInterval(start: t0, duration: 600), now: t0.addingTimeInterval(-60),
      heartbeats: [], usage: [])
    #expect(future.gaps.isEmpty)
    #expect(future.expected == .zero)
  }
}
