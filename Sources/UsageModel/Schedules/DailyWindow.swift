import Foundation

/// A window that recurs every day from one time of day to another, possibly across midnight.
///
/// A window from 21:00 to 07:00 starts on one date and ends on the next; a window from 09:00 to
/// 17:00 starts and ends on the same date. Start and end must differ.
///
/// **Turning a window into instants.** The occurrence that starts on date `D` runs from the
/// first instant at which the local clock shows `D` at ``start`` or later, to the first instant
/// at which it shows the end date at ``end`` or later — the same rule as ``DayBoundary``:
/// - a time skipped by a daylight-saving gap resolves to the end of the gap, so a window from
///   02:00 to 03:00 on a spring-forward night is empty, and one from 01:30 to 02:30 ends at
///   03:00 after 30 minutes;
/// - a time that happens twice resolves to its first occurrence, so a window from 01:00 to 01:30
///   on a fall-back night lasts 30 minutes, during the first pass through that half hour.
///
/// ```swift
/// let bedtime = try DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7))
/// bedtime.contains(now, in: zone)
/// bedtime.nextOccurrence(after: now, in: zone)               // a DateInterval
/// bedtime.length(ofNextOccurrenceAfter: now, in: zone)       // its exact length, a Duration
/// ```
///
/// JSON form: `{"start": "21:00", "end": "07:00"}`.
public struct DailyWindow: Sendable, Hashable, Codable {
  /// When each occurrence starts.
  public let start: TimeOfDay
  /// When each occurrence ends; on the next date when not after ``start``.
  public let end: TimeOfDay

  /// Creates a daily window.
  ///
  /// - Parameters:
  ///   - start: When each occurrence starts.
  ///   - end: When it ends; a time not after `start` ends on the next date.
  /// - Throws: ``UsageModelError/emptyDailyWindow(at:)`` when `start == end`.
  public init(start: TimeOfDay, end: TimeOfDay) throws(UsageModelError) {
    guard start != end else { throw .emptyDailyWindow(at: start) }
    self.start = start
    self.end = end
  }

  /// Whether an occurrence ends on the date after it starts.
  public var crossesMidnight: Bool { end < start }

  /// The wall-clock length of the window, ignoring clock changes: 21:00 to 07:00 is 10 hours.
  public var nominalLength: Duration {
    let seconds = end.secondsSinceMidnight - start.secondsSinceMidnight
    return .seconds(crossesMidnight ? seconds + 86_400 : seconds)
  }

  /// The occurrence that starts on `day`, in `timeZone`.
  ///
  /// Its ends are rounded to the millisecond; ``length(ofOccurrenceStartingOn:in:)`` gives its
  /// exact length.
  ///
  /// - Parameters:
  ///   - day: The date on which the occurrence starts.
  ///   - timeZone: The zone of the wall clock.
  /// - Returns: Its interval; empty when both ends fall in the same daylight-saving gap.
  public func occurrence(startingOn day: LocalDay, in timeZone: TimeZone) -> DateInterval {
    Self.interval(
      instants(startingOnDayNumber: day.dayNumber, clock: ZoneClock(timeZone: timeZone)))
  }

  /// The exact length of the occurrence that starts on `day`, in `timeZone`.
  ///
  /// The wall-clock length (``nominalLength``) adjusted for any clock change inside the
  /// occurrence: a 21:00–07:00 window lasts 9 hours across a spring-forward night and 11 across
  /// a fall-back night.
  ///
  /// - Parameters:
  ///   - day: The date on which the occurrence starts.
  ///   - timeZone: The zone of the wall clock.
  /// - Returns: The length of ``occurrence(startingOn:in:)``, a whole number of milliseconds;
  ///   zero when both ends fall in the same daylight-saving gap.
  public func length(ofOccurrenceStartingOn day: LocalDay, in timeZone: TimeZone) -> Duration {
    Self.length(instants(startingOnDayNumber: day.dayNumber, clock: ZoneClock(timeZone: timeZone)))
  }

  /// The occurrence that contains `date`, if any.
  ///
  /// Its ends are rounded to the millisecond; ``length(ofOccurrenceContaining:in:)`` gives its
  /// exact length.
  ///
  /// - Parameters:
  ///   - date: An instant.
  ///   - timeZone: The zone of the wall clock.
  /// - Returns: The occurrence whose half-open interval `[start, end)` contains `date`.
  public func occurrence(containing date: Date, in timeZone: TimeZone) -> DateInterval? {
    instants(containing: date, clock: ZoneClock(timeZone: timeZone)).map(Self.interval)
  }

  /// The exact length of the occurrence that contains `date`, if any.
  ///
  /// A non-empty occurrence contains its own start, so
  /// `length(ofOccurrenceContaining: occurrence.start, in: timeZone)` is the exact length of
  /// each result of ``occurrences(overlapping:in:)``.
  ///
  /// - Parameters:
  ///   - date: An instant.
  ///   - timeZone: The zone of the wall clock.
  /// - Returns: The length of ``occurrence(containing:in:)``, a whole number of milliseconds, or
  ///   `nil` when no occurrence contains `date`.
  public func length(ofOccurrenceContaining date: Date, in timeZone: TimeZone) -> Duration? {
    instants(containing: date, clock: ZoneClock(timeZone: timeZone)).map(Self.length)
  }

  /// Whether `date` lies inside an occurrence of the window.
  ///
  /// - Parameters:
  ///   - date: An instant.
  ///   - timeZone: The zone of the wall clock.
  /// - Returns: `true` when an occurrence contains it (start included, end excluded).
  public func contains(_ date: Date, in timeZone: TimeZone) -> Bool {
    instants(containing: date, clock: ZoneClock(timeZone: timeZone)) != nil
  }

