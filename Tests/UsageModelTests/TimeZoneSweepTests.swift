import Foundation
import Testing
import UsageModel

/// Every known time zone, every day of 2020 through 2030, with days that start at midnight and
/// at 01:00, 02:30, 04:00 and 23:30: days tile the timeline and agree with Foundation.
@Suite("Time-zone sweep")
struct TimeZoneSweepTests {
  static let firstDay = (try? LocalDay(year: 2020, month: 1, day: 1))
  static let lastDay = (try? LocalDay(year: 2030, month: 12, day: 31))
  /// Midnight, a time inside many spring-forward gaps (01:00, 02:30), one after them (04:00)
  /// and one late in the evening, so that a day starts on the previous calendar date's clock.
  static let dayStarts = ["00:00", "01:00", "02:30", "04:00", "23:30"]

  func days() throws -> ClosedRange<LocalDay> {
    try #require(Self.firstDay)...(try #require(Self.lastDay))
  }

  @Test(
    "local days tile the timeline and each day's start agrees with Foundation, for several day starts",
    arguments: TimeZone.knownTimeZoneIdentifiers)
  func daysTileAndAgreeWithFoundation(identifier: String) throws {
    let timeZone = try zone(identifier)
    let days = try days()
    for text in Self.dayStarts {
      let boundary = DayBoundary(timeZone: timeZone, dayStart: try time(text))
      let table = boundary.table(for: days)
      // The single-day path must agree with the table where a day is not 24 hours long, and on
      // a sample of the other days.
      var singleDayMismatches: [String] = []
      let result = try DaySweep(timeZone: timeZone, dayStart: boundary.dayStart, days: days)
        .check { day in
          let interval = try table.interval(of: day)
          if interval.duration != 86_400 || day.dayNumber % 397 == 0,
            singleDayMismatches.count < 5
          {
            if boundary.interval(of: day) != interval {
              singleDayMismatches.append("\(day): single-day path \(boundary.interval(of: day))")
            }
            if try boundary.day(containing: interval.start) != day
              || boundary.day(containing: interval.end.addingTimeInterval(-0.001)) != day
            {
              singleDayMismatches.append("\(day): day(containing:) disagrees at the day's ends")
            }
          }
          return interval
        }
      // Where Foundation's nextDate fails (in a few gaps, see FoundationWallClock) the day is
      // still compared: with the gap's end, found from Foundation's own clock readings.
      #expect(
        result.mismatches.isEmpty,
        "\(identifier), days from \(text): \(result.mismatches.joined(separator: "; "))")
      #expect(
        singleDayMismatches.isEmpty,
        "\(identifier), days from \(text): \(singleDayMismatches.joined(separator: "; "))")
    }
  }

  @Test("where Foundation's nextDate fails in a gap, the day starts at the gap's end")
  func daysStartAtTheEndOfGapsWhereFoundationFails() throws {
    // Antarctica/Troll springs from +00:00 to +02:00 at 01:00 UTC: 01:00...02:59 local do not
    // exist on 2026-03-29, so days that start at 01:00 or 02:30 start at 03:00 local, 01:00 UTC.
    let troll = try zone("Antarctica/Troll")
    for text in ["01:00", "02:30"] {
      let boundary = DayBoundary(timeZone: troll, dayStart: try time(text))
      #expect(try boundary.start(of: day("2026-03-29")) == instant("2026-03-29T01:00:00Z"))
      let reference = try #require(
        FoundationWallClock(troll).firstInstant(try day("2026-03-29"), try time(text)))
      #expect(try reference == .init(date: instant("2026-03-29T01:00:00Z"), foundationFailed: true))
    }
    // Australia/Lord_Howe springs from +10:30 to +11:00 at 02:00 local on 2026-10-04.
    let lordHowe = try zone("Australia/Lord_Howe")
    let boundary = DayBoundary(timeZone: lordHowe, dayStart: try time("02:15"))
    #expect(
      try boundary.start(of: day("2026-10-04")) == instant("2026-10-04T02:30:00+11:00"))
    #expect(
      try FoundationWallClock(lordHowe).firstInstant(day("2026-10-04"), time("02:15"))?.date
        == instant("2026-10-04T02:30:00+11:00"))
  }

  @Test("the sweep catches a day boundary that is off by an hour on DST days (control)")
  func sweepCatchesAnHourOff() throws {
    // A naive boundary: local midnight converted with the UTC offset at noon UTC of the same
    // date, which is an hour off on the days the clocks change.
    let timeZone = try zone("America/New_York")
    let naive = { (day: LocalDay) -> Date in
      let nominal = Double(day.dayNumber) * 86_400
      let noon = Date(timeIntervalSince1970: nominal + 43_200)
      return Date(timeIntervalSince1970: nominal - Double(timeZone.secondsFromGMT(for: noon)))
    }
    let result = DaySweep(timeZone: timeZone, dayStart: .midnight, days: try days()).check {
      DateInterval(start: naive($0), end: naive($0.advanced(by: 1)))
    }
    #expect(!result.mismatches.isEmpty)
    #expect(result.mismatches.first?.hasPrefix("2020-03-08") == true, "\(result.mismatches)")
  }

  @Test(
    "the sweep catches a day start resolved to the wrong side of a gap or repeat (control)",
    arguments: [("02:30", "2020-03-08"), ("01:30", "2020-11-01")])
  func sweepCatchesAWrongResolution(dayStart text: String, firstWrongDay: String) throws {
    // Foundation's own wrong answers for a day that starts at `text`: in a gap, date(from:)
    // moves forward by the gap's length (03:30 instead of 03:00); in a repeat, the last
    // occurrence instead of the first. The quick check alone could not tell the first of these
    // from the truth, because it is the quick check; the full rule must.
    let timeZone = try zone("America/New_York")
    let dayStart = try time(text)
    let clock = FoundationWallClock(timeZone)
    let wrong = { (day: LocalDay) throws -> Date in
      let moved = try #require(clock.quickInstant(day, dayStart))
      guard text == "01:30" else { return moved }
      return try #require(
        clock.calendar.nextDate(
          after: moved.addingTimeInterval(-40 * 3600), matching: clock.components(day, dayStart),
          matchingPolicy: .nextTime, repeatedTimePolicy: .last, direction: .forward))
    }
    let result = try DaySweep(timeZone: timeZone, dayStart: dayStart, days: try days()).check {
      DateInterval(start: try wrong($0), end: try wrong($0.advanced(by: 1)))
    }
    #expect(result.mismatches.first?.hasPrefix(firstWrongDay) == true, "\(result.mismatches)")
  }
}
