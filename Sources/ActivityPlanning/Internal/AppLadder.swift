import Foundation
import UsageModel

/// One app's thresholds as the planner builds them, in whole seconds.
struct AppLadder: Sendable, Hashable {
  let app: AppID
  /// The step asked for, or `nil` for an app that only has budget points.
  let requestedStep: Int64?
  /// The step in use, coarsened by doubling, at most ``top``.
  var step: Int64?
  /// The highest threshold asked for.
  let top: Int64?
  /// The budget alert points, which coarsening keeps.
  var points: Set<Int64>

  /// Whether doubling the step would change the ladder.
  var canCoarsen: Bool {
    guard let step, let top else { return false }
    return step < top
  }

  /// Doubles the step, capped at the top.
  mutating func coarsen() {
    guard let step, let top else { return }
    self.step = min(step * 2, top)
  }

  /// Every threshold, ascending, without bounds: the ladder's multiples of the step and its top,
  /// merged with the budget points, each value once.
  ///
  /// A merge of two ascending lists rather than a set sorted afterwards: the planner asks for
  /// each ladder's thresholds several times per re-arm, and hashing dominated its cost.
  var allThresholds: [Int64] {
    var rungs: [Int64] = []
    if let step, let top, step > 0 {
      rungs.reserveCapacity(Int(top / step) + 1)
      var value = step
      while value <= top {
        rungs.append(value)
        value += step
      }
      if rungs.last != top { rungs.append(top) }
    }
    let extra = points.sorted()
    var merged: [Int64] = []
    merged.reserveCapacity(rungs.count + extra.count)
    var (i, j) = (0, 0)
    while i < rungs.count || j < extra.count {
      let next: Int64
      if j == extra.count || (i < rungs.count && rungs[i] <= extra[j]) {
        next = rungs[i]
        i += 1
      } else {
        next = extra[j]
        j += 1
      }
      if merged.last != next { merged.append(next) }
    }
    return merged
  }

  /// The thresholds up to `limit` seconds, ascending.
  func thresholds(upTo limit: Int64) -> [Int64] {
    allThresholds.filter { $0 <= limit }
  }

  /// The largest gap between consecutive thresholds, counting from zero; zero when empty.
  static func resolution(of thresholds: [Int64]) -> Int64 {
    var previous: Int64 = 0
    var largest: Int64 = 0
    for threshold in thresholds {
      largest = max(largest, threshold - previous)
      previous = threshold
    }
    return largest
  }
}
