/// A calendar date — year, month and day — with no time and no time zone.
///
/// A ``LocalDay`` names a day as a person says it ("2 January 2026"); which instants belong to it
/// depends on where and when the day starts, which is a ``DayBoundary``'s job. Arithmetic uses
/// integer day numbers (days since 1970-01-01) and never a `Calendar`, so it is exact and cheap.
/// The supported range is 0001-01-01...9999-12-31 in the proleptic Gregorian calendar (which,
/// unlike Foundation's `.gregorian` calendar, does not switch to Julian dates before 1582-10-15).
///
/// ```swift
/// let day = try LocalDay(year: 2026, month: 3, day: 8)
/// day.weekday                // .sunday
/// day.advanced(by: 1)        // 2026-03-09
/// try LocalDay(parsing: "2026-02-30")   // throws UsageModelError.invalidDate
/// ```
///
/// JSON form: the string `"yyyy-MM-dd"`, for example `"2026-01-02"`.
public struct LocalDay: Sendable, Hashable, Comparable, Strideable, Codable,
  CustomStringConvertible
{
  /// The day numbers of 0001-01-01 and 9999-12-31.
  public static let supportedDayNumbers: ClosedRange<Int> = -719_162...2_932_896

  /// The days since 1970-01-01 (negative before it); 2026-01-02 is day 20,455.
  public let dayNumber: Int
  private let packedYear: Int16
  private let packedMonth: UInt8
  private let packedDay: UInt8

  /// The year, 1...9999.
  public var year: Int { Int(packedYear) }
  /// The month, 1...12.
  public var month: Int { Int(packedMonth) }
  /// The day of the month, 1...31.
  public var day: Int { Int(packedDay) }

  /// Creates the day with the given year, month and day of the month.
  ///
  /// - Parameters:
  ///   - year: 1...9999.
  ///   - month: 1...12.
  ///   - day: 1 through the number of days of that month (29 February only in leap years).
  /// - Throws: ``UsageModelError/invalidDate(year:month:day:)`` when no such date exists.
  public init(year: Int, month: Int, day: Int) throws(UsageModelError) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
    else { throw .invalidDate(year: year, month: month, day: day) }
    self.init(
      uncheckedDayNumber: CivilCalendar.dayNumber(year: year, month: month, day: day),
      year: year, month: month, day: day)
  }

  /// Creates the day with the given day number.
  ///
  /// - Parameter dayNumber: Days since 1970-01-01, within ``supportedDayNumbers``.
  /// - Throws: ``UsageModelError/dayNumberOutOfRange(dayNumber:range:)``.
  public init(dayNumber: Int) throws(UsageModelError) {
    guard Self.supportedDayNumbers.contains(dayNumber) else {
      throw .dayNumberOutOfRange(dayNumber: dayNumber, range: Self.supportedDayNumbers)
    }
    self.init(uncheckedDayNumber: dayNumber)
  }

  /// Parses the form `yyyy-MM-dd`, exactly: four, two and two ASCII digits.
  ///
  /// - Parameter text: For example `"2026-01-02"`.
  /// - Throws: ``UsageModelError/malformedText(text:expected:)`` for any other shape, and
  ///   ``UsageModelError/invalidDate(year:month:day:)`` for a date that does not exist.
  public init(parsing text: String) throws(UsageModelError) {
    var scanner = DigitScanner(text)
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2), scanner.isAtEnd
    else { throw .malformedText(text: text, expected: "yyyy-MM-dd") }
    try self.init(year: year, month: month, day: day)
  }

  package init(uncheckedDayNumber dayNumber: Int) {
    let (year, month, day) = CivilCalendar.civil(dayNumber: dayNumber)
    self.init(uncheckedDayNumber: dayNumber, year: year, month: month, day: day)
  }

  private init(uncheckedDayNumber dayNumber: Int, year: Int, month: Int, day: Int) {
    self.dayNumber = dayNumber
    self.packedYear = Int16(year)
    self.packedMonth = UInt8(month)
    self.packedDay = UInt8(day)
  }

  // MARK: - Arithmetic

  /// The day `days` days later (earlier when negative).
  ///
  /// Like integer arithmetic that overflows, stepping outside 0001-01-01...9999-12-31 is a
  /// programming error and stops the program; validate untrusted day counts first.
  ///
  /// - Parameter days: The number of days to move.
  /// - Returns: The day reached.
  public func advanced(by days: Int) -> LocalDay {
    let target = dayNumber + days
    precondition(Self.supportedDayNumbers.contains(target), "LocalDay out of 0001...9999")
    return LocalDay(uncheckedDayNumber: target)
  }

  /// The number of days from this day to `other` (negative when `other` is earlier).
  ///
  /// - Parameter other: Another day.
  /// - Returns: `other.dayNumber - dayNumber`.
  public func distance(to other: LocalDay) -> Int { other.dayNumber - dayNumber }

  /// Whether `lhs` is an earlier day than `rhs`.
  public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.dayNumber < rhs.dayNumber }

  /// Whether both name the same day.
  public static func == (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.dayNumber == rhs.dayNumber }

  /// Hashes the day number.
  public func hash(into hasher: inout Hasher) { hasher.combine(dayNumber) }

  // MARK: - Text and Codable

  /// The form `yyyy-MM-dd`, for example `2026-01-02`.
  public var description: String {
    Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
  }

  /// Decodes the string form `"yyyy-MM-dd"`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` naming the coding path when the text is not a date.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText { try Self(parsing: $0) }
  }

  /// Encodes the string form `"yyyy-MM-dd"`.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
