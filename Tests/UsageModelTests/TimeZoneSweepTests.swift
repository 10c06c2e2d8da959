import Foundation
import Testing
import UsageModel

/// Every known time zone, every day of 2020 through 2030: days tile the timeline and agree
/// with Foundation's calendar.
@Suite("Time-zone sweep")
struct TimeZoneSweepTests {
  static let firstDay = (try? LocalDay(year: 2020, month: 1, day: 1))
  static let lastDay = (try? LocalDay(year: 2030, month: 12, day: 31))

  @Test(
    "local days tile the timeline and each day's start and length agree with Foundation",
    arguments: TimeZone.knownTimeZoneIdentifiers)
  func daysTileAndAgreeWithFoundation(identifier: String) throws {
    let timeZone = try zone(identifier)
    let first = try #require(Self.firstDay)
    let last = try #require(Self.lastDay)
    let boundary = DayBoundary(timeZone: timeZone)
    let table = boundary.table(for: first...last)
    let calendar = gregorian(timeZone)
    var previousEnd: Date?
    var mismatches: [String] = []
    for (offset, day) in (first...last).enumerated() {
      let interval = try table.interval(of: day)
      if let previousEnd, previousEnd != interval.start {
        mismatches.append("\(day): starts \(interval.start), previous day ended \(previousEnd)")
      }
      previousEnd = interval.end
      // Foundation's view: the start of the day that contains the middle of our day, and the
      // calendar date of that middle (from the zone's offset alone, no Calendar).
      let middle = interval.start.addingTimeInterval(interval.duration / 2)
      let foundationStart = calendar.startOfDay(for: middle)
      let localSeconds = middle.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: middle))
      let localDayNumber = Int((localSeconds / 86_400).rounded(.down))
      if foundationStart != interval.start || localDayNumber != day.dayNumber
        || interval.duration <= 0
      {
        mismatches.append(
          "\(day): ours \(interval.start) for \(interval.duration / 3600) h, Foundation "
            + "\(foundationStart); local day number \(localDayNumber)")
      }
      // The single-day path must agree with the table (sampled where it is cheap, always where a
      // day is not 24 hours long).
      if offset % 29 == 0 || interval.duration != 86_400 {
        let single = boundary.interval(of: day)
        if single != interval { mismatches.append("\(day): single-day path gives \(single)") }
        if try boundary.day(containing: interval.start) != day
          || boundary.day(containing: interval.end.addingTimeInterval(-0.001)) != day
        {
          mismatches.append("\(day): day(containing:) disagrees at the day's ends")
        }
      }
      if mismatches.count > 5 { break }
    }
    // The day after the last day starts where the last one ends, so the check above covers the
    // whole range; Foundation's own end of the range agrees too.
    let end = try #require(previousEnd)
    #expect(end == calendar.startOfDay(for: end.addingTimeInterval(3600)))
    #expect(mismatches.isEmpty, "\(identifier): \(mismatches.joined(separator: "; "))")
  }

  @Test("the sweep catches a day boundary that is off by an hour (control)")
  func sweepCatchesWrongBoundary() throws {
    // A boundary one hour late, as a naive "UTC offset at noon" computation gives on a
    // spring-forward day, must disagree with Foundation's start of the day.
    let timeZone = try zone("America/New_York")
    let boundary = DayBoundary(timeZone: timeZone)
    let day = try day("2026-03-08")
    let wrongStart = boundary.start(of: day).addingTimeInterval(3600)
    let middle = wrongStart.addingTimeInterval(11 * 3600)
    #expect(gregorian(timeZone).startOfDay(for: middle) != wrongStart)
  }
}
