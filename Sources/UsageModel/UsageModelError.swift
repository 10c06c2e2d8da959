import Foundation

/// Everything a UsageModel value can reject, with the context needed to fix the input.
///
/// Every initialiser and operation that validates input throws this type (typed throws); a call
/// that throws changes nothing. Decoding reports the same problems as a `DecodingError` whose
/// description includes this error's ``description``.
public enum UsageModelError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An app identifier is empty, too long, or contains a character outside printable ASCII.
  case invalidAppID(value: String, reason: String)
  /// A category raw value is not 1 to 64 characters of `a`-`z`, `0`-`9` and `_`.
  case invalidCategory(rawValue: String, reason: String)
  /// A categorisation rule has an empty or otherwise unusable match value.
  case invalidCategoryRule(value: String, reason: String)

  /// The numbers do not name a date between 0001-01-01 and 9999-12-31 (for example 2026-02-30).
  case invalidDate(year: Int, month: Int, day: Int)
  /// A day number is outside the supported range of ``LocalDay``.
  case dayNumberOutOfRange(dayNumber: Int, range: ClosedRange<Int>)
  /// A month is outside 0001-01...9999-12.
  case invalidMonth(year: Int, month: Int)
  /// An ISO week does not exist (week 53 of a 52-week year, or week 0), or it has a day outside
  /// the supported days (9999-W52).
  case invalidISOWeek(year: Int, week: Int)
  /// A time of day is outside 00:00:00...23:59:59.
  case invalidTimeOfDay(hour: Int, minute: Int, second: Int)
  /// Text does not have the expected fixed format; `expected` shows it.
  case malformedText(text: String, expected: String)
  /// An instant is not finite or lies outside 0001-01-03...9999-12-29 (UTC).
  case instantOutOfRange(field: String, secondsSince1970: Double)
  /// A time-zone identifier is not known to Foundation.
  case unknownTimeZone(identifier: String)
  /// A time-zone identifier is an abbreviation or a legacy name (`"PST"`, `"EST"`, `"Japan"`),
  /// or a fixed offset that is not whole minutes, which Apple platforms and Linux may read as
  /// different rules; such a zone is never stored (see ``StoredTimeZone``).
  case unportableTimeZone(identifier: String)
  /// A day lies outside the days a ``DayBoundaryTable`` was built for.
  case dayOutsideTable(day: LocalDay, first: LocalDay, last: LocalDay)
  /// A list that holds one entry per key names a key twice: `field` is the list (`days` of a
  /// ``UsageReport``, `categories` or `apps` of a ``DailyUsage``), `value` the repeated key.
  case duplicateEntry(field: String, value: String)

  /// A record or window ends before it starts.
  case reversedInterval(start: Date, end: Date)
  /// A duration is negative, not a number, or too long; `field` names it.
  case invalidDuration(field: String, value: String, reason: String)

  /// A threshold-event name does not follow ``ThresholdEventName``'s format.
  case invalidEventName(name: String, reason: String)
  /// A threshold is not a whole number of seconds between 1 second and 7 days.
  case invalidThreshold(threshold: Duration, minimum: Duration, maximum: Duration)

  /// A daily window starts and ends at the same time of day, so its length is ambiguous.
  case emptyDailyWindow(at: TimeOfDay)
  /// A monitored activity's interval is shorter than the platform's minimum.
  case monitoringIntervalTooShort(activity: String, length: Duration, minimum: Duration)
  /// A monitored activity's interval is longer than the platform's maximum.
  case monitoringIntervalTooLong(activity: String, length: Duration, maximum: Duration)
  /// A plan monitors more activities than the platform allows at once.
  case tooManyActivities(count: Int, limit: Int)
  /// An activity's warning time is negative or longer than its interval.
  case warningTimeOutOfRange(activity: String, warningTime: Duration, limit: Duration)
  /// Two activities of one plan share a name.
  case duplicateActivityName(String)
  /// An activity name is empty.
  case emptyActivityName

  /// A retention keeps fewer than one day.
  case invalidRetention(days: Int)
  /// Two registrations of an activity contradict each other: the same generation twice, or a
  /// later registration with a lower generation.
  case conflictingRegistrations(activity: String, reason: String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidAppID(let value, let reason):
      return "Invalid app ID \(value.debugDescription): \(reason)."
    case .invalidCategory(let rawValue, let reason):
      return "Invalid category \(rawValue.debugDescription): \(reason)."
    case .invalidCategoryRule(let value, let reason):
      return "Invalid categorisation rule \(value.debugDescription): \(reason)."
    case .invalidDate(let year, let month, let day):
      return
        "\(year)-\(month)-\(day) is not a date; use a year in 1...9999, a month in 1...12 "
        + "and a day that exists in that month."
    case .dayNumberOutOfRange(let dayNumber, let range):
      return
        "Day number \(dayNumber) is outside \(range.lowerBound)...\(range.upperBound) "
        + "(0001-01-01...9999-12-31)."
    case .invalidMonth(let year, let month):
      return "\(year)-\(month) is not a month; use a year in 1...9999 and a month in 1...12."
    case .invalidISOWeek(let year, let week):
      return
        "ISO week \(week) of \(year) is not supported; a week-based year in 1...9999 has 52 or "
        + "53 weeks, and every day of the week must lie in 0001-01-01...9999-12-31, so the last "
        + "week is 9999-W51."
    case .invalidTimeOfDay(let hour, let minute, let second):
      return
        "\(hour):\(minute):\(second) is not a time of day; use hour 0...23, minute and second "
        + "0...59."
    case .malformedText(let text, let expected):
      return "\(text.debugDescription) is not in the form \(expected)."
    case .instantOutOfRange(let field, let seconds):
      return
        "\(field) is \(seconds) s since 1970, which is not finite or lies outside "
        + "0001-01-03...9999-12-29."
    case .unknownTimeZone(let identifier):
      return "Unknown time zone \(identifier.debugDescription); use an IANA identifier."
    case .unportableTimeZone(let identifier):
      return
        "Time zone \(identifier.debugDescription) is an abbreviation, a legacy name or an offset "
        + "of seconds, which Apple platforms and Linux may read as different rules; use an IANA "
        + "region identifier such as \"America/Los_Angeles\", \"GMT\", or a fixed offset of "
        + "whole minutes such as \"GMT-0800\"."
    case .dayOutsideTable(let day, let first, let last):
      return "\(day) is outside the table's days \(first)...\(last); build a larger table."
    case .duplicateEntry(let field, let value):
      return "\(field) lists \(value) twice; merge the two entries into one."
    case .reversedInterval(let start, let end):
      return
        "The interval ends (\(Milliseconds.describe(end))) before it starts "
        + "(\(Milliseconds.describe(start)))."
    case .invalidDuration(let field, let value, let reason):
      return "\(field) is \(value): \(reason)."
    case .invalidEventName(let name, let reason):
      return
        "Invalid threshold event name \(name.debugDescription): \(reason). "
        + "Expected \"stk:<threshold>:<app>\", for example \"stk:15m:com.example.app\"."
    case .invalidThreshold(let threshold, let minimum, let maximum):
      return
        "A threshold of \(threshold) is not a whole number of seconds in "
        + "\(minimum)...\(maximum)."
    case .emptyDailyWindow(let time):
      return
        "A daily window from \(time) to \(time) is ambiguous; use two different times of day."
    case .monitoringIntervalTooShort(let activity, let length, let minimum):
      return
        "Activity '\(activity)' lasts \(length), shorter than the platform minimum of "
        + "\(minimum)."
    case .monitoringIntervalTooLong(let activity, let length, let maximum):
      return
        "Activity '\(activity)' lasts \(length), longer than the platform maximum of "
        + "\(maximum)."
    case .tooManyActivities(let count, let limit):
      return "The plan monitors \(count) activities; the platform allows at most \(limit)."
    case .warningTimeOutOfRange(let activity, let warningTime, let limit):
      return
        "Activity '\(activity)' has a warning time of \(warningTime); it must be in "
        + "0 seconds...\(limit), the activity's interval."
    case .duplicateActivityName(let name):
      return "Two activities are named '\(name)'; activity names must be unique."
    case .emptyActivityName:
      return "An activity name must not be empty."
    case .invalidRetention(let days):
      return "A retention of \(days) days keeps nothing; keep at least 1 day."
    case .conflictingRegistrations(let activity, let reason):
      return "The registrations of activity '\(activity)' conflict: \(reason). Give each "
        + "registration of an activity a new, higher generation."
    }
  }
}
