import Foundation

/// Local-calendar arithmetic on instants held as whole seconds since 1970.
package enum LocalClock {
  /// The Gregorian calendar in a zone.
  ///
  /// - Parameter zone: The zone to read days in.
  /// - Returns: A Gregorian calendar in `zone`.
  package static func calendar(_ zone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar
  }

  /// The date of an instant in seconds since 1970.
  ///
  /// - Parameter instant: Seconds since 1970.
  /// - Returns: The same instant as a `Date`.
  package static func date(_ instant: Int) -> Date {
    Date(timeIntervalSince1970: TimeInterval(instant))
  }

  /// The seconds since 1970 of a date, rounded down.
  ///
  /// - Parameter date: Any date.
  /// - Returns: Whole seconds since 1970.
  package static func seconds(_ date: Date) -> Int {
    Int(date.timeIntervalSince1970.rounded(.down))
  }

  /// The first local midnight strictly after an instant.
  ///
  /// - Parameters:
  ///   - instant: Seconds since 1970.
  ///   - zone: The zone whose midnight is meant.
  /// - Returns: Seconds since 1970 of the next midnight.
  package static func nextMidnight(after instant: Int, in zone: TimeZone) -> Int {
    let calendar = calendar(zone)
    let day = calendar.startOfDay(for: date(instant))
    let next = calendar.date(byAdding: .day, value: 1, to: day) ?? date(instant + 86_400)
    return seconds(next)
  }

  /// The local midnight that begins a day.
  ///
  /// - Parameters:
  ///   - day: `yyyy-MM-dd`.
  ///   - zone: The zone the day is read in.
  /// - Returns: Seconds since 1970 of the day's first instant, or `nil` for a malformed day.
  package static func midnight(of day: String, in zone: TimeZone) -> Int? {
    instant(day + "T00:00:00", in: zone)
  }

  /// A local wall-clock time read in a zone.
  ///
  /// - Parameters:
  ///   - local: `yyyy-MM-ddTHH:mm:ss`.
  ///   - zone: The zone the time is read in.
  /// - Returns: Seconds since 1970, or `nil` for a malformed or skipped time.
  package static func instant(_ local: String, in zone: TimeZone) -> Int? {
    let parts = local.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
    guard parts.count == 6 else { return nil }
    let components = DateComponents(
      year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
      second: parts[5])
    return calendar(zone).date(from: components).map(seconds)
  }

  /// The local day of an instant.
  ///
  /// - Parameters:
  ///   - instant: Seconds since 1970.
  ///   - zone: The zone the day is read in.
  /// - Returns: `yyyy-MM-dd`.
  package static func day(of instant: Int, in zone: TimeZone) -> String {
    let parts = calendar(zone).dateComponents([.year, .month, .day], from: date(instant))
    let year = parts.year ?? 0
    let month = parts.month ?? 0
    let day = parts.day ?? 0
    return String(format: "%04d-%02d-%02d", year, month, day)
  }
}
