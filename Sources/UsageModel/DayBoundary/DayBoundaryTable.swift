import Foundation

/// The precomputed boundaries of a range of consecutive local days, for bulk work.
///
/// Building the table resolves each day's start once, walking the zone's offset changes in
/// step with the days, so a year of days costs a few hundred `TimeZone` calls and no `Calendar`
/// call at all. After that, finding the day of an instant is O(1) integer arithmetic, which is
/// what bucketing a million records needs.
///
/// ```swift
/// let table = boundary.table(for: firstDay...lastDay)
/// for instant in instants {
///   if let day = table.day(containing: instant) { counts[day, default: 0] += 1 }
/// }
/// ```
public struct DayBoundaryTable: Sendable, Hashable {
  /// The boundary whose days the table holds.
  public let boundary: DayBoundary
  /// The days the table holds, in order.
  public let days: ClosedRange<LocalDay>
  /// `days.count + 1` instants: the start of each day, then the end of the last day.
  let starts: [Int64]

  /// Builds the table of `days`.
  ///
  /// - Parameters:
  ///   - boundary: Where days start.
  ///   - days: The days to hold.
  /// - Complexity: O(*d* + *t*): *d* days, *t* offset changes of the zone over them.
  public init(boundary: DayBoundary, days: ClosedRange<LocalDay>) {
    self.boundary = boundary
    self.days = days
    let first = days.lowerBound.dayNumber
    let last = days.upperBound.dayNumber + 1
    let segments = boundary.clock.segments(
      from: boundary.wall(ofDayNumber: first) - ZoneClock.margin,
      through: boundary.wall(ofDayNumber: last) + ZoneClock.margin)
    var cursor = 0
    var starts: [Int64] = []
    starts.reserveCapacity(last - first + 1)
    for dayNumber in first...last {
      starts.append(
        ZoneClock.firstInstant(
          reachingWall: boundary.wall(ofDayNumber: dayNumber), in: segments, cursor: &cursor))
    }
    self.starts = starts
  }

  /// The interval of `day`, from its start to the next day's start.
  ///
  /// The ends are rounded to the millisecond; ``length(of:)`` gives the exact length.
  ///
  /// - Parameter day: A day of ``days``.
  /// - Returns: The day's interval.
  /// - Throws: ``UsageModelError/dayOutsideTable(day:first:last:)``.
  public func interval(of day: LocalDay) throws(UsageModelError) -> DateInterval {
    let index = try index(of: day)
    return DateInterval(
      start: Milliseconds.date(starts[index]), end: Milliseconds.date(starts[index + 1]))
  }

  /// The real length of `day`.
  ///
  /// - Parameter day: A day of ``days``.
  /// - Returns: The exact length.
  /// - Throws: ``UsageModelError/dayOutsideTable(day:first:last:)``.
  public func length(of day: LocalDay) throws(UsageModelError) -> Duration {
    let index = try index(of: day)
    return Milliseconds.duration(starts[index + 1] - starts[index])
  }

  /// The day of the table that contains `date`, or `nil` when the date is outside every day of
  /// the table (or not finite).
  ///
  /// - Parameter date: An instant, rounded to the millisecond.
  /// - Returns: The day whose interval contains the instant.
  public func day(containing date: Date) -> LocalDay? {
    guard let instant = Milliseconds.instant(date), let index = index(containing: instant) else {
      return nil
    }
    return days.lowerBound.advanced(by: index)
  }

  // MARK: - Fast paths for this module

  private func index(of day: LocalDay) throws(UsageModelError) -> Int {
    guard days.contains(day) else {
      throw .dayOutsideTable(day: day, first: days.lowerBound, last: days.upperBound)
    }
    return days.lowerBound.distance(to: day)
  }

  /// The index of the day containing `instant`, in O(1): a guess from 24-hour days, corrected
  /// by the few steps that offset changes can account for.
  func index(containing instant: Int64) -> Int? {
    guard let first = starts.first, let end = starts.last, instant >= first, instant < end else {
      return nil
    }
    var index = min(Int((instant - first) / CivilCalendar.millisecondsPerDay), starts.count - 2)
    while starts[index] > instant { index -= 1 }
    while starts[index + 1] <= instant { index += 1 }
    return index
  }

  /// The start of the day at `index`; `index == days.count` gives the end of the last day.
  func startInstant(at index: Int) -> Int64 { starts[index] }

  /// The number of days in the table.
  var count: Int { starts.count - 1 }
}

extension DayBoundary {
  /// Precomputes the boundaries of `days`.
  ///
  /// - Parameter days: The days to hold.
  /// - Returns: A table answering day-of-instant queries in O(1).
  /// - Complexity: O(*d* + *t*): *d* days, *t* offset changes over them.
  public func table(for days: ClosedRange<LocalDay>) -> DayBoundaryTable {
    DayBoundaryTable(boundary: self, days: days)
  }
}
