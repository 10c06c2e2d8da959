import Foundation
import GapDetection
import TestSupport
import Testing
import UsageModel

/// Heartbeat silence at the edges of the analysed period: before its start, across midnight
/// between two day reports, after its end, and where schedules hand over to each other.
@Suite("Gap detection at the period's edges")
struct PeriodEdgeTests {
  @Test("a silence across midnight shorter than a day report's grace is still found by both")
  func shortSilenceAcrossMidnightInDayReports() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let first = try LocalDay(parsing: "2026-05-14")
    let second = first.advanced(by: 1)
    let dead = try instant("2026-05-14T23:57:00Z")
    let back = try instant("2026-05-15T00:04:00Z")
    let now = try instant("2026-05-15T03:00:00Z")
    let beats =
      try heartbeats(from: instant("2026-05-14T00:00:00Z"), to: dead, every: 30)
      + heartbeats(from: back, to: now, every: 30)
    let detector = GapDetector(boundary: boundary)
    let both = detector.report(
      period: DateInterval(start: boundary.start(of: first), end: now), now: now,
      heartbeats: beats, usage: [])
    #expect(both.gaps(.trackerDown).map(\.duration) == [minutes(7)])
    let day1 = detector.report(for: first, now: now, heartbeats: beats, usage: [])
    let day2 = detector.report(for: second, now: now, heartbeats: beats, usage: [])
    #expect(day1.gaps(.trackerDown).map(\.start) == [dead])
    #expect(day1.unknown == minutes(3))
    #expect(day2.gaps(.trackerDown).map(\.end) == [back])
    #expect(day2.unknown == minutes(4))
    #expect(day1.unknown + day2.unknown == minutes(7), "tracker-down time lost at midnight")
  }

  @Test("just after midnight, a tracker dead since the evening is down, not idle")
  func deadSinceTheEveningAtMidnight() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let day = try LocalDay(parsing: "2026-05-15")
    let now = try instant("2026-05-15T00:04:00Z")
    let beats = try heartbeats(
      from: instant("2026-05-14T12:00:00Z"), to: instant("2026-05-14T20:00:00Z"), every: 30)
    let report = GapDetector(boundary: boundary).report(
      for: day, now: now, heartbeats: beats, usage: [])
    #expect(report.gaps.map(\.classification) == [.trackerDown])
    #expect(report.gaps.first?.isOngoing == true)
    #expect(report.unknown == minutes(4))
    #expect(report.idle == .zero)
  }

  @Test("tracking expected always: the time before the first heartbeat given is unknown")
  func noHeartbeatBeforeThePeriod() throws {
    let t0 = try instant("2026-03-08T09:00:00Z")
    let beats = try heartbeats(
      from: t0.addingTimeInterval(60), to: t0.addingTimeInterval(3600), every: 30)
    let report = GapDetector(
      boundary: DayBoundary(timeZone: try zone("UTC")), expectation: .always
    ).report(
      period: DateInterval(start: t0, duration: 3600), now: t0.addingTimeInterval(3600),
      heartbeats: beats, usage: [])
    #expect(report.gaps(.trackerDown).map(\.interval) == [DateInterval(start: t0, duration: 60)])
  }

  @Test("a window cut by the period's start has no grace: the heartbeats before it count")
  func windowCutByThePeriodHasNoGrace() throws {
    let paris = try zone("Europe/Paris")
    let boundary = DayBoundary(timeZone: paris)
    let night = try DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7))
    let detector = GapDetector(boundary: boundary, expectation: .daily(night, in: paris))
    let day = try LocalDay(parsing: "2026-05-15")
    let dead = try instant("2026-05-14T23:57:00+02:00")
    let back = try instant("2026-05-15T00:04:00+02:00")
    let beats =
      try heartbeats(from: instant("2026-05-14T21:00:00+02:00"), to: dead, every: 30)
      + heartbeats(from: back, to: instant("2026-05-15T07:00:00+02:00"), every: 30)
    let report = detector.report(
      for: day, now: boundary.interval(of: day).end, heartbeats: beats, usage: [])
    #expect(
      report.gaps(.trackerDown).first?.interval
        == DateInterval(start: boundary.start(of: day), end: back))
    // Where the window really begins monitoring (21:00), silence up to 300 s is its grace.
    let evening = try heartbeats(
      from: instant("2026-05-15T21:04:00+02:00"), to: instant("2026-05-15T23:59:30+02:00"),
      every: 30)
    let graced = detector.report(
      for: day, now: boundary.interval(of: day).end, heartbeats: beats + evening, usage: [])
    #expect(graced.gaps(.trackerDown).count == 1)
  }

  @Test("schedules that hand over to each other are one window: no grace at the handover")
  func chainedSchedulesHaveNoGraceAtTheHandover() throws {
    let paris = try zone("Europe/Paris")
    let boundary = DayBoundary(timeZone: paris)
    let evening = try DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 23, minute: 58))
    let night = try DailyWindow(start: TimeOfDay(hour: 23, minute: 58), end: TimeOfDay(hour: 7))
    let detector = GapDetector(
      boundary: boundary,
      expectation: .schedules([.daily(evening), .daily(night)], in: paris))
    let day = try LocalDay(parsing: "2026-05-15")
    let dead = try instant("2026-05-14T23:56:00+02:00")
    let back = try instant("2026-05-15T00:03:00+02:00")
    let beats =
      try heartbeats(from: instant("2026-05-14T21:00:00+02:00"), to: dead, every: 30)
      + heartbeats(from: back, to: instant("2026-05-15T07:00:00+02:00"), every: 30)
    let report = detector.report(
      for: day, now: try instant("2026-05-15T07:00:00+02:00"), heartbeats: beats, usage: [])
    // 23:58 is not where monitoring began: the 7-minute silence from 23:56 counts.
    #expect(
      report.gaps(.trackerDown).map(\.interval) == [
        DateInterval(start: boundary.start(of: day), end: back)
      ])
  }
}
