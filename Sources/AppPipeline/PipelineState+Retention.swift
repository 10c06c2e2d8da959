import BudgetMath
import GapDetection
import SignalValues
import TrackerSignals
import UsageModel

extension PipelineState {
  /// Whether ``prune(before:day:)`` would drop anything.
  func hasExpired(before cutoff: Int64, day: LocalDay) -> Bool {
    var pruned = self
    pruned.prune(before: cutoff, day: day)
    return pruned != self
  }

  /// Drops what is older than `cutoff`, and the alerts of windows that ended before `day` (see
  /// the type's discussion).
  mutating func prune(before cutoff: Int64, day: LocalDay) {
    losses.removeAll { Self.expires($0, before: cutoff) }
    acknowledgedTrackerDownInstants.removeAll { $0 < cutoff }
    recoveries.removeAll { $0.instant < cutoff }
    alerts.forgetWindows(endingBefore: day)
  }

  private static func expires(_ loss: SequenceLoss, before cutoff: Int64) -> Bool {
    (Milliseconds.instant(loss.before) ?? .min) < cutoff
  }

}
