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

  /// Every threshold, ascending, without bounds.
  var allThresholds: [Int64] {
    var values = points
    if let step, let top {
      var value = step
      while value <= top {
        values.insert(value)
        value += step
      }
      values.insert(top)
    }
    return values.sorted()
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
