import Foundation
import UsageModel

/// The stretch of local days a budget's amount covers: a day, a week, or a calendar month.
///
/// Weeks start on a configurable weekday: ``isoWeek`` starts on Monday as ISO 8601 does; a US
/// app may prefer `.week(firstWeekday: .sunday)`. Months are calendar months of 28 to 31 days.
/// Periods are made of local days (``/UsageModel/LocalDay``), so a period's real length follows its
/// days: a month with a spring-forward day is an hour shorter.
///
/// JSON form: `{"kind": "day"}`, `{"kind": "week", "firstWeekday": 1}` (ISO weekday number,
/// Monday = 1) or `{"kind": "month"}`.
public enum BudgetPeriod: Sendable, Hashable, Codable, CustomStringConvertible {
  /// One local day.
  case day
  /// Seven local days starting on `firstWeekday`.
  case week(firstWeekday: Weekday)
  /// A calendar month.
  case month

  /// The ISO week: seven days starting on Monday.
  public static let isoWeek = BudgetPeriod.week(firstWeekday: .monday)

  /// The days of the period that contains `day`.
  ///
  /// A week that would reach outside the supported days (before 0001-01-01 or after
  /// 9999-12-31) is cut to them, so that every day has a period.
  ///
  /// - Parameter day: Any day.
  /// - Returns: The first through the last day of its period.
  public func days(containing day: LocalDay) -> ClosedRange<LocalDay> {
    switch self {
    case .day:
      return day...day
    case .week(let firstWeekday):
      // The first and last weeks of the supported days are cut to them, rather than stepping
      // outside 0001-01-01...9999-12-31.
      let supported = LocalDay.supportedDayNumbers
      let offset = (day.weekday.rawValue - firstWeekday.rawValue + 7) % 7
      let first = max(day.dayNumber - offset, supported.lowerBound)
      let last = min(day.dayNumber - offset + 6, supported.upperBound)
      return day.advanced(by: first - day.dayNumber)...day.advanced(by: last - day.dayNumber)
    case .month:
      return day.firstDayOfMonth...day.lastDayOfMonth
    }
  }

  /// The instants the period containing `day` covers, from its first day's start to the start
  /// of the day after its last.
  ///
  /// The ends are rounded to the millisecond; ``length(containing:boundary:)`` gives the exact
  /// length.
  ///
  /// - Parameters:
  ///   - day: Any day of the period.
  ///   - boundary: Where local days begin and end.
  /// - Returns: The period as an interval of instants.
  public func interval(containing day: LocalDay, boundary: DayBoundary) -> DateInterval {
    let (start, end) = instants(containing: day, boundary: boundary)
    return DateInterval(start: Milliseconds.date(start), end: Milliseconds.date(end))
  }

  /// The real length of the period containing `day`: the sum of its days' lengths.
  ///
  /// A month with a spring-forward day is an hour shorter than its days × 24 hours, a week with
  /// a fall-back day an hour longer.
  ///
  /// - Parameters:
  ///   - day: Any day of the period.
  ///   - boundary: Where local days begin and end.
  /// - Returns: The exact length of ``interval(containing:boundary:)``, a whole number of
  ///   milliseconds.
  public func length(containing day: LocalDay, boundary: DayBoundary) -> Duration {
    let (start, end) = instants(containing: day, boundary: boundary)
    return Milliseconds.duration(end - start)
  }

  /// The start of the period's first day and the start of the day after its last.
  private func instants(containing day: LocalDay, boundary: DayBoundary) -> (Int64, Int64) {
    let days = days(containing: day)
    return (
      boundary.startInstant(ofDayNumber: days.lowerBound.dayNumber),
      boundary.startInstant(ofDayNumber: days.upperBound.dayNumber + 1)
    )
  }

  /// `day`, `week(starting Monday)` or `month`.
  public var description: String {
    switch self {
    case .day: return "day"
    case .week(let firstWeekday): return "week(starting \(firstWeekday))"
    case .month: return "month"
    }
  }

  private enum CodingKeys: String, CodingKey {
    case kind, firstWeekday
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for an unknown kind or a week without a valid first weekday.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .kind) {
    case "day": self = .day
    case "month": self = .month
    case "week":
      self = .week(firstWeekday: try container.decode(Weekday.self, forKey: .firstWeekday))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container,
        debugDescription:
          "unknown period kind \(other.debugDescription); expected day, week or month")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .day:
      try container.encode("day", forKey: .kind)
    case .week(let firstWeekday):
      try container.encode("week", forKey: .kind)
      try container.encode(firstWeekday, forKey: .firstWeekday)
    case .month:
      try container.encode("month", forKey: .kind)
    }
  }
}
