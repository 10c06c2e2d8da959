/// A calendar month — a year and a month — with no time zone.
///
/// ``LocalMonth`` steps by months (`advanced(by: 1)` after 2026-12 is 2027-01) and knows its days.
///
/// ```swift
/// let february = try LocalMonth(year: 2024, month: 2)
/// february.numberOfDays   // 29
/// february.days           // 2024-02-01...2024-02-29
/// ```
///
/// JSON form: the string `"yyyy-MM"`, for example `"2026-01"`.
public struct LocalMonth: Sendable, Hashable, Comparable, Strideable, Codable,
  CustomStringConvertible
{
  /// The year, 1...9999.
  public let year: Int
  /// The month, 1...12.
  public let month: Int

  /// Creates a month.
  ///
  /// - Parameters:
  ///   - year: 1...9999.
  ///   - month: 1...12.
  /// - Throws: ``UsageModelError/invalidMonth(year:month:)``.
  public init(year: Int, month: Int) throws(UsageModelError) {
    guard (1...9999).contains(year), (1...12).contains(month) else {
      throw .invalidMonth(year: year, month: month)
    }
    self.init(uncheckedYear: year, month: month)
  }

  /// Parses the form `yyyy-MM`.
  ///
  /// - Parameter text: For example `"2026-01"`.
  /// - Throws: ``UsageModelError/malformedText(text:expected:)`` or
  ///   ``UsageModelError/invalidMonth(year:month:)``.
  public init(parsing text: String) throws(UsageModelError) {
    var scanner = DigitScanner(text)
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.isAtEnd
    else { throw .malformedText(text: text, expected: "yyyy-MM") }
    try self.init(year: year, month: month)
  }

  init(uncheckedYear year: Int, month: Int) {
    self.year = year
    self.month = month
  }

  /// The number of days, 28...31.
  public var numberOfDays: Int { CivilCalendar.daysInMonth(year: year, month: month) }

  /// The first day of the month.
  public var firstDay: LocalDay {
    LocalDay(uncheckedDayNumber: CivilCalendar.dayNumber(year: year, month: month, day: 1))
  }

  /// The last day of the month.
  public var lastDay: LocalDay { firstDay.advanced(by: numberOfDays - 1) }

  /// Every day of the month, in order.
  public var days: ClosedRange<LocalDay> { firstDay...lastDay }

  private var monthNumber: Int { year * 12 + month - 1 }

  /// The month `months` months later (earlier when negative).
  ///
  /// Stepping outside 0001-01...9999-12 is a programming error and stops the program.
  ///
  /// - Parameter months: The number of months to move.
  /// - Returns: The month reached.
  public func advanced(by months: Int) -> LocalMonth {
    let target = monthNumber + months
    precondition((12...(9999 * 12 + 11)).contains(target), "LocalMonth out of 0001...9999")
    return LocalMonth(uncheckedYear: target / 12, month: target % 12 + 1)
  }

  /// The number of months from this month to `other`.
  ///
  /// - Parameter other: Another month.
  /// - Returns: The signed difference in months.
  public func distance(to other: LocalMonth) -> Int { other.monthNumber - monthNumber }

  /// Whether `lhs` is an earlier month than `rhs`.
  public static func < (lhs: LocalMonth, rhs: LocalMonth) -> Bool {
    lhs.monthNumber < rhs.monthNumber
  }

  /// The form `yyyy-MM`.
  public var description: String { LocalDay.padded(year, 4) + "-" + LocalDay.padded(month, 2) }

  /// Decodes the string form `"yyyy-MM"`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the text is not a month.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText { try Self(parsing: $0) }
  }

  /// Encodes the string form `"yyyy-MM"`.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
