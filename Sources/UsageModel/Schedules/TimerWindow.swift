import Foundation

/// A one-off window "from this instant for N minutes", which keeps its dates.
///
/// A window started at 23:50 for 30 minutes ends at 00:20 *on the next day*; ``localEnd(in:)``
/// says so, with the date, so a schedule built from it cannot lose its day (an hour and minute
/// alone would describe 00:20 on the starting date, 23.5 hours earlier).
///
/// ```swift
/// let focus = try TimerWindow(start: now, duration: .seconds(30 * 60))
/// let schedule = (focus.localStart(in: zone).dateComponents, focus.localEnd(in: zone).dateComponents)
/// ```
///
/// JSON form: `{"start": "2026-01-02T04:50:00Z", "durationMs": 1800000}`.
public struct TimerWindow: Sendable, Hashable, Codable {
  let startInstant: Int64
  let endInstant: Int64

  /// Creates a window.
  ///
  /// - Parameters:
  ///   - start: When the window starts, rounded to the millisecond.
  ///   - duration: How long it lasts: more than zero, rounded to the millisecond.
  /// - Throws: ``UsageModelError/invalidDuration(field:value:reason:)`` for a duration that is
  ///   not positive, ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` for an
  ///   instant out of range.
  public init(start: Date, duration: Duration) throws(UsageModelError) {
    guard duration > .zero, let amount = Milliseconds.amount(duration), amount > 0 else {
      throw .invalidDuration(
        field: "duration", value: "\(duration)", reason: "a timer must last more than zero")
    }
    let startInstant = try Milliseconds.instant(start, field: "start")
    let (endInstant, overflow) = startInstant.addingReportingOverflow(amount)
    guard !overflow, endInstant <= Milliseconds.latest else {
      throw .instantOutOfRange(
        field: "end", secondsSince1970: start.timeIntervalSince1970 + Double(amount) / 1000)
    }
    self.startInstant = startInstant
    self.endInstant = endInstant
  }

  /// When the window starts.
  public var start: Date { Milliseconds.date(startInstant) }
  /// When the window ends.
  public var end: Date { Milliseconds.date(endInstant) }
  /// How long it lasts, exactly: a whole number of milliseconds.
  public var duration: Duration { Milliseconds.duration(endInstant - startInstant) }
  /// The window's interval, its ends rounded to the millisecond; ``duration`` is its exact
  /// length.
  public var interval: DateInterval { DateInterval(start: start, end: end) }

  /// Whether `date` lies in the window (start included, end excluded).
  ///
  /// - Parameter date: An instant.
  /// - Returns: `true` inside the window.
  public func contains(_ date: Date) -> Bool {
    guard let instant = Milliseconds.instant(date) else { return false }
    return startInstant <= instant && instant < endInstant
  }

  /// The wall-clock date and time at which the window starts, in `timeZone`.
  ///
  /// - Parameter timeZone: The zone of the wall clock.
  /// - Returns: The local start, with its date.
  public func localStart(in timeZone: TimeZone) -> LocalDateTime {
    Self.localDateTime(of: startInstant, in: timeZone)
  }

  /// The wall-clock date and time at which the window ends, in `timeZone`, on the right date
  /// even when the window crosses midnight.
  ///
  /// - Parameter timeZone: The zone of the wall clock.
  /// - Returns: The local end, with its date.
  public func localEnd(in timeZone: TimeZone) -> LocalDateTime {
    Self.localDateTime(of: endInstant, in: timeZone)
  }

  static func localDateTime(of instant: Int64, in timeZone: TimeZone) -> LocalDateTime {
    let wall = ZoneClock(timeZone: timeZone).wall(at: instant)
    let dayNumber = Int(CivilCalendar.floorDivide(wall, CivilCalendar.millisecondsPerDay))
    let seconds = Int(CivilCalendar.floorModulo(wall, CivilCalendar.millisecondsPerDay) / 1000)
    return LocalDateTime(
      day: LocalDay(uncheckedDayNumber: dayNumber),
      time: TimeOfDay(uncheckedSecondsSinceMidnight: seconds))
  }

  private enum CodingKeys: String, CodingKey {
    case start
    case durationMs
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let start = try container.decodeInstant(forKey: .start)
    let duration = try container.decodeMilliseconds(forKey: .durationMs)
    do {
      try self.init(start: Milliseconds.date(start), duration: duration)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .durationMs, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeMilliseconds(duration, forKey: .durationMs)
  }
}
