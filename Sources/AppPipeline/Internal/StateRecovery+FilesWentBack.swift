import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

// The files of the app side that went back without an error: damage that reads whole.
extension UsagePipeline {
  /// Checks that no file of the app side went back without an error.
  ///
  /// The day log of the last fact applied must still hold it, a state that holds nothing but
  /// recoveries (``dayBesideRemoved(_:)``) must have no day logs beside it, and the ledger must
  /// hold what it held after the app's last transaction: a log truncated, rolled back to an older
  /// copy or removed reads without an error, and would otherwise lose its facts silently. A day
  /// the retention before `now` (milliseconds) may have removed is not checked. A state that
  /// went back to an older version is an older cursor, not a loss: the next drain applies the
  /// outbox again from it.
  ///
  /// - Throws: ``PipelineError/store(_:)`` with `SharedStoreError.corrupted` naming the file
  ///   that went back, which ``healing(now:into:_:)`` quarantines and rebuilds.
  /// - Complexity: O(*n*) in the facts of the last fact's day, the first time a process reads
  ///   them; O(1) afterwards while the log is unchanged.
  func checkFilesWentBack(now: Int64) throws(PipelineError) {
    let state = try state()
    try checkLedgerWentBack(state)
    if let last = state.lastApplied {
      let instant = last.instant
      let day = FactJournal.utcDay(of: instant)
      let retention = Int64(min(configuration.retentionDays, 100_000)) * 86_400_000
      guard day > FactJournal.utcDay(of: now &- retention),
        !(try journal.facts(from: day, through: day).facts.contains { $0.instant == instant })
      else { return }
      throw Self.wentBack(
        folder.layout.appFactsKey(of: day),
        "it no longer holds the last fact applied, \(last.number) at "
          + "\(ISO8601Instant.format(instant)): it was truncated, rolled back or removed")
    }
    guard let first = try dayBesideRemoved(state) else { return }
    throw Self.wentBack(
      folder.layout.appStateKey,
      "it was removed or replaced by an empty one while the facts of \(first) and later remain")
  }

  /// The error that reports the file of `key` gone back, for `reason`: damage, which
  /// ``healing(now:into:_:)`` quarantines and rebuilds, though the file reads whole.
  static func wentBack(_ key: String, _ reason: String) -> PipelineError {
    .store(.corrupted(key: key, path: key, reason: reason))
  }

  /// The first day whose log remains beside `state` when the state reads as removed: it holds
  /// nothing but the recoveries of files healed (its drains never began,
  /// `PipelineState.drainBegan`), yet only drains write day logs; `nil` otherwise.
  ///
  /// A recovery another process records in a removed state — of another file it healed in a
  /// dashboard, which does not check the state — leaves it removed: the heal moves it aside all
  /// the same, and the rebuilt state keeps its recoveries. Anything else in it (an outbox's
  /// recovery, a ledger's mark) makes it a state, as a drain does.
  func dayBesideRemoved(_ state: PipelineState) throws(PipelineError) -> LocalDay? {
    var rest = state
    rest.recoveries = []
    guard rest == PipelineState() else { return nil }
    return try journal.days().first
  }

  /// Checks that the reward ledger's log holds at least what it held after the app's last own
  /// transaction (``PipelineState/ledgerMark``), and that it reads and folds.
  ///
  /// - Throws: ``PipelineError/store(_:)`` with `SharedStoreError.corrupted` naming the ledger
  ///   when it was cut short, rolled back, removed or replaced, and the errors of a ledger that
  ///   does not read or fold.
  func checkLedgerWentBack(_ state: PipelineState) throws(PipelineError) {
    if let mark = state.ledgerMark, Self.ledger(at: try ledgerPosition(), isBehind: mark) {
      throw Self.wentBack(
        folder.layout.appLedgerKey,
        "it holds less than after the app's last transaction (position \(mark.next)): it was "
          + "cut short, rolled back, removed or replaced")
    }
    // Folded before anything is drained: a ledger found damaged is rebuilt from the facts
    // drained before, and the facts drained next are credited as usual. Cached: O(1) when
    // the log did not change.
    _ = try ledgerJournal.fold()
  }

  /// Whether the ledger's log at `position` (`nil`: no log) holds less than the state's `mark`,
  /// its position after the app's last transaction: another log, or the same one shorter.
  static func ledger(
    at position: PipelineState.LedgerMark?, isBehind mark: PipelineState.LedgerMark
  ) -> Bool {
    guard let position, position.identity == mark.identity else { return true }
    return position.next < mark.next
  }

  /// The reward ledger log's identity and next position; `nil` when there is no log.
  func ledgerPosition() throws(PipelineError) -> PipelineState.LedgerMark? {
    do throws(SharedStoreError) {
      return try folder.store.readLog(folder.layout.appLedgerKey, newest: 0).map {
        PipelineState.LedgerMark(identity: $0.identity, next: $0.nextPosition)
      }
    } catch {
      throw .store(error)
    }
  }
}
