import ActivityPlanning
import Foundation
import UsageModel

extension ShieldSchedule {
  /// The end of the occurrence that contains `instant`, or `nil` when none does.
  ///
  /// An instant whose local day cannot be computed (outside the supported years) counts as
  /// inside an endless occurrence: a schedule never lifts on an error.
  func activeEnd(at instant: Date, in zone: TimeZone) -> ActiveEnd? {
    switch self {
    case .timer(_, let window):
      return window.contains(instant) ? .until(window.end) : nil
    case .daily(let scheduled):
      guard let today = Self.day(containing: instant, in: zone) else { return .unknown }
      for offset in -2...1 {
        // No occurrence begins outside the supported years (and `advanced(by:)` would trap),
        // as `nextBoundary(after:in:horizonDays:)` finds none there.
        guard LocalDay.supportedDayNumbers.contains(today.dayNumber + offset) else { continue }
        let day = today.advanced(by: offset)
        guard scheduled.weekdays.contains(day.weekday) else { continue }
        let occurrence = scheduled.window.occurrence(startingOn: day, in: zone)
        if occurrence.start <= instant, instant < occurrence.end { return .until(occurrence.end) }
      }
      return nil
    }
  }

  /// The first start or end of an occurrence strictly after `instant`, looking at most
  /// `horizonDays` days ahead for a daily window.
  func nextBoundary(after instant: Date, in zone: TimeZone, horizonDays: Int = 8) -> Date? {
    switch self {
    case .timer(_, let window):
      if window.start > instant { return window.start }
      return window.end > instant ? window.end : nil
    case .daily(let scheduled):
      guard let today = Self.day(containing: instant, in: zone) else { return nil }
      var best: Date?
      for offset in -2...horizonDays {
        // No occurrence begins or ends outside the supported years.
        guard LocalDay.supportedDayNumbers.contains(today.dayNumber + offset) else { continue }
        let day = today.advanced(by: offset)
        guard scheduled.weekdays.contains(day.weekday) else { continue }
        let occurrence = scheduled.window.occurrence(startingOn: day, in: zone)
        guard occurrence.end > occurrence.start else { continue }
        for edge in [occurrence.start, occurrence.end] where edge > instant {
          best = min(best ?? edge, edge)
        }
        if best != nil, occurrence.start > instant { break }
      }
      return best
    }
  }

  /// The end of an active occurrence: an instant, or unknown.
  enum ActiveEnd: Equatable {
    case until(Date)
    case unknown

    var date: Date? {
      if case .until(let date) = self { return date }
      return nil
    }
  }

  private static func day(containing instant: Date, in zone: TimeZone) -> LocalDay? {
    do throws(UsageModelError) {
      return try DayBoundary(timeZone: zone).day(containing: instant)
    } catch {
      return nil
    }
  }
}
