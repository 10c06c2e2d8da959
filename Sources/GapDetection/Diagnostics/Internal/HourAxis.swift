import Foundation

/// The wall-clock hours of one day and its clock changes, found without a `Calendar`.
///
/// The day is walked in 15-minute steps of real time (every offset in use is a multiple of
/// 15 minutes); an instant whose wall reading is a whole hour is a tick. A day with a clock
/// change therefore gets 23 or 25 ticks, and a repeated hour appears twice.
struct HourAxis {
  struct Tick {
    var instant: Int64
    var hour: Int
    /// Whether this wall hour already appeared earlier in the day (clocks went back).
    var isRepeat: Bool
  }

  struct Change {
    var instant: Int64
    var offsetBefore: Int
    var offsetAfter: Int
  }

  var ticks: [Tick] = []
  var changes: [Change] = []

  init(from start: Int64, to end: Int64, clock: LocalClock) {
    let step: Int64 = 15 * 60_000
    var instant = start - LocalClock.floorModulo(start, step)
    var previousOffset = clock.offset(at: start)
    var seen = Set<Int>()
    while instant <= end {
      let offset = clock.offset(at: instant)
      if offset != previousOffset {
        changes.append(
          Change(
            instant: Self.transition(before: instant - step, after: instant, clock: clock),
            offsetBefore: previousOffset, offsetAfter: offset))
        previousOffset = offset
      }
      let wall = instant + Int64(offset) * 1000
      if instant >= start, instant < end, LocalClock.floorModulo(wall, 3_600_000) == 0 {
        let hour = Int(LocalClock.floorModulo(wall, 86_400_000) / 3_600_000)
        ticks.append(Tick(instant: instant, hour: hour, isRepeat: !seen.insert(hour).inserted))
      }
      instant += step
    }
  }

  /// The first instant (to the second) at which the offset differs from the one at `before`.
  private static func transition(before: Int64, after: Int64, clock: LocalClock) -> Int64 {
    var low = before
    var high = after
    let offset = clock.offset(at: before)
    while high - low > 1000 {
      let middle = low + (high - low) / 2000 * 1000
      if clock.offset(at: middle) == offset { low = middle } else { high = middle }
    }
    return high
  }
}