  /// The first non-empty occurrence that starts strictly after `date`.
  ///
  /// Its ends are rounded to the millisecond; ``length(ofNextOccurrenceAfter:in:)`` gives its
  /// exact length.
  ///
  /// - Parameters:
  ///   - date: An instant.
  ///   - timeZone: The zone of the wall clock.
  /// - Returns: The next occurrence, or `nil` only past the supported range of days.
  public func nextOccurrence(after date: Date, in timeZone: TimeZone) -> DateInterval? {
    instants(startingAfter: date, clock: ZoneClock(timeZone: timeZone)).map(Self.interval)
  }

  /// The exact length of the first non-empty occurrence that starts strictly after `date`.
  ///
  /// - Parameters:
  ///   - date: An instant.
  ///   - timeZone: The zone of the wall clock.
  /// - Returns: The length of ``nextOccurrence(after:in:)``, a whole number of milliseconds, or
  ///   `nil` only past the supported range of days.
  public func length(ofNextOccurrenceAfter date: Date, in timeZone: TimeZone) -> Duration? {
    instants(startingAfter: date, clock: ZoneClock(timeZone: timeZone)).map(Self.length)
  }

  /// The non-empty occurrences that overlap `interval`, whole (not clipped), in order.
  ///
  /// Use it to find where tracking was expected within a period; intersect each result with
  /// `interval` to clip it. The ends are rounded to the millisecond; for the exact length of an
  /// occurrence, ask ``length(ofOccurrenceContaining:in:)`` about its start.
  ///
  /// A bound beyond the supported instants (such as `Date.distantPast` or an infinite date)
  /// counts as the nearest supported instant, 0001-01-03 or 9999-12-29; an interval with a bound
  /// that is not a number overlaps nothing.
  ///
  /// - Parameters:
  ///   - interval: A period.
  ///   - timeZone: The zone of the wall clock.
  /// - Returns: Every occurrence sharing some time with `interval`.
  /// - Complexity: O(*d*) for a period of *d* days: a century is 36,525 occurrences, and the
  ///   whole supported range 3.65 million (seconds of work, tens of megabytes); pass the
  ///   period you need.
  public func occurrences(overlapping interval: DateInterval, in timeZone: TimeZone)
    -> [DateInterval]
  {
    guard !interval.start.timeIntervalSince1970.isNaN, !interval.end.timeIntervalSince1970.isNaN
    else { return [] }
    let first = Milliseconds.clampedInstant(interval.start)
    let last = Milliseconds.clampedInstant(interval.end)
    let clock = ZoneClock(timeZone: timeZone)
    let firstDay =
      Int(CivilCalendar.floorDivide(clock.wall(at: first), CivilCalendar.millisecondsPerDay)) - 2
    let lastDay =
      Int(CivilCalendar.floorDivide(clock.wall(at: last), CivilCalendar.millisecondsPerDay)) + 1
    var result: [DateInterval] = []
    for dayNumber in firstDay...lastDay {
      let (start, end) = instants(startingOnDayNumber: dayNumber, clock: clock)
      let overlaps = end > start && start < last && end > first
      let touchesEmptyInterval = first == last && start <= first && first < end
      if overlaps || touchesEmptyInterval {
        result.append(Self.interval((start, end)))
      }
    }
    return result
  }

  // MARK: - Instants

  private func instants(containing date: Date, clock: ZoneClock) -> (Int64, Int64)? {
    guard let instant = Milliseconds.instant(date) else { return nil }
    let today = Int(
      CivilCalendar.floorDivide(clock.wall(at: instant), CivilCalendar.millisecondsPerDay))
    for dayNumber in (today - 2)...(today + 1) {
      let (start, end) = instants(startingOnDayNumber: dayNumber, clock: clock)
      if start <= instant, instant < end { return (start, end) }
    }
    return nil
  }

  private func instants(startingAfter date: Date, clock: ZoneClock) -> (Int64, Int64)? {
    guard let instant = Milliseconds.instant(date) else { return nil }
    var dayNumber =
      Int(CivilCalendar.floorDivide(clock.wall(at: instant), CivilCalendar.millisecondsPerDay)) - 1
    while dayNumber < LocalDay.supportedDayNumbers.upperBound {
      let (start, end) = instants(startingOnDayNumber: dayNumber, clock: clock)
      if start > instant, end > start { return (start, end) }
      dayNumber += 1
    }
    return nil
  }

  private static func interval(_ instants: (start: Int64, end: Int64)) -> DateInterval {
    DateInterval(start: Milliseconds.date(instants.start), end: Milliseconds.date(instants.end))
  }

  private static func length(_ instants: (start: Int64, end: Int64)) -> Duration {
    Milliseconds.duration(instants.end - instants.start)
  }

  private func instants(startingOnDayNumber dayNumber: Int, clock: ZoneClock) -> (Int64, Int64) {
    let startWall =
      Int64(dayNumber) * CivilCalendar.millisecondsPerDay
      + Int64(start.secondsSinceMidnight) * 1000
    let endWall =
      Int64(crossesMidnight ? dayNumber + 1 : dayNumber) * CivilCalendar.millisecondsPerDay
      + Int64(end.secondsSinceMidnight) * 1000
    let startInstant = clock.firstInstant(reachingWall: startWall)
    return (startInstant, max(startInstant, clock.firstInstant(reachingWall: endWall)))
  }

  private enum CodingKeys: String, CodingKey {
    case start
    case end
  }

  /// Decodes `{"start": "HH:mm", "end": "HH:mm"}`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also for equal times.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let start = try container.decode(TimeOfDay.self, forKey: .start)
    let end = try container.decode(TimeOfDay.self, forKey: .end)
    do {
      try self.init(start: start, end: end)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container, debugDescription: error.description)
    }
  }
}
