import Foundation
import UsageModel

extension TrackingExpectation {
  /// The windows within `[start, end]` — clipped, merged where they overlap or touch, sorted —
  /// with where each began monitoring and how far it reaches past `end`.
  ///
  /// - Parameters:
  ///   - start: The period's start, in milliseconds.
  ///   - end: The period's end.
  ///   - now: The instant of the analysis, not before `end`: a window is followed past `end` up
  ///     to it, never beyond.
  ///   - lookAround: How far before `start` and after `end` the true start and end of a window
  ///     can still change a judgement (the gap threshold and one millisecond); schedules that
  ///     chain into each other are followed no further.
  ///   - firstHeartbeat: The earliest heartbeat of the tracker, where `sinceFirstHeartbeat`
  ///     begins; without one it expects nothing.
  /// - Returns: The windows, sorted and disjoint.
  /// - Complexity: O(*d* · *s* + *i* log *i*) for *d* days, *s* schedules and *i* intervals.
  func expectedWindows(
    from start: Int64, to end: Int64, now: Int64, lookAround: Int64, firstHeartbeat: Int64?
  ) -> [ExpectedWindow] {
    guard end > start else { return [] }
    switch storage {
    case .sinceFirstHeartbeat:
      // Monitoring began at the first heartbeat, which is itself a sign of life there, and is
      // expected from then on, as with `always`.
      guard let first = firstHeartbeat else { return [] }
      return Self.window(first...max(first, end, now), from: start, to: end, now: now).map {
        [$0]
      } ?? []
    case .always:
      return [ExpectedWindow(low: start, high: end, beganAt: nil, reachesTo: max(end, now))]
    case .intervals(let intervals):
      // Every interval is known, so a merged one starts and ends where it says.
      return Self.merged(intervals).compactMap { piece in
        Self.window(piece, from: start, to: end, now: now)
      }
    case .schedules(let schedules, let timeZone):
      let cover = ScheduleCover(schedules: schedules, timeZone: timeZone)
      return Self.merged(cover.pieces(overlapping: start, end)).compactMap { piece in
        var whole = piece
        if piece.lowerBound <= start {
          whole =
            cover.start(before: piece.lowerBound, limit: start - lookAround)...whole.upperBound
        }
        if piece.upperBound >= end, end < now {
          let limit = min(now, end + lookAround)
          whole = whole.lowerBound...cover.end(after: piece.upperBound, limit: limit)
        }
        return Self.window(whole, from: start, to: end, now: now)
      }
    }
  }

  /// `piece` clipped to `[start, end]`, or `nil` when nothing of it is left.
  private static func window(
    _ piece: ClosedRange<Int64>, from start: Int64, to end: Int64, now: Int64
  ) -> ExpectedWindow? {
    let low = max(piece.lowerBound, start)
    let high = min(piece.upperBound, end)
    guard high > low else { return nil }
    return ExpectedWindow(
      low: low, high: high, beganAt: piece.lowerBound,
      reachesTo: max(high, min(piece.upperBound, now)))
  }

  /// The union of `pieces`, where pieces that overlap or touch become one, sorted.
  private static func merged(_ pieces: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
    var merged: [ClosedRange<Int64>] = []
    for piece in pieces.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, piece.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound...max(last.upperBound, piece.upperBound)
      } else {
        merged.append(piece)
      }
    }
    return merged
  }
}

/// The occurrences of monitoring schedules, found around instants.
private struct ScheduleCover {
  let schedules: [MonitoringSchedule]
  let timeZone: TimeZone

  /// The most steps taken to follow schedules that chain into each other.
  private static let maximumSteps = 64

  /// Every occurrence that shares time with `[start, end]`, and every timer window.
  func pieces(overlapping start: Int64, _ end: Int64) -> [ClosedRange<Int64>] {
    var pieces: [ClosedRange<Int64>] = []
    let period = TimeValues.interval(start, end)
    for schedule in schedules {
      switch schedule {
      case .daily(let window):
        for occurrence in window.occurrences(overlapping: period, in: timeZone) {
          let (low, high) = TimeValues.bounds(of: occurrence)
          pieces.append(low...high)
        }
      case .timer(let window):
        let (low, high) = TimeValues.bounds(of: window.interval)
        pieces.append(low...high)
      }
    }
    return pieces
  }

  /// Where monitoring that is under way at `low` began: `low`, unless an occurrence covers or
  /// ends at `low`, in which case its start, and so on back — but no further than `limit`.
  func start(before low: Int64, limit: Int64) -> Int64 {
    var low = low
    var steps = 0
    while low > limit, steps < Self.maximumSteps {
      steps += 1
      var earliest = low
      for schedule in schedules {
        switch schedule {
        case .daily(let window):
          if let occurrence = window.occurrence(
            containing: Milliseconds.date(low - 1), in: timeZone)
          {
            earliest = min(earliest, TimeValues.bounds(of: occurrence).start)
          }
        case .timer(let window):
          let (start, end) = TimeValues.bounds(of: window.interval)
          if start < low, end >= low { earliest = min(earliest, start) }
        }
      }
      guard earliest < low else { break }
      low = earliest
    }
    return low
  }

  /// Where monitoring that is under way at `high` ends: `high`, unless an occurrence starts at
  /// or covers `high`, in which case its end, and so on forward — but no further than `limit`.
  func end(after high: Int64, limit: Int64) -> Int64 {
    var high = high
    var steps = 0
    while high < limit, steps < Self.maximumSteps {
      steps += 1
      var latest = high
      for schedule in schedules {
        switch schedule {
        case .daily(let window):
          if let occurrence = window.occurrence(containing: Milliseconds.date(high), in: timeZone) {
            latest = max(latest, TimeValues.bounds(of: occurrence).end)
          }
        case .timer(let window):
          let (start, end) = TimeValues.bounds(of: window.interval)
          if start <= high, end > high { latest = max(latest, end) }
        }
      }
      guard latest > high else { break }
      high = latest
    }
    return high
  }
}
