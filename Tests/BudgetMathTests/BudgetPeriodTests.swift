import BudgetMath
import Foundation
import Testing
import UsageModel

@Suite("Budget periods")
struct BudgetPeriodTests {
  let newYork: DayBoundary

  init() throws {
    newYork = DayBoundary(timeZone: try #require(TimeZone(identifier: "America/New_York")))
  }

  /// The sum of the real lengths of `days`.
  func sumOfDays(_ days: ClosedRange<LocalDay>) -> Duration {
    days.reduce(.zero) { $0 + newYork.length(of: $1) }
  }

  @Test(
    "a period's exact length is the sum of its days' lengths, and its interval's",
    arguments: [
      (BudgetPeriod.month, "2026-03-15", 743), (.month, "2026-11-15", 721),
      (.month, "2026-01-15", 744), (.isoWeek, "2026-03-05", 167),
      (.week(firstWeekday: .sunday), "2026-11-03", 169), (.day, "2026-03-08", 23),
      (.day, "2026-06-01", 24),
    ])
  func periodLength(period: BudgetPeriod, dayText: String, hours: Int64) throws {
    let day = try day(dayText)
    let length = period.length(containing: day, boundary: newYork)
    #expect(length == .seconds(hours * 3600))
    #expect(length == sumOfDays(period.days(containing: day)))
    let interval = period.interval(containing: day, boundary: newYork)
    #expect(interval.duration == Double(hours * 3600))
  }

  @Test(
    "weeks at the ends of the supported days are cut to them instead of stopping the program",
    arguments: [
      ("0001-01-01", BudgetPeriod.week(firstWeekday: .sunday), "0001-01-01", "0001-01-06"),
      ("0001-01-03", .isoWeek, "0001-01-01", "0001-01-07"),
      ("9999-12-31", .isoWeek, "9999-12-27", "9999-12-31"),
      ("9999-12-30", .week(firstWeekday: .saturday), "9999-12-25", "9999-12-31"),
    ])
  func weeksAtTheEnds(dayText: String, period: BudgetPeriod, first: String, last: String) throws {
    let day = try day(dayText)
    let days = period.days(containing: day)
    #expect(try days == (LocalDay(parsing: first))...(LocalDay(parsing: last)))
    #expect(days.contains(day))
    // The interval and the length of the last day's period exist too.
    #expect(period.length(containing: day, boundary: newYork) == sumOfDays(days))
    #expect(period.interval(containing: day, boundary: newYork).duration > 0)
  }

  @Test("the last supported month has an interval and a length")
  func lastMonth() throws {
    let december = try day("9999-12-31")
    #expect(
      BudgetPeriod.month.length(containing: december, boundary: newYork) == .seconds(744 * 3600))
    let interval = BudgetPeriod.month.interval(containing: december, boundary: newYork)
    #expect(interval.duration == 744 * 3600)
  }
}
