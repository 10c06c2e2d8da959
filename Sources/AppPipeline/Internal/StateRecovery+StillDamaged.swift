import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

// Whether a file found damaged is still the damaged file, in the hold of its move.
extension UsagePipeline {
  /// Which file a key names, to tell in the hold of a quarantine whether another process
  /// replaced it since it was found damaged.
  ///
  /// A log's identity is drawn at random when its file is created — a rebuild's included — and
  /// kept by its compactions, so a file that another process moved aside and rebuilt has
  /// another identity, or none when its rebuild writes nothing.
  enum KeyFile: Equatable {
    /// The key has no file.
    case absent
    /// A log with this identity.
    case log(identity: UInt64)
    /// A file that does not read as a log: damaged in its header or newest frame, not a log, or
    /// not readable then.
    case unreadable
  }

  /// The file `key` names now (``KeyFile``), read to its header and newest frame.
  ///
  /// - Throws: ``PipelineError/store(_:)`` when the file cannot be read for a reason that is not
  ///   damage (an I/O error), which is thrown as it is: healed on a later call.
  func keyFile(_ key: String) throws(PipelineError) -> KeyFile {
    do throws(SharedStoreError) {
      guard let log = try folder.store.readLog(key, newest: 0) else { return .absent }
      return .log(identity: log.identity)
    } catch {
      guard damagedFile(.store(error)) != nil else { throw .store(error) }
      return .unreadable
    }
  }

  /// Whether the file of `key`, found damaged, is still damaged in the hold of its move: it does
  /// not read whole, or the key still names the same log — which reads whole when its damage is
  /// a cut at a frame boundary or a record that does not decode — and a state's newest version
  /// still does not decode or still reads as removed (``dayBesideRemoved(_:)``), a ledger is
  /// still behind the state's mark or still does not fold; or there is still no file.
  ///
  /// The whole file is read, never what a store remembers of its end: a byte changed in place
  /// leaves a file's size, and so a kept end, as they were. A ledger is damaged against the
  /// state too, and readers take no lock: one that read while another process rebuilt the
  /// ledger, before that process recorded the rebuild in the state, found the rebuilt file
  /// behind the old mark; in this hold the record is made.
  ///
  /// - Throws: ``PipelineError/store(_:)`` when the file cannot be read for a reason that is
  ///   not damage (an I/O error): nothing is moved for it; the errors of reading the state.
  /// - Complexity: O(*n*) in the file's size; only after damage.
  func stillDamaged(_ file: PipelineRecovery.File, key: String, found: KeyFile)
    throws(PipelineError) -> Bool
  {
    let log: LogSnapshot?
    do throws(SharedStoreError) {
      log = try folder.store.readLog(key, newest: nil)
    } catch {
      guard damagedFile(.store(error)) != nil else { throw .store(error) }
      return true
    }
    if file == .state {
      // By what it holds, whichever log it is: still damaged if its newest version does not
      // decode, or it still reads as removed — a missing one included, or one another process
      // created meanwhile by recording a recovery in it. Not when another process drained into
      // it, or rebuilt it (a rebuild says that a drain began).
      var state = PipelineState()
      if let newest = log?.records.last {
        do throws(SequenceTrackingError) {
          state = try consumer.record(decoding: newest.bytes).state
        } catch {
          return true
        }
      }
      return try dayBesideRemoved(state) != nil
    }
    guard (log.map { .log(identity: $0.identity) } ?? .absent) == found else { return false }
    guard file == .ledger else { return true }
    // The same whole ledger, or still none, as the file holds it (not what the store or the
    // journal remember of it): damaged if the state's mark is still ahead of it, or if it does
    // not fold. A missing ledger another process rebuilt with nothing to credit left the state
    // without a mark.
    let position = log.map {
      PipelineState.LedgerMark(identity: $0.identity, next: $0.nextPosition)
    }
    if let mark = try state().ledgerMark, Self.ledger(at: position, isBehind: mark) {
      return true
    }
    guard let log else { return false }
    do throws(PipelineError) {
      _ = try ledgerJournal.fold(log)
      return false
    } catch {
      guard damagedFile(error)?.key == key else { throw error }
      return true
    }
  }
}
