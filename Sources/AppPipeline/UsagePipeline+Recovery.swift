import Foundation
import SequenceTracking
import SharedStore
import SignalValues
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

  /// Moves the damaged outbox aside, keeping its bytes; the recovery is recorded in the
  /// outbox's recovery log, and the state records it at the end of the wake.
  func quarantineOutbox(because damage: SequenceTrackingError) throws(PipelineError) {
    do throws(SequenceTrackingError) {
      try consumer.outbox.quarantine(because: damage)
    } catch {
      throw .sequence(error)
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
