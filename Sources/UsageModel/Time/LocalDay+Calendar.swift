extension LocalDay {
  /// The day of the week (ISO 8601: Monday is 1, Sunday is 7).
  public var weekday: Weekday {
    // isoWeekday is always 1...7, so the raw value always exists.
    Weekday(rawValue: CivilCalendar.isoWeekday(dayNumber: dayNumber)) ?? .monday
  }

  /// The month this day belongs to.
  public var localMonth: LocalMonth { LocalMonth(uncheckedYear: year, month: month) }

  /// The ISO 8601 week this day belongs to (weeks start on Monday; week 1 holds 4 January).
  ///
  /// Every day has one, except 9999-12-27...9999-12-31: their week, 9999-W52, ends in the year
  /// 10000, outside the supported days, so it is not a supported ``ISOWeek``.
  ///
  /// ```swift
  /// try LocalDay(parsing: "2027-01-01").isoWeek   // 2026-W53
  /// ```
  ///
  /// - Throws: ``UsageModelError/invalidISOWeek(year:week:)`` (year 9999, week 52) for the last
  ///   five days of 9999.
  public var isoWeek: ISOWeek {
    get throws(UsageModelError) { try ISOWeek(containing: self) }
  }

  /// The number of days in this day's month, 28...31.
  public var numberOfDaysInMonth: Int {
    CivilCalendar.daysInMonth(year: year, month: month)
  }

  /// The first day of this day's month.
  public var firstDayOfMonth: LocalDay { advanced(by: 1 - day) }

  /// The last day of this day's month.
  public var lastDayOfMonth: LocalDay { advanced(by: numberOfDaysInMonth - day) }

  /// The day of the year, 1...366.
  public var dayOfYear: Int {
    dayNumber - CivilCalendar.dayNumber(year: year, month: 1, day: 1) + 1
  }

  /// Whether this day's year is a leap year.
  public var isInLeapYear: Bool { CivilCalendar.isLeapYear(year) }

  /// Whether `year` is a leap year of the Gregorian calendar (divisible by 4, except centuries
  /// not divisible by 400).
  ///
  /// - Parameter year: A year.
  /// - Returns: `true` for 2024 and 2000, `false` for 2026 and 2100.
  public static func isLeapYear(_ year: Int) -> Bool { CivilCalendar.isLeapYear(year) }
}
