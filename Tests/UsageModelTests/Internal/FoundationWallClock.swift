import Foundation
import UsageModel

/// Foundation's answer, computed without UsageModel, to the question `DayBoundary` and
/// `DailyWindow` answer: the first instant at which the local clock shows `day` at `time` or
/// later.
///
/// The reference is `Calendar.nextDate(after:matching:matchingPolicy: .nextTime,
/// repeatedTimePolicy: .first, direction: .forward)`: a time that exists once resolves to itself,
/// a repeated time to its first occurrence, a time skipped by a gap to the next time that exists,
/// the end of the gap.
///
/// **Where Foundation is wrong.** In some gaps `nextDate` finds nothing, or an instant that is
/// not even the first to show the time (the next day's midnight): observed for days starting at
/// 01:00 or 02:30 in Antarctica/Troll's 2-hour gap (01:00 → 03:00 local on the last Sunday of
/// March; in 2024 and 2030 Foundation answers 22:00 UTC, in other years nothing), in
/// Antarctica/Casey's 3-hour gaps (00:01 → 03:01 in October 2020-2022), at 23:30 in the
/// 23:00 → 00:00 gaps of America/Nuuk (alias America/Godthab) and America/Scoresbysund, and at
/// 02:15 in Australia/Lord_Howe's 30-minute gap (02:00 → 02:30 on the first Sunday of October).
/// A time inside a gap exists on no clock, and `.nextTime` promises the next one that does: the
/// end of the gap. So when Foundation's answer fails the local check — the clock shows the time
/// or later at the answer, and an earlier time just before it — and the calendar confirms that
/// the time does not exist, the reference finds the end of the gap itself: the first instant
/// whose reading by Foundation's calendar (`Calendar.dateComponents`) is the requested time or
/// later, by bisection over the readings of the 6 hours before `Calendar.date(from:)`'s answer.
/// ``Resolution/foundationFailed`` says when that happened.
struct FoundationWallClock {
  /// A resolved instant and how it was found.
  struct Resolution: Equatable {
    /// The first instant at which the clock shows the requested time or later.
    var date: Date
    /// Whether `nextDate` failed and the gap's end was found by bisection instead.
    var foundationFailed: Bool
  }

  let calendar: Calendar

  init(_ timeZone: TimeZone) {
    calendar = gregorian(timeZone)
  }

  /// The components of `day` at `time`.
  func components(_ day: LocalDay, _ time: TimeOfDay) -> DateComponents {
    DateComponents(
      year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute,
      second: time.second)
  }

  /// `Calendar.date(from:)`: exact and cheap for a time that exists exactly once, but for a
  /// skipped time it moves forward by the gap's length rather than to the gap's end.
  func quickInstant(_ day: LocalDay, _ time: TimeOfDay) -> Date? {
    calendar.date(from: components(day, time))
  }

  /// The first instant at which the clock shows `day` at `time` or later, or `nil` when even
  /// the fallback finds none.
  func firstInstant(_ day: LocalDay, _ time: TimeOfDay) -> Resolution? {
    let wanted = components(day, time)
    guard
      let midnight = calendar.date(
        from: DateComponents(
          year: day.year, month: day.month, day: day.day))
    else { return nil }
    let target = key(of: wanted)
    if let found = calendar.nextDate(
      after: midnight.addingTimeInterval(-40 * 3600), matching: wanted,
      matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward),
      reading(at: found) >= target, reading(at: found.addingTimeInterval(-0.001)) < target
    {
      return Resolution(date: found, foundationFailed: false)
    }
    // Only a time that does not exist may fall back: date(from:) then lands after the gap, on a
    // reading that is not the one asked for.
    guard let shifted = calendar.date(from: wanted), reading(at: shifted) != target else {
      return nil
    }
    return gapEnd(reaching: target, before: shifted).map {
      Resolution(date: $0, foundationFailed: true)
    }
  }

  /// The first instant in the 6 hours before `later` whose reading is `target` or later,
  /// assuming readings only grow there (no clock goes back within hours of a gap).
  private func gapEnd(reaching target: Int, before later: Date) -> Date? {
    var low = Int64((later.timeIntervalSince1970 * 1000).rounded()) - 6 * 3_600_000
    var high = Int64((later.timeIntervalSince1970 * 1000).rounded())
    func date(_ milliseconds: Int64) -> Date {
      Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
    guard reading(at: date(low)) < target, reading(at: date(high)) >= target else { return nil }
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if reading(at: date(middle)) >= target { high = middle } else { low = middle }
    }
    return date(high)
  }

  /// Foundation's wall-clock reading at `date`, as one comparable number `yyyyMMddHHmmss`.
  func reading(at date: Date) -> Int {
    key(
      of: calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date))
  }

  private func key(of components: DateComponents) -> Int {
    let date =
      ((components.year ?? 0) * 100 + (components.month ?? 0)) * 100
      + (components.day ?? 0)
    let time =
      ((components.hour ?? 0) * 100 + (components.minute ?? 0)) * 100
      + (components.second ?? 0)
    return date * 1_000_000 + time
  }
}
