/// An ISO 8601 week: seven days from Monday to Sunday, numbered within its week-based year.
///
/// Week 1 of a week-based year is the week that holds 4 January, so 2026-12-31 (a Thursday)
/// is in week 53 of 2026 and 2027-01-01 (a Friday) is too. A week-based year has 52 or 53 weeks.
///
/// The supported weeks are those whose seven days are all supported ``LocalDay`` values:
/// 0001-W01 (which starts on 0001-01-01, a Monday) through 9999-W51 (which ends on
/// 9999-12-26). 9999-W52 would end in the year 10000, so the last five days of 9999 have no
/// supported week and ``LocalDay/isoWeek`` throws for them.
///
/// ```swift
/// let week = try LocalDay(parsing: "2026-01-02").isoWeek   // 2026-W01
/// week.days                                               // 2025-12-29...2026-01-04
/// ```
///
/// JSON form: the string `"yyyy-Www"`, for example `"2026-W01"`.
public struct ISOWeek: Sendable, Hashable, Comparable, Strideable, Codable,
  CustomStringConvertible
{
  /// The week-based year, which differs from the calendar year for some days around 1 January.
  public let yearForWeekOfYear: Int
  /// The week number, 1...53.
  public let week: Int

  /// Creates a week of a week-based year.
  ///
  /// - Parameters:
  ///   - yearForWeekOfYear: 1...9999.
  ///   - week: 1 through ``numberOfWeeks(inYearForWeekOfYear:)``; in 9999 at most 51, so that
  ///     every day of the week is a supported day.
  /// - Throws: ``UsageModelError/invalidISOWeek(year:week:)``.
  public init(yearForWeekOfYear: Int, week: Int) throws(UsageModelError) {
    guard (1...9999).contains(yearForWeekOfYear),
      (1...Self.numberOfWeeks(inYearForWeekOfYear: yearForWeekOfYear)).contains(week),
      Self.mondayNumber(yearForWeekOfYear: yearForWeekOfYear, week: week) + 6
        <= LocalDay.supportedDayNumbers.upperBound
    else { throw .invalidISOWeek(year: yearForWeekOfYear, week: week) }
    self.yearForWeekOfYear = yearForWeekOfYear
    self.week = week
  }

  /// Parses the form `yyyy-Www`.
  ///
  /// - Parameter text: For example `"2026-W01"`.
  /// - Throws: ``UsageModelError/malformedText(text:expected:)`` or
  ///   ``UsageModelError/invalidISOWeek(year:week:)``.
  public init(parsing text: String) throws(UsageModelError) {
    var scanner = DigitScanner(text)
    guard let year = scanner.number(digits: 4), scanner.skip("-"), scanner.skip("W"),
      let week = scanner.number(digits: 2), scanner.isAtEnd
    else { throw .malformedText(text: text, expected: "yyyy-Www") }
    try self.init(yearForWeekOfYear: year, week: week)
  }

  /// The week that holds `day`, validated like every other week.
  init(containing day: LocalDay) throws(UsageModelError) {
    let thursday = day.dayNumber - CivilCalendar.isoWeekday(dayNumber: day.dayNumber) + 4
    let year = CivilCalendar.civil(dayNumber: thursday).year
    try self.init(
      yearForWeekOfYear: year,
      week: (thursday - CivilCalendar.dayNumber(year: year, month: 1, day: 1)) / 7 + 1)
  }

  /// The number of ISO weeks, 52 or 53, of a week-based year.
  ///
  /// - Parameter year: A week-based year.
  /// - Returns: 53 when 1 January is a Thursday, or a Wednesday in a leap year; otherwise 52.
  public static func numberOfWeeks(inYearForWeekOfYear year: Int) -> Int {
    let januaryFirst = CivilCalendar.isoWeekday(
      dayNumber: CivilCalendar.dayNumber(year: year, month: 1, day: 1))
    return januaryFirst == 4 || (januaryFirst == 3 && CivilCalendar.isLeapYear(year)) ? 53 : 52
  }

  private var mondayNumber: Int {
    Self.mondayNumber(yearForWeekOfYear: yearForWeekOfYear, week: week)
  }

  private static func mondayNumber(yearForWeekOfYear: Int, week: Int) -> Int {
    let januaryFourth = CivilCalendar.dayNumber(year: yearForWeekOfYear, month: 1, day: 4)
    let firstMonday = januaryFourth - CivilCalendar.isoWeekday(dayNumber: januaryFourth) + 1
    return firstMonday + (week - 1) * 7
  }

  /// The Monday that starts the week.
  public var firstDay: LocalDay { LocalDay(uncheckedDayNumber: mondayNumber) }

  /// The Sunday that ends the week.
  public var lastDay: LocalDay { firstDay.advanced(by: 6) }

  /// The seven days of the week, Monday first.
  public var days: ClosedRange<LocalDay> { firstDay...lastDay }

  /// The week `weeks` weeks later (earlier when negative).
  ///
  /// Like integer arithmetic that overflows, stepping outside 0001-W01...9999-W51 is a
  /// programming error and stops the program; validate untrusted week counts first.
  ///
  /// - Parameter weeks: The number of weeks to move.
  /// - Returns: The week reached.
  public func advanced(by weeks: Int) -> ISOWeek {
    let (days, overflow) = weeks.multipliedReportingOverflow(by: 7)
    precondition(!overflow, "ISOWeek out of 0001-W01...9999-W51")
    do {
      return try ISOWeek(containing: firstDay.advanced(by: days))
    } catch {
      preconditionFailure("ISOWeek out of 0001-W01...9999-W51")
    }
  }

  /// The number of weeks from this week to `other`.
  ///
  /// - Parameter other: Another week.
  /// - Returns: The signed difference in weeks.
  public func distance(to other: ISOWeek) -> Int { (other.mondayNumber - mondayNumber) / 7 }

  /// Whether `lhs` is an earlier week than `rhs`.
  public static func < (lhs: ISOWeek, rhs: ISOWeek) -> Bool {
    (lhs.yearForWeekOfYear, lhs.week) < (rhs.yearForWeekOfYear, rhs.week)
  }

  /// The form `yyyy-Www`, for example `2026-W01`.
  public var description: String {
    LocalDay.padded(yearForWeekOfYear, 4) + "-W" + LocalDay.padded(week, 2)
  }

  /// Decodes the string form `"yyyy-Www"`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the text is not an ISO week.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText { try Self(parsing: $0) }
  }

  /// Encodes the string form `"yyyy-Www"`.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
