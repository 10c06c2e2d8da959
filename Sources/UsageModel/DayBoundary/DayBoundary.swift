import Foundation

/// Where local days begin and end in one time zone: at midnight, or at a later time of day.
///
/// A day's interval runs from its local start to the next day's local start, so days tile the
/// timeline with no gap and no overlap, and a day lasts as long as it really does: 23 or 25
/// hours when clocks change, 23.5 or 24.5 on Lord Howe Island.
///
/// ```swift
/// let newYork = DayBoundary(timeZone: zone)
/// let day = try LocalDay(parsing: "2026-03-08")
/// newYork.interval(of: day)      // 05:00Z to 04:00Z the next day
/// newYork.length(of: day)        // 23 hours, exactly
/// let lateNight = DayBoundary(timeZone: zone, dayStart: try TimeOfDay(hour: 4))
/// try lateNight.day(containing: someInstantAt2AM)   // the previous day, as a time tracker counts
/// ```
///
/// **Which instant starts a day.** A day `D` starts at the first instant at which the local
/// clock shows `D` at ``dayStart`` or later:
/// - when that reading does not exist (it falls in a daylight-saving gap), the day starts when
///   the gap ends — for a midnight start, the `01:00` that follows a skipped midnight, exactly
///   as Foundation's `Calendar.startOfDay(for:)`;
/// - when it exists twice (clocks went back), the day starts at the first occurrence, and the
///   repeated hour belongs to the new day even where the clock shows the previous date again.
///
/// Offsets and their changes come from Foundation's `TimeZone`; no `Calendar` is used, and no
/// clock is read. ``table(for:)`` precomputes the boundaries of many days at once for bulk work.
///
/// JSON form: `{"timeZone": "America/New_York", "dayStart": "04:00"}`.
public struct DayBoundary: Sendable, Hashable, Codable {
  /// The time zone whose wall clock defines the days.
  public let timeZone: TimeZone
  /// The wall-clock time at which each day begins; midnight unless you choose otherwise.
  public let dayStart: TimeOfDay

  /// Creates the day boundary of a time zone.
  ///
  /// - Parameters:
  ///   - timeZone: The time zone whose wall clock defines the days.
  ///   - dayStart: The time of day at which days begin, for example 04:00 for a time tracker
  ///     that counts late nights towards the previous day.
  public init(timeZone: TimeZone, dayStart: TimeOfDay = .midnight) {
    self.timeZone = timeZone
    self.dayStart = dayStart
  }

  /// Creates the day boundary of a time zone named by its IANA identifier.
  ///
  /// The identifier is read as ``StoredTimeZone`` reads stored ones: a region identifier,
  /// `"GMT"`/`"UTC"` or a fixed offset such as `"GMT+0100"`; abbreviations are refused.
  ///
  /// - Parameters:
  ///   - identifier: An identifier such as `"America/New_York"`.
  ///   - dayStart: The time of day at which days begin.
  /// - Throws: ``UsageModelError/unknownTimeZone(identifier:)``, or
  ///   ``UsageModelError/unportableTimeZone(identifier:)`` for an abbreviation such as `"PST"`.
  public init(timeZoneIdentifier identifier: String, dayStart: TimeOfDay = .midnight)
    throws(UsageModelError)
  {
    self.init(timeZone: try StoredTimeZone.timeZone(identifier: identifier), dayStart: dayStart)
  }

  var clock: ZoneClock { ZoneClock(timeZone: timeZone) }

  /// The wall reading, in local milliseconds since 1970, at which the day `dayNumber` starts.
  func wall(ofDayNumber dayNumber: Int) -> Int64 {
    Int64(dayNumber) * CivilCalendar.millisecondsPerDay + Int64(dayStart.secondsSinceMidnight)
      * 1000
  }

  /// The instant, in milliseconds since 1970, at which the day `dayNumber` starts; defined one
  /// day either side of the supported days, so that a day's end always exists.
  package func startInstant(ofDayNumber dayNumber: Int) -> Int64 {
    clock.firstInstant(reachingWall: wall(ofDayNumber: dayNumber))
  }

  // MARK: - One day

  /// The instant at which `day` starts.
  ///
  /// - Parameter day: A local day.
  /// - Returns: The first instant of the day.
  /// - Complexity: A few `TimeZone` calls; use ``table(for:)`` for many days.
  public func start(of day: LocalDay) -> Date {
    Milliseconds.date(startInstant(ofDayNumber: day.dayNumber))
  }

  /// The interval of `day`: from its start to the next day's start.
  ///
  /// The ends are rounded to the millisecond; ``length(of:)`` gives the exact length.
  ///
  /// - Parameter day: A local day.
  /// - Returns: The day's interval.
  /// - Complexity: A few `TimeZone` calls; use ``table(for:)`` for many days.
  public func interval(of day: LocalDay) -> DateInterval {
    let start = startInstant(ofDayNumber: day.dayNumber)
    let end = startInstant(ofDayNumber: day.dayNumber + 1)
    return DateInterval(
      start: Milliseconds.date(start), end: Milliseconds.date(end))
  }

  /// The real length of `day`: 24 hours on most days, 23 or 25 when clocks change.
  ///
  /// - Parameter day: A local day.
  /// - Returns: The exact length, a whole number of milliseconds.
  public func length(of day: LocalDay) -> Duration {
    Milliseconds.duration(
      startInstant(ofDayNumber: day.dayNumber + 1) - startInstant(ofDayNumber: day.dayNumber))
  }

  /// The local day that contains `date`.
  ///
  /// An instant exactly at a day's start belongs to that day, not to the previous one.
  ///
  /// - Parameter date: An instant, rounded to the millisecond.
  /// - Returns: The day whose interval contains it.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` when the date is not
  ///   finite or lies outside 0001-01-03...9999-12-29.
  public func day(containing date: Date) throws(UsageModelError) -> LocalDay {
    let instant = try Milliseconds.instant(date, field: "date")
    return LocalDay(uncheckedDayNumber: dayNumber(containing: instant))
  }

  /// The local day that contains `instant`, in milliseconds since 1970, which the caller has
  /// clamped into the supported instants (whose days all exist).
  package func day(containingSupported instant: Int64) -> LocalDay {
    LocalDay(uncheckedDayNumber: dayNumber(containing: instant))
  }

  func dayNumber(containing instant: Int64) -> Int {
    let local = clock.wall(at: instant) - Int64(dayStart.secondsSinceMidnight) * 1000
    var dayNumber = Int(CivilCalendar.floorDivide(local, CivilCalendar.millisecondsPerDay))
    while startInstant(ofDayNumber: dayNumber) > instant { dayNumber -= 1 }
    while startInstant(ofDayNumber: dayNumber + 1) <= instant { dayNumber += 1 }
    return dayNumber
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case timeZone
    case dayStart
  }

  /// Decodes `{"timeZone": "<IANA identifier>", "dayStart": "HH:mm"}`; `dayStart` may be absent
  /// (midnight).
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing, unknown or unportable time zone (see
  ///   ``StoredTimeZone``) or a bad time of day.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let timeZone = try container.decodeTimeZone(forKey: .timeZone)
    let dayStart = try container.decodeIfPresent(TimeOfDay.self, forKey: .dayStart)
    self.init(timeZone: timeZone, dayStart: dayStart ?? .midnight)
  }

  /// Encodes the time zone's identifier, as ``StoredTimeZone`` writes it, and the day start.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` for a zone named by an abbreviation (see ``StoredTimeZone``), and
  ///   what the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeTimeZone(timeZone, forKey: .timeZone)
    try container.encode(dayStart, forKey: .dayStart)
  }
}
