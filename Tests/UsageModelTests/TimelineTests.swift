import Foundation
import Testing
import UsageModel

@Suite("Timeline event logs")
struct TimelineTests {
  let boundary: DayBoundary

  init() throws {
    boundary = DayBoundary(timeZone: try zone("Europe/Berlin"))
  }

  func notification(_ text: String) throws -> TimelineEvent {
    try TimelineEvent(.notificationFired, at: try instant(text))
  }

  func action(_ text: String, _ label: String? = "squats") throws -> TimelineEvent {
    try TimelineEvent(.userAction, at: try instant(text), label: label)
  }

  @Test("a re-delivered notification is stored once")
  func recordingIsIdempotent() throws {
    var log = TimelineLog()
    #expect(log.record(try notification("2026-01-02T10:30:00Z")))
    #expect(!log.record(try notification("2026-01-02T10:30:00Z")))
    #expect(log.record(try notification("2026-01-02T10:00:00Z")))
    #expect(
      try log.events.map(\.date) == [
        instant("2026-01-02T10:00:00Z"), instant("2026-01-02T10:30:00Z"),
      ])
  }

  @Test("the events of a local day are those between its start and the next day's start")
  func eventsOfLocalDay() throws {
    let log = TimelineLog([
      try notification("2026-01-01T22:59:59Z"), try notification("2026-01-01T23:00:00Z"),
      try action("2026-01-02T22:59:59.999Z"), try notification("2026-01-02T23:00:00Z"),
    ])
    let events = log.events(on: try day("2026-01-02"), boundary: boundary)
    #expect(
      try events.map(\.date) == [
        instant("2026-01-01T23:00:00Z"), instant("2026-01-02T22:59:59.999Z"),
      ])
  }

  @Test(
    "the events of the day containing an instant are that local day's, its first instant included",
    arguments: [
      "2026-01-01T23:00:00Z", "2026-01-02T12:00:00+01:00", "2026-01-02T22:59:59.999Z",
    ])
  func eventsOfDayContainingInstant(now: String) throws {
    let log = TimelineLog([
      try notification("2026-01-01T22:59:59Z"), try notification("2026-01-01T23:00:00Z"),
      try action("2026-01-02T22:59:59.999Z"), try notification("2026-01-02T23:00:00Z"),
    ])
    let today = try log.events(onDayContaining: try instant(now), boundary: boundary)
    #expect(try today == log.events(on: day("2026-01-02"), boundary: boundary))
    #expect(today.count == 2)
  }

  @Test("with a 04:00 day start, an instant at 02:00 asks about the previous day's events")
  func eventsOfDayContainingInstantHonourTheDayStart() throws {
    let lateNight = DayBoundary(timeZone: try zone("Europe/Berlin"), dayStart: try time("04:00"))
    let log = TimelineLog([
      try notification("2026-01-02T22:00:00+01:00"), try action("2026-01-03T02:00:00+01:00"),
      try notification("2026-01-03T04:00:00+01:00"),
    ])
    let today = try log.events(
      onDayContaining: try instant("2026-01-03T02:30:00+01:00"), boundary: lateNight)
    #expect(today == Array(log.events.prefix(2)))
    #expect(try today == log.events(on: day("2026-01-02"), boundary: lateNight))
  }

  @Test(
    "an instant with no local day is a typed error, never a trap",
    arguments: [Double.nan, .infinity, -.infinity, 1e15, -1e15])
  func eventsOfDayContainingUnusableInstant(secondsSince1970: Double) throws {
    let log = TimelineLog([try notification("2026-01-02T10:00:00Z")])
    #expect(throws: UsageModelError.self) {
      try log.events(
        onDayContaining: Date(timeIntervalSince1970: secondsSince1970), boundary: boundary)
    }
  }

  @Test("retention keeps today only, or the last N local days")
  func retention() throws {
    let events = try [
      notification("2026-01-01T10:00:00Z"), notification("2026-01-02T10:00:00Z"),
      notification("2026-01-03T10:00:00Z"), action("2026-01-03T10:05:00Z"),
    ]
    let now = try instant("2026-01-03T12:00:00Z")
    var today = TimelineLog(events)
    #expect(try today.applyRetention(.today, now: now, boundary: boundary) == 2)
    #expect(today.events.count == 2)
    var twoDays = TimelineLog(events)
    #expect(try twoDays.applyRetention(.days(2), now: now, boundary: boundary) == 1)
    #expect(throws: UsageModelError.invalidRetention(days: 0)) {
      try twoDays.applyRetention(.days(0), now: now, boundary: boundary)
    }
    #expect(twoDays.events.count == 3)
  }

  @Test("a retention of more days than the calendar holds, Int.max included, keeps everything")
  func retentionBeyondTheFirstDayKeepsEverything() throws {
    // The earliest instant an event can have, 0001-01-03T00:00:00Z in the proleptic Gregorian
    // calendar (ISO8601DateFormatter would read that text as a Julian date), and one from today.
    let events = [
      try TimelineEvent(.notificationFired, at: Date(timeIntervalSince1970: -62_135_424_000)),
      try notification("2026-01-03T10:00:00Z"),
    ]
    let now = try instant("2026-01-03T12:00:00Z")
    // Days from the oldest event's local day through today, both included.
    let span = try day("0001-01-03").distance(to: try day("2026-01-03")) + 1
    for days in [Int.max, Int.max - 1, span + 1, span] {
      var log = TimelineLog(events)
      #expect(try log.applyRetention(.days(days), now: now, boundary: boundary) == 0, "\(days)")
      #expect(log.events == events)
    }
    // Control: one day fewer than the span drops the oldest event.
    var shorter = TimelineLog(events)
    #expect(try shorter.applyRetention(.days(span - 1), now: now, boundary: boundary) == 1)
    #expect(shorter.events == [events[1]])
  }

  @Test(
    "each notification is linked to the first action within the window and before the next notification"
  )
  func linkingResponses() throws {
    let log = TimelineLog([
      try notification("2026-01-02T09:00:00Z"), try action("2026-01-02T09:04:00Z"),
      try action("2026-01-02T09:05:00Z"),
      try notification("2026-01-02T10:00:00Z"),  // answered only after the next one fired
      try notification("2026-01-02T10:30:00Z"), try action("2026-01-02T10:31:00Z"),
      try notification("2026-01-02T11:00:00Z"), try action("2026-01-02T11:45:00Z"),  // too late
      try notification("2026-01-02T12:00:00Z"), try action("2026-01-02T12:00:00Z"),  // instant
    ])
    let responses = log.responses(within: .minutes(30))
    #expect(responses.map(\.latency) == [.minutes(4), nil, .minutes(1), nil, .zero])
    let statistics = ResponseLatencyStatistics(responses)
    #expect(statistics.notificationCount == 5)
    #expect(statistics.respondedCount == 3)
    #expect(statistics.responseRate == 0.6)
    #expect(statistics.minimum == .zero)
    #expect(statistics.median == .minutes(1))
    #expect(statistics.mean == .seconds(100))
    #expect(statistics.maximum == .minutes(4))
  }

  @Test("statistics of an even count take the exact middle; no notifications give no figures")
  func statisticsEdgeCases() throws {
    let log = TimelineLog([
      try notification("2026-01-02T09:00:00Z"), try action("2026-01-02T09:00:01Z"),
      try notification("2026-01-02T10:00:00Z"), try action("2026-01-02T10:00:02Z"),
    ])
    let statistics = ResponseLatencyStatistics(log.responses(within: .minutes(1)))
    #expect(statistics.median == .milliseconds(1500))
    let empty = ResponseLatencyStatistics([])
    #expect(empty.responseRate == nil)
    #expect(empty.median == nil)
  }

  @Test("the log's JSON form uses ISO 8601 instants and round-trips")
  func logJSON() throws {
    let log = TimelineLog([
      try notification("2026-01-02T10:30:00Z"), try action("2026-01-02T10:31:00.250Z", nil),
    ])
    let text = """
      {"events":[{"at":"2026-01-02T10:30:00Z","kind":"notification_fired"},\
      {"at":"2026-01-02T10:31:00.250Z","kind":"user_action"}]}
      """
    #expect(try json(log) == text)
    #expect(try decode(TimelineLog.self, text) == log)
    #expect(throws: DecodingError.self) {
      try decode(TimelineLog.self, #"{"events":[{"at":"yesterday","kind":"user_action"}]}"#)
    }
  }
}
