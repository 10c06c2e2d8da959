import Foundation
import Testing
import UsageModel

@Suite("Day boundaries")
struct DayBoundaryTests {
  @Test("America/New_York 2026-03-08 lasts 23 hours and 2026-11-01 lasts 25 hours")
  func newYorkDaylightSavingDays() throws {
    let boundary = DayBoundary(timeZone: try zone("America/New_York"))
    #expect(boundary.length(of: try day("2026-03-08")) == .hours(23))
    #expect(boundary.length(of: try day("2026-11-01")) == .hours(25))
    #expect(boundary.length(of: try day("2026-03-09")) == .hours(24))
    #expect(try boundary.start(of: day("2026-03-08")) == instant("2026-03-08T05:00:00Z"))
    #expect(try boundary.start(of: day("2026-03-09")) == instant("2026-03-09T04:00:00Z"))
  }

  @Test("Australia/Lord_Howe's 30-minute shifts make days of 24.5 and 23.5 hours")
  func lordHoweHalfHourShift() throws {
    let boundary = DayBoundary(timeZone: try zone("Australia/Lord_Howe"))
    #expect(boundary.length(of: try day("2026-04-05")) == .minutes(24 * 60 + 30))
    #expect(boundary.length(of: try day("2026-10-04")) == .minutes(23 * 60 + 30))
  }

  @Test("where local midnight does not exist the day starts at 01:00, as Foundation says")
  func nonexistentMidnight() throws {
    // Cuba springs forward at midnight: 2026-03-08 00:00 does not exist in America/Havana.
    let timeZone = try zone("America/Havana")
    let boundary = DayBoundary(timeZone: timeZone)
    let sunday = try day("2026-03-08")
    let start = boundary.start(of: sunday)
    #expect(try start == instant("2026-03-08T01:00:00-04:00"))
    #expect(start == gregorian(timeZone).startOfDay(for: start.addingTimeInterval(7200)))
    #expect(boundary.length(of: sunday) == .hours(23))
    #expect(boundary.length(of: try day("2026-03-07")) == .hours(24))
  }

  @Test("a repeated midnight starts the day at its first occurrence")
  func repeatedMidnight() throws {
    // Cuba falls back from 01:00 to 00:00 on 2026-11-01, so midnight happens twice.
    let boundary = DayBoundary(timeZone: try zone("America/Havana"))
    let sunday = try day("2026-11-01")
    #expect(try boundary.start(of: sunday) == instant("2026-11-01T00:00:00-04:00"))
    #expect(boundary.length(of: sunday) == .hours(25))
  }

  @Test("a 04:00 day start keeps days of 23 and 25 hours across DST changes")
  func fourAMDayStartAcrossDaylightSaving() throws {
    let timeZone = try zone("America/New_York")
    let boundary = DayBoundary(timeZone: timeZone, dayStart: try time("04:00"))
    // The day of 2026-03-07 runs from Saturday 04:00 EST to Sunday 04:00 EDT: 23 hours.
    let saturday = try day("2026-03-07")
    #expect(try boundary.start(of: saturday) == instant("2026-03-07T04:00:00-05:00"))
    #expect(boundary.length(of: saturday) == .hours(23))
    #expect(boundary.length(of: try day("2026-03-08")) == .hours(24))
    #expect(boundary.length(of: try day("2026-10-31")) == .hours(25))
    // 02:30 on Sunday morning still belongs to Saturday's day.
    #expect(try boundary.day(containing: try instant("2026-03-08T03:30:00-04:00")) == saturday)
    #expect(
      try boundary.day(containing: instant("2026-03-08T04:00:00-04:00"))
        == day("2026-03-08"))
  }

  @Test("a day start inside a DST gap begins when the gap ends")
  func dayStartInsideGap() throws {
    let boundary = DayBoundary(
      timeZone: try zone("America/New_York"), dayStart: try time("02:30"))
    #expect(
      try boundary.start(of: day("2026-03-08")) == instant("2026-03-08T03:00:00-04:00"))
    // Saturday 02:30 EST to Sunday 03:00 EDT, then Sunday 03:00 EDT to Monday 02:30 EDT: the
    // lost hour is shared by the two days.
    #expect(boundary.length(of: try day("2026-03-07")) == .minutes(23 * 60 + 30))
    #expect(boundary.length(of: try day("2026-03-08")) == .minutes(23 * 60 + 30))
  }

  @Test("a day start inside a repeated hour begins at its first occurrence")
  func dayStartInsideRepeat() throws {
    let boundary = DayBoundary(
      timeZone: try zone("America/New_York"), dayStart: try time("01:30"))
    #expect(
      try boundary.start(of: day("2026-11-01")) == instant("2026-11-01T01:30:00-04:00"))
    #expect(boundary.length(of: try day("2026-10-31")) == .hours(24))
    #expect(boundary.length(of: try day("2026-11-01")) == .hours(25))
  }

  @Test("an instant exactly at a day's start belongs to that day, a millisecond before to the last")
  func instantsAtBoundary() throws {
    let boundary = DayBoundary(timeZone: try zone("Europe/Berlin"))
    let start = try instant("2026-03-29T00:00:00+01:00")
    #expect(try boundary.day(containing: start) == day("2026-03-29"))
    #expect(
      try boundary.day(containing: start.addingTimeInterval(-0.001)) == day("2026-03-28"))
    let table = boundary.table(for: try day("2026-03-28")...(try day("2026-03-30")))
    #expect(try table.day(containing: start) == day("2026-03-29"))
    #expect(try table.day(containing: start.addingTimeInterval(-0.001)) == day("2026-03-28"))
    #expect(table.day(containing: try instant("2026-03-31T00:00:00+02:00")) == nil)
  }

  @Test("a table refuses days outside its range with a typed error")
  func tableOutsideRange() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let table = boundary.table(for: try day("2026-01-01")...(try day("2026-01-31")))
    #expect(
      throws: UsageModelError.dayOutsideTable(
        day: try day("2026-02-01"), first: try day("2026-01-01"), last: try day("2026-01-31"))
    ) {
      try table.interval(of: try day("2026-02-01"))
    }
  }

  @Test("a non-finite instant has no day: a typed error, not a crash")
  func nonFiniteInstant() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    #expect(throws: UsageModelError.self) {
      try boundary.day(containing: Date(timeIntervalSinceReferenceDate: .nan))
    }
  }

  @Test("the JSON form names the zone and the day start")
  func jsonForm() throws {
    let boundary = DayBoundary(
      timeZone: try zone("America/New_York"), dayStart: try time("04:00"))
    #expect(try json(boundary) == #"{"dayStart":"04:00","timeZone":"America/New_York"}"#)
    #expect(
      try decode(DayBoundary.self, #"{"timeZone":"America/New_York","dayStart":"04:00"}"#)
        == boundary)
    #expect(try decode(DayBoundary.self, #"{"timeZone":"UTC"}"#).dayStart == .midnight)
    #expect(throws: DecodingError.self) {
      try decode(DayBoundary.self, #"{"timeZone":"Mars/Olympus_Mons"}"#)
    }
  }
}
