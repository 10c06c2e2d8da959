import Foundation
import UsageModel

/// Checks the intervals of consecutive local days, from any source, against Foundation.
///
/// For each day: it must start where the previous day ended and last a positive time, and its
/// start must be the first instant at which the clock shows the day at ``dayStart`` or later.
/// - Away from offset changes (the zone's offset, by `TimeZone.secondsFromGMT(for:)`, is the same
///   6 hours before and after the start) every reading exists exactly once, so the start is right
///   exactly when the clock shows the day at ``dayStart`` there: its instant plus Foundation's
///   offset is that wall time. Every 29th day is also compared with `Calendar.date(from:)`, which
///   does the calendar arithmetic independently of `LocalDay`.
/// - Near an offset change, and wherever a cheap check disagrees, the full rule decides
///   (``FoundationWallClock/firstInstant(_:_:)``: `Calendar.nextDate` with `.nextTime` and
///   `.first`), and for a midnight day start `Calendar.startOfDay(for:)` must agree as well.
///
/// So every day is checked, and the days where gaps and repeats make the rule matter are checked
/// against the rule itself, cheaply enough to sweep every zone and several day starts.
struct DaySweep {
  /// What a sweep found.
  struct Result {
    /// A description of each disagreement, at most the sweep's limit.
    var mismatches: [String] = []
    /// How many days the full rule decided.
    var fullChecks = 0
    /// Days on which `nextDate` failed and the reference found the gap's end itself.
    var foundationFailures: [LocalDay] = []
  }

  let timeZone: TimeZone
  let dayStart: TimeOfDay
  let days: ClosedRange<LocalDay>

  /// Sweeps ``days`` with day intervals from `interval`.
  ///
  /// - Parameters:
  ///   - limit: The sweep stops after this many mismatches.
  ///   - interval: The interval of a day, from the source under test.
  /// - Returns: What the sweep found.
  func check(limit: Int = 6, interval: (LocalDay) throws -> DateInterval) rethrows -> Result {
    let clock = FoundationWallClock(timeZone)
    var result = Result()
    var previousEnd: Date?
    // Plain day numbers: iterating a range of LocalDay is slow in a debug build.
    for dayNumber in days.lowerBound.dayNumber...days.upperBound.dayNumber {
      let day = LocalDay(uncheckedNumber: dayNumber)
      let ours = try interval(day)
      if let previousEnd, previousEnd != ours.start {
        result.mismatches.append(
          "\(day): starts \(ours.start), the day before ended \(previousEnd)")
      }
      if ours.duration <= 0 { result.mismatches.append("\(day): lasts \(ours.duration) s") }
      previousEnd = ours.end
      compare(start: ours.start, of: day, clock: clock, into: &result)
      if result.mismatches.count >= limit { return result }
    }
    // The last day ends where the day after it starts.
    if let end = previousEnd {
      compare(start: end, of: days.upperBound.advanced(by: 1), clock: clock, into: &result)
    }
    return result
  }

  private func compare(
    start ours: Date, of day: LocalDay, clock: FoundationWallClock, into result: inout Result
  ) {
    // (Were the offset to change and change back within those 12 hours, the reading below
    // would use the wrong offset and send the day to the full rule: a false alarm at worst.)
    let offset = timeZone.secondsFromGMT(for: ours.addingTimeInterval(-6 * 3600))
    let nearOffsetChange = timeZone.secondsFromGMT(for: ours.addingTimeInterval(6 * 3600)) != offset
    if !nearOffsetChange {
      let wall = Double(day.dayNumber) * 86_400 + Double(dayStart.secondsSinceMidnight)
      let showsTheDayStart = ours.timeIntervalSince1970 + Double(offset) == wall
      if showsTheDayStart, day.dayNumber % 29 != 0 || clock.quickInstant(day, dayStart) == ours {
        return
      }
    }
    result.fullChecks += 1
    guard let reference = clock.firstInstant(day, dayStart) else {
      result.mismatches.append("\(day): ours \(ours), Foundation finds no start at \(dayStart)")
      return
    }
    if reference.foundationFailed { result.foundationFailures.append(day) }
    if reference.date != ours {
      result.mismatches.append(
        "\(day): ours \(ours), Foundation \(reference.date)"
          + (reference.foundationFailed ? " (end of gap by bisection)" : ""))
    }
    if dayStart == .midnight, clock.calendar.startOfDay(for: ours) != ours {
      result.mismatches.append(
        "\(day): ours \(ours), Calendar.startOfDay \(clock.calendar.startOfDay(for: ours))")
    }
  }
}

extension LocalDay {
  /// The day with a day number the test knows is supported.
  init(uncheckedNumber dayNumber: Int) {
    do {
      try self.init(dayNumber: dayNumber)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}
