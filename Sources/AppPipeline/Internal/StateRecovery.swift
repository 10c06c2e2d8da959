import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// How the app side heals its own files: a file the store reports damaged is quarantined (its
/// bytes kept), rebuilt from the facts still in the outbox and in the surviving per-day logs, and
/// the recovery — with what could not be rebuilt — recorded in the state.
///
/// **Damage**, and only damage, is healed: the store's `corrupted`, `unsupportedFormatVersion`,
/// `decoding`, `tooLarge`, `kindMismatch` and `notARegularFile` errors on one of the app side's
/// own keys (``PipelineRecovery/File``). An I/O error — a full disk, a permission, protected data
/// not available yet — is transient: it is thrown and nothing is quarantined. A damaged file of
/// the monitor extension (the outbox, the heartbeats, the diagnostic log) is not the app side's
/// to move.
///
/// **No loop.** One call heals each key at most once; a key damaged again after its rebuild (or
/// more than ``UsagePipeline/recoveryLimit`` keys) is thrown. A rebuilt file is a new, valid file:
/// the next call reads it normally.
extension UsagePipeline {
  /// The most files one call quarantines and rebuilds: the app side has five kinds of file, and
  /// a call reads at most a few days of facts.
  static let recoveryLimit = 8

  /// Runs `body`; when it fails on a damaged file of the app side, quarantines the file,
  /// rebuilds it, records the recovery in the state and runs `body` again.
  ///
  /// A file is moved only when `body` fails on it twice in a row, and only if, in the hold of the
  /// move, it is still damaged (``stillDamaged(_:key:found:)``): the key still names the file it
  /// found before the second run — a state, whichever file, still reads as damaged or removed —
  /// so that another process (the app and its widget) that healed it in between is left its
  /// rebuild.
  ///
  /// Call it on a copy of the pipeline when `body` changes the pipeline itself.
  ///
  /// - Parameters:
  ///   - now: The instant the recoveries are dated (milliseconds).
  ///   - recoveries: The recoveries made, appended to.
  ///   - body: The operation.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` throws when it is not damage, or is damage of a key healed already in
  ///   this call (or left to another process's rebuild); ``PipelineError/store(_:)`` when a
  ///   quarantine or a rebuild fails, or a file found damaged cannot be read again for another
  ///   reason; the errors of recording a recovery (a `notDurable` one after the recovery was
  ///   written); a quarantine's `notDurable`, after the rebuild and its record.
  func healing<Result>(
    now: Int64, into recoveries: inout [PipelineRecovery],
    _ body: () throws(PipelineError) -> Result
  ) throws(PipelineError) -> Result {
    var healed: Set<String> = []
    // The file each suspected key named before `body` ran again: the quarantine moves it only
    // if it is still that file.
    var suspected: [String: KeyFile] = [:]
    var unrecorded: [PipelineRecovery] = []
    var failure: PipelineError?
    while true {
      if let error = failure, let key = damagedFile(error)?.key, suspected[key] == nil,
        !healed.contains(key)
      {
        // Once more before moving anything: another process (the app and its widget, say) may
        // have healed the file since it was read.
        do throws(PipelineError) {
          suspected[key] = try keyFile(key)
          failure = nil
        } catch {
          failure = error
          continue
        }
      } else if let error = failure {
        failure = nil
        guard let (key, file) = damagedFile(error), !healed.contains(key),
          healed.count < Self.recoveryLimit
        else {
          // Not damage, or damage again: what was healed is reported first, if it can be; the
          // error thrown is this one either way.
          let original = error
          do throws(PipelineError) {
            try record(&unrecorded, into: &recoveries)
          } catch {
            // A `notDurable` (a quarantine's, say) says that the heal is in place: not while its
            // recovery is unrecorded.
            if case .notDurable? = original.storeError { throw error }
            throw original
          }
          throw original
        }
        healed.insert(key)
        do throws(PipelineError) {
          // Suspected before: a key is healed only at its second failure.
          let found: KeyFile
          if let known = suspected[key] { found = known } else { found = try keyFile(key) }
          let (made, rebuildFailure) = try recover(
            file, key: key, damage: error, found: found, now: now, healed: &healed,
            recorded: &recoveries)
          unrecorded += made
          failure = rebuildFailure
        } catch {
          // Met while reading what the rebuild needs: healed next if it is damage, else thrown.
          failure = error
        }
        if failure != nil { continue }
      }
      do throws(PipelineError) {
        // Recorded before `body` runs again: a later failure of `body` loses no report.
        try record(&unrecorded, into: &recoveries)
        return try body()
      } catch {
        failure = error
      }
    }
  }

  /// Records `unrecorded` in the state, and moves them to `recoveries`.
  ///
  /// In one hold of the folder's lock, so that a rebuilt ledger's position read here is still
  /// the ledger's when the state names it. A `notDurable` failure wrote the state: the
  /// recoveries are moved to `recoveries` too, and the failure thrown.
  func record(
    _ unrecorded: inout [PipelineRecovery], into recoveries: inout [PipelineRecovery]
  ) throws(PipelineError) {
    guard !unrecorded.isEmpty else { return }
    let rebuiltLedger = unrecorded.contains { $0.file == .ledger }
    let pending = unrecorded
    do throws(PipelineError) {
      try FolderHold.holding(folder.store) { () throws(PipelineError) in
        let mark = rebuiltLedger ? try ledgerPosition() : nil
        try updateState { state throws(PipelineError) in
          for recovery in pending { state.record(recovery) }
          if rebuiltLedger { state.ledgerMark = mark }
          // A rebuilt state beside the day logs applies them again from the outbox's start:
          // once the retention drops its recovery, it must not read as one removed.
          if pending.contains(where: { $0.file == .state }) { state.drainBegan = true }
        }
      }
    } catch {
      guard case .notDurable? = error.storeError else { throw error }
      recoveries += unrecorded
      unrecorded = []
      throw error
    }
    recoveries += unrecorded
    unrecorded = []
  }

  /// The app side's key that `error` reports damaged, and what it holds; `nil` for any other
  /// error.
  func damagedFile(_ error: PipelineError) -> (key: String, file: PipelineRecovery.File)? {
    let key: String
    switch error.storeError {
    case .corrupted(let damaged, _, _)?, .unsupportedFormatVersion(let damaged, _, _, _)?,
      .decoding(let damaged, _, _)?, .tooLarge(let damaged, _, _, _)?,
      .kindMismatch(let damaged, _)?, .notARegularFile(let damaged?, _, _)?:
      key = damaged
    default:
      return nil
    }
    switch folder.layout.content(of: key) {
    case .appState?: return (key, .state)
    case .appFacts?: return (key, .facts)
    case .appStarts?: return (key, .starts)
    case .appSummaries?: return (key, .summaries)
    case .appLedger?: return (key, .ledger)
    default: return nil
    }
  }
}
