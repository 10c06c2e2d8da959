import Foundation

/// Turns wall-clock readings of one time zone into instants, in milliseconds, without `Calendar`.
///
/// The zone's UTC offset is piecewise constant; Foundation reports it (`secondsFromGMT(for:)`)
/// and where it changes (`nextDaylightSavingTimeTransition(after:)`, which reports every offset
/// change, standard-time changes included). A wall reading *w* is resolved to the **first
/// instant at which the clock shows *w* or later**:
///
/// - a reading that exists once resolves to that instant;
/// - a reading that exists twice (clocks went back) resolves to its first occurrence;
/// - a reading skipped by a gap (clocks went forward) resolves to the end of the gap, the
///   transition instant — which is what `Calendar.startOfDay(for:)` does for a skipped midnight.
struct ZoneClock: Sendable, Hashable {
  /// A stretch of time with one UTC offset, from `start` to the next segment's start.
  struct Segment: Sendable, Hashable {
    var start: Int64
    var offset: Int64
  }

  /// How far before and after a wall reading offsets are examined: more than any UTC offset.
  static let margin: Int64 = 36 * 3_600_000

  let timeZone: TimeZone

  /// The UTC offset in milliseconds at an instant.
  func offset(at instant: Int64) -> Int64 {
    Int64(timeZone.secondsFromGMT(for: Milliseconds.date(instant))) * 1000
  }

  /// The wall-clock reading at an instant, as milliseconds since 1970-01-01T00:00 local.
  func wall(at instant: Int64) -> Int64 { instant + offset(at: instant) }

  /// The segments of constant offset covering `first...last`; the first starts at `first`.
  ///
  /// - Complexity: O(*t*) calls to `TimeZone`, *t* the number of offset changes in the range.
  func segments(from first: Int64, through last: Int64) -> [Segment] {
    var result = [Segment(start: first, offset: offset(at: first))]
    var cursor = first
    while let next = timeZone.nextDaylightSavingTimeTransition(after: Milliseconds.date(cursor)),
      let instant = Milliseconds.instant(next), instant > cursor, instant <= last
    {
      let offset = offset(at: instant)
      if let previous = result.last, previous.offset != offset {
        result.append(Segment(start: instant, offset: offset))
      }
      cursor = instant
    }
    return result
  }

  /// The first instant at which the clock shows `wall` or later.
  func firstInstant(reachingWall wall: Int64) -> Int64 {
    let segments = segments(from: wall - Self.margin, through: wall + Self.margin)
    var cursor = 0
    return Self.firstInstant(reachingWall: wall, in: segments, cursor: &cursor)
  }

  /// The first instant at which the clock shows `wall` or later, scanning from `cursor`.
  ///
  /// Walls passed to successive calls must not decrease; `cursor` then only moves forward, so
  /// resolving the starts of *n* consecutive days costs O(*n* + *t*). The first segment must
  /// start at least ``margin`` before the first wall.
  static func firstInstant(
    reachingWall wall: Int64, in segments: [Segment], cursor: inout Int
  ) -> Int64 {
    while true {
      let segment = segments[cursor]
      if wall <= segment.start + segment.offset { return segment.start }
      let candidate = wall - segment.offset
      if cursor + 1 == segments.count || candidate < segments[cursor + 1].start {
        return candidate
      }
      cursor += 1
    }
  }
}
