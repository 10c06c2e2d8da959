import Foundation
import TestSupport
import Testing
import UsageModel

@Suite("Local days, months, ISO weeks and times of day")
struct LocalDayTests {
  @Test(
    "a date that does not exist is a typed error",
    arguments: [
      (2026, 2, 30), (2026, 2, 29), (2100, 2, 29), (2026, 4, 31), (2026, 13, 1), (2026, 0, 10),
      (0, 1, 1), (10_000, 1, 1), (2026, 1, 0),
    ])
  func invalidDatesAreRejected(year: Int, month: Int, day: Int) {
    #expect(throws: UsageModelError.invalidDate(year: year, month: month, day: day)) {
      try LocalDay(year: year, month: month, day: day)
    }
  }

  @Test("leap days exist exactly in leap years")
  func leapDays() throws {
    #expect(try LocalDay(year: 2024, month: 2, day: 29).numberOfDaysInMonth == 29)
    #expect(try LocalDay(year: 2000, month: 2, day: 29).isInLeapYear)
    #expect(!LocalDay.isLeapYear(2100))
    #expect(!LocalDay.isLeapYear(2026))
    #expect(try day("2024-02-28").advanced(by: 1) == day("2024-02-29"))
    #expect(try day("2026-02-28").advanced(by: 1) == day("2026-03-01"))
  }

  @Test(
    "parsing accepts only yyyy-MM-dd",
    arguments: [
      "2026-1-02", "2026-01-2", "26-01-02", "2026/01/02", "2026-01-02T00:00", " 2026-01-02", "",
      "２０２６-01-02",
    ])
  func malformedTextIsRejected(text: String) {
    #expect(throws: UsageModelError.malformedText(text: text, expected: "yyyy-MM-dd")) {
      try LocalDay(parsing: text)
    }
  }

  @Test("the JSON form is the bare string yyyy-MM-dd")
  func jsonForm() throws {
    let value = try day("2026-01-02")
    #expect(try json(value) == #""2026-01-02""#)
    #expect(
      try decode(LocalDay.self, #""0001-01-01""#) == LocalDay(year: 1, month: 1, day: 1))
    #expect(throws: DecodingError.self) { try decode(LocalDay.self, #""2026-02-30""#) }
  }

  @Test("day numbers, weekdays and month arithmetic agree with Foundation's calendar")
  func arithmeticAgreesWithFoundation() throws {
    var calendar = gregorian(try zone("UTC"))
    calendar.locale = Locale(identifier: "en_US_POSIX")
    var random = SplitMix64(seed: 0x10CA_1DA7)
    for _ in 0..<2000 {
      // From 1583 on: before 1582-10-15 Foundation's Gregorian calendar switches to Julian
      // dates, while LocalDay stays proleptic Gregorian.
      let dayNumber = Int.random(in: -141_000...200_000, using: &random)
      let localDay = try LocalDay(dayNumber: dayNumber)
      let date = Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
      let components = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
      #expect(components.year == localDay.year)
      #expect(components.month == localDay.month)
      #expect(components.day == localDay.day)
      // Foundation numbers Sunday 1 ... Saturday 7; ISO numbers Monday 1 ... Sunday 7.
      #expect(((components.weekday ?? 0) + 5) % 7 + 1 == localDay.weekday.rawValue)
      #expect(
        calendar.range(of: .day, in: .month, for: date)?.count == localDay.numberOfDaysInMonth)
      let other = try LocalDay(dayNumber: dayNumber + Int.random(in: -1000...1000, using: &random))
      #expect(localDay.distance(to: other) == other.dayNumber - dayNumber)
      #expect(localDay.advanced(by: localDay.distance(to: other)) == other)
      #expect(
        try LocalDay(year: localDay.year, month: localDay.month, day: localDay.day) == localDay)
    }
  }

  @Test("ISO weeks agree with Foundation's ISO 8601 calendar")
  func isoWeeksAgreeWithFoundation() throws {
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = try zone("UTC")
    var current = try day("2019-12-01")
    let last = try day("2032-01-31")
    while current <= last {
      let date = Date(timeIntervalSince1970: Double(current.dayNumber) * 86_400)
      let components = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
      let week = try current.isoWeek
      #expect(components.yearForWeekOfYear == week.yearForWeekOfYear, "\(current)")
      #expect(components.weekOfYear == week.week, "\(current)")
      #expect(week.days.contains(current))
      #expect(week.firstDay.weekday == .monday)
      current = current.advanced(by: 3)
    }
    #expect(try day("2026-12-31").isoWeek.description == "2026-W53")
    #expect(try day("2027-01-03").isoWeek.description == "2026-W53")
    #expect(ISOWeek.numberOfWeeks(inYearForWeekOfYear: 2026) == 53)
    #expect(throws: UsageModelError.invalidISOWeek(year: 2025, week: 53)) {
      try ISOWeek(yearForWeekOfYear: 2025, week: 53)
    }
    #expect(try json(ISOWeek(parsing: "2026-W01")) == #""2026-W01""#)
    #expect(try ISOWeek(parsing: "2026-W01").advanced(by: 53) == ISOWeek(parsing: "2027-W01"))
  }

  /// Only 9999-12-27...31 have no week: 9999-W52 would end in the year 10000.
  @Test("the ISO week of every day at either end of the range round-trips and holds the day")
  func isoWeeksAtTheEdgesOfTheRangeRoundTrip() throws {
    let range = LocalDay.supportedDayNumbers
    let lastDayWithAWeek = try day("9999-12-26")
    for dayNumber in Array(range.prefix(21)) + Array(range.suffix(21)) {
      let day = try LocalDay(dayNumber: dayNumber)
      guard day <= lastDayWithAWeek else {
        #expect(throws: UsageModelError.invalidISOWeek(year: 9999, week: 52)) { try day.isoWeek }
        continue
      }
      let week = try day.isoWeek
      let parsed = try ISOWeek(parsing: week.description)
      #expect(parsed == week)
      #expect(try ISOWeek(yearForWeekOfYear: week.yearForWeekOfYear, week: week.week) == week)
      #expect(week.days.contains(day))
    }
    #expect(try ISOWeek(parsing: "0001-W01").firstDay == day("0001-01-01"))
    #expect(try ISOWeek(parsing: "9999-W51").lastDay == lastDayWithAWeek)
    #expect(throws: UsageModelError.invalidISOWeek(year: 9999, week: 52)) {
      try ISOWeek(parsing: "9999-W52")
    }
    #expect(throws: UsageModelError.invalidISOWeek(year: 0, week: 52)) {
      try ISOWeek(yearForWeekOfYear: 0, week: 52)
    }
    // Stepping stays inside the supported weeks up to their ends.
    #expect(try ISOWeek(parsing: "0001-W02").advanced(by: -1) == ISOWeek(parsing: "0001-W01"))
    #expect(try ISOWeek(parsing: "9999-W01").advanced(by: 50) == ISOWeek(parsing: "9999-W51"))
  }

  @Test("months know their days and step across years")
  func months() throws {
    let february = try LocalMonth(year: 2024, month: 2)
    #expect(february.numberOfDays == 29)
    #expect(try february.days == (day("2024-02-01"))...(day("2024-02-29")))
    #expect(
      try LocalMonth(parsing: "2026-12").advanced(by: 1) == LocalMonth(parsing: "2027-01"))
    #expect(
      try LocalMonth(parsing: "2026-01").distance(to: try LocalMonth(parsing: "2025-11")) == -2)
    #expect(try day("2026-03-17").localMonth.description == "2026-03")
    #expect(try day("2026-03-17").firstDayOfMonth == day("2026-03-01"))
    #expect(try day("2026-04-17").lastDayOfMonth == day("2026-04-30"))
    #expect(try json(february) == #""2024-02""#)
    #expect(throws: UsageModelError.invalidMonth(year: 2026, month: 13)) {
      try LocalMonth(year: 2026, month: 13)
    }
  }

  @Test("times of day validate and print HH:mm, with seconds only when set")
  func timesOfDay() throws {
    #expect(try TimeOfDay(hour: 4).description == "04:00")
    #expect(try TimeOfDay(hour: 23, minute: 59, second: 30).description == "23:59:30")
    #expect(try time("07:05") < time("21:00"))
    #expect(throws: UsageModelError.invalidTimeOfDay(hour: 24, minute: 0, second: 0)) {
      try TimeOfDay(hour: 24)
    }
    #expect(throws: UsageModelError.self) { try TimeOfDay(parsing: "7:05") }
    #expect(try decode(TimeOfDay.self, #""21:30""#) == TimeOfDay(hour: 21, minute: 30))
  }

  @Test("a range of local days can be iterated like integers")
  func iteration() throws {
    let days = Array((try day("2026-12-30"))...(try day("2027-01-02")))
    #expect(days.map(\.description) == ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"])
  }
}

@Suite("Wall-clock values")
struct WallClockValueTests {
  @Test("a local date and time encodes as yyyy-MM-ddTHH:mm and keeps its date components")
  func localDateTime() throws {
    let value = LocalDateTime(day: try day("2026-01-03"), time: try time("00:20"))
    #expect(try json(value) == #""2026-01-03T00:20""#)
    #expect(try decode(LocalDateTime.self, #""2026-01-03T00:20:05""#).time.second == 5)
    #expect(throws: DecodingError.self) { try decode(LocalDateTime.self, #""2026-01-03 00:20""#) }
    let components = value.dateComponents
    #expect(
      [components.year, components.month, components.day, components.hour, components.minute]
        == [2026, 1, 3, 0, 20])
  }

  @Test("weekdays are numbered Monday 1 to Sunday 7 in JSON")
  func weekdayJSON() throws {
    #expect(try json([Weekday.monday, .sunday]) == "[1,7]")
    #expect(try day("2026-01-04").weekday == .sunday)
    #expect(throws: DecodingError.self) { try decode(Weekday.self, "0") }
  }
}
