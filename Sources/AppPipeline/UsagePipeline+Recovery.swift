import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

// How the app gets past an outbox that cannot be read, and reports the epochs that ended.
extension UsagePipeline {
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
  /// again, and its marks read and the file moved, in one hold of the folder's lock when the
  /// folder's stores share one (as `SharedFolder(directory:layout:)` opens them): no callback
  /// publishes in between. Outside a hold, a fact published between the marks' read and the
  /// move would go aside with the file, one number past the end the recovery records — lost
  /// without a report — and an outbox the extension had just begun would be moved aside whole.
  ///
  /// - Returns: Whether the outbox was moved aside; `false` when it reads whole again: another
  ///   process healed it since the read that failed.
  /// - Throws: ``PipelineError/sequence(_:)`` when the outbox cannot be read for another reason,
  ///   moved aside, or its recovery recorded; ``PipelineError/store(_:)`` when the lock cannot
  ///   be taken (nothing is moved then).
  /// - Complexity: O(*n*) in the outbox's entries, read again in the hold; only after damage.
  func quarantineOutbox() throws(PipelineError) -> Bool {
    let outbox = consumer.outbox
    let quarantine = { () throws(PipelineError) -> Bool in
      let damage: SequenceTrackingError
      do throws(SequenceTrackingError) {
        _ = try outbox.drain(after: .start)
        return false
      } catch {
        guard let found = self.damage(in: .sequence(error)) else { throw .sequence(error) }
        damage = found
      }
      do throws(SequenceTrackingError) {
        try outbox.quarantine(because: damage)
      } catch {
        throw .sequence(error)
      }
      return true
    }
    // The carried mark is read from the heartbeats' store: it must share the hold too.
    guard let lock = FileStore.sharedLock(of: outbox.backingStores + [folder.heartbeatStore])
    else { return try quarantine() }
    do {
      return try lock.exclusively(quarantine)
    } catch let error as PipelineError {
      throw error
    } catch let error as SharedStoreError {
      throw .store(error)
    } catch {
      // `exclusively` throws the lock's `SharedStoreError` or the body's own error, nothing else.
      throw .store(.io(operation: "flock", path: folder.layout.outboxKey, errno: .ioError))
    }
  }

  /// Records in the state the recoveries of the outbox not recorded yet, with the numbers each
  /// cost a consumer whose last applied number was `last`; returns them.
  func recordRecoveries(after last: SequenceNumber?, now: Date) throws(PipelineError)
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
      state.record(found, after: last, between: previous, and: max(previous, instant))
    }
  }
}
