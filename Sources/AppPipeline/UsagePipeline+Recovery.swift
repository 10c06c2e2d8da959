import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import UsageModel

// How the app gets past an outbox that cannot be read, and reports the epochs that ended.
extension UsagePipeline {
  /// The number of the last fact applied by any app process, as the stored cursor says.
  func storedAppliedNumber() throws(PipelineError) -> SequenceNumber? {
    do throws(SequenceTrackingError) {
      return try consumer.record().cursor.last
    } catch {
      throw .sequence(error)
    }
  }

  /// The number of the last fact applied, as the cursor says.
  func appliedNumber() throws(PipelineError) -> SequenceNumber? {
    if let cursor { return cursor.last }
    do throws(SequenceTrackingError) {
      return try consumer.record().cursor.last
    } catch {
      throw .sequence(error)
    }
  }

  /// The outbox's damage that `error` reports, when the app heals it by quarantining the
  /// outbox; `nil` for anything else.
  ///
  /// An outbox written in a newer layout is not damage for the app: the extension that wrote it
  /// is newer, and the app reads it once it is updated too. The extension moves aside what it
  /// cannot read (see `SequencedOutbox.publishHealing(_:)`).
  func damage(in error: PipelineError) -> SequenceTrackingError? {
    guard case .sequence(let error) = error, consumer.outbox.isUnreadable(error) else {
      return nil
    }
    switch error {
    case .unsupportedOutboxFormat, .store(.unsupportedFormatVersion(_, _, _, _)): return nil
    default: return error
    }
  }

  /// Moves the damaged outbox aside, keeping its bytes, when it is still damaged; the recovery
  /// is recorded in the outbox's recovery log, and the state records it at the end of the wake.
  ///
  /// The monitor extension heals the damage it reads too, and goes on publishing to an outbox
  /// whose damage its append does not read (a frame before the newest). So the outbox is read
  /// again, its marks read and the file moved in one hold of the lock of the outbox's store,
  /// when it is a `FileStore` — the lock the extension's callback holds while it publishes: no
  /// callback publishes in between. Outside a hold, the facts published between the marks' read
  /// and the move would go aside with the file, past the end the recovery records — lost without
  /// a report — and an outbox the extension had just begun would be moved aside whole. An
  /// outbox that reads whole again (another process healed it since) stays where it is; an
  /// entry that does not decode is not damage, and the drain passes over it as usual.
  ///
  /// - Throws: ``PipelineError/sequence(_:)`` when the outbox cannot be read for another reason,
  ///   moved aside, or its recovery recorded; ``PipelineError/store(_:)`` when the lock cannot
  ///   be taken (nothing is moved then).
  /// - Complexity: O(*n*) in the outbox's stored size, read again in the hold without decoding
  ///   its payloads; only after damage.
  func quarantineOutbox() throws(PipelineError) {
    let outbox = consumer.outbox
    let quarantine = { () throws(PipelineError) in
      let damage: SequenceTrackingError
      do throws(SequenceTrackingError) {
        try outbox.checkWhole()
        return
      } catch {
        guard let found = self.damage(in: .sequence(error)) else { throw .sequence(error) }
        damage = found
      }
      do throws(SequenceTrackingError) {
        try outbox.quarantine(because: damage)
      } catch {
        throw .sequence(error)
      }
    }
    // The move and the recovery are written through the outbox's store, the first of its
    // stores; the marks are only read, and a read takes no lock.
    guard let store = outbox.backingStores.first else { return try quarantine() }
    try FolderHold.holding(store, quarantine)
  }

  /// Records in the state the recoveries of the outbox not recorded yet, with the numbers each
  /// cost a consumer whose last applied number was the highest of `applied` in its epoch;
  /// returns them.
  ///
  /// `applied` holds what this wake knows of the last number applied before its drain: this
  /// process's cursor, and the stored one, which another app process (a widget) may have moved
  /// past it — or into the new epoch already, when the other one holds nothing of the old.
  func recordRecoveries(after applied: [SequenceNumber], now: Date) throws(PipelineError)
    -> [OutboxRecovery]
  {
    let found: [OutboxRecovery]
    do throws(SequenceTrackingError) {
      found = try consumer.outbox.recoveries()
    } catch {
      throw .sequence(error)
    }
    // The numbers were lost after the last fact applied before this wake's drain.
    let instant = Milliseconds.clampedInstant(now)
    let previous = appliedBeforeLastDrain ?? instant
    return try updateState { state throws(PipelineError) in
      state.record(found, after: applied, between: previous, and: max(previous, instant))
    }
  }
}
