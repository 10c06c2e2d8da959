/// Proleptic Gregorian calendar arithmetic on day numbers, with integers only.
///
/// A day number counts days since 1970-01-01 (day 0); the algorithms are Howard Hinnant's
/// `days_from_civil` and `civil_from_days`, exact for every year this module supports.
enum CivilCalendar {
  /// Milliseconds in a nominal 24-hour day.
  static let millisecondsPerDay: Int64 = 86_400_000

  /// Whether `year` has a 29 February.
  static func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// The number of days of `month` (1...12) in `year`.
  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The day number of a valid civil date.
  static func dayNumber(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = floorDivide(shiftedYear, 400)
    let yearOfEra = shiftedYear - era * 400
    let monthFromMarch = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date of a day number.
  static func civil(dayNumber: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = dayNumber + 719_468
    let era = floorDivide(shifted, 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  /// The ISO weekday of a day number: Monday is 1, Sunday is 7 (1970-01-01 was a Thursday).
  static func isoWeekday(dayNumber: Int) -> Int {
    floorModulo(dayNumber + 3, 7) + 1
  }

  /// `numerator / denominator` rounded towards negative infinity.
  static func floorDivide<T: BinaryInteger>(_ numerator: T, _ denominator: T) -> T {
    let quotient = numerator / denominator
    return (numerator % denominator != 0 && (numerator < 0) != (denominator < 0))
      ? quotient - 1 : quotient
  }

  /// The remainder of a floor division, always in `0..<denominator` for a positive denominator.
  static func floorModulo<T: BinaryInteger>(_ numerator: T, _ denominator: T) -> T {
    numerator - floorDivide(numerator, denominator) * denominator
  }
}
