import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// The app side of the pipeline: drains the monitor extension's facts exactly once, and derives
/// from them everything a dashboard shows.
///
/// The app drives it from three places — the Darwin notification the extension posts, the app
/// coming to the foreground, and a polling tick (every `DrainCoordinator.recommendedPollInterval`
/// while the app runs) — because notifications may be dropped or coalesced, and are never
/// delivered to a suspended app. Each call to ``wake(_:now:)`` asks a `DrainCoordinator`
/// whether there is anything after the cursor (reading only the outbox's change token when
/// nothing changed) and drains if so. Then ``dashboard(for:now:)`` answers for a day, and
/// ``acknowledge(_:)`` records the alerts the app raised.
///
/// ```swift
/// let folder = try SharedFolder(directory: groupFolder)  // as the extension opens it
/// var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
/// try pipeline.wake(.foreground, now: Date())
/// let dashboard = try pipeline.dashboard(for: today, now: Date())
/// for alert in dashboard.alerts.budget { notify(alert) }
/// try pipeline.acknowledge(dashboard.alerts)
/// ```
///
/// **Exactly once.** A drain applies the facts after the cursor to the ``PipelineState`` and
/// moves the cursor in one atomic write of one key (an `OutboxConsumer`), so whatever kills the
/// app, no fact is applied twice and none is skipped. Facts evicted from the bounded outbox
/// before the app drained them are reported, never silently missing: they are
/// ``PipelineState/losses``, with their epochs. Everything the pipeline writes goes through that
/// one consumer.
///
/// **Derived, not kept.** The state keeps the facts themselves, as a set; usage, budgets,
/// health and gaps are derived from them on every dashboard, so a duplicate, late or reordered
/// fact changes nothing. Only the reward ledger's earnings and the alerts acknowledged are
/// written besides the facts, each idempotently.
public struct UsagePipeline: Sendable {
  /// The settings every dashboard is derived with.
  public let configuration: PipelineConfiguration
  /// The shared folder, as the extension's `MonitorRecorder` opened it.
  public let folder: SharedFolder
  /// The consumer of the facts' outbox, which keeps the ``PipelineState`` and the cursor.
  public let consumer: OutboxConsumer<MonitorFact, PipelineState>
  /// What the notification-and-poll hybrid was asked and decided during this process's life.
  public private(set) var coordinator = DrainCoordinator()

  let emptyAccountant: ThresholdAccountant
  private var lastHead: OutboxHead?
  private var cursor: OutboxCursor?

  /// Opens the pipeline on the shared folder, with its layout's keys.
  ///
  /// Open it at the app's launch: it also removes the temporary files that writers killed in
  /// the middle of a write left in the folder (`SharedFolder.removeTemporaryFiles()`). A
  /// monitor extension is killed often, readers ignore such files, and nothing else removes
  /// them.
  ///
  /// - Parameters:
  ///   - folder: The shared folder, opened with the layout the extension uses.
  ///   - configuration: The settings.
  /// - Throws: ``PipelineError/invalidConfiguration(field:value:requirement:)`` for invalid
  ///   settings, ``PipelineError/signals(_:)`` when a leftover file cannot be removed, and
  ///   ``PipelineError/sequence(_:)`` when the layout's state key is the outbox's.
  /// - Complexity: O(*n*) in the files of the folder.
  public init(folder: SharedFolder, configuration: PipelineConfiguration) throws(PipelineError) {
    guard configuration.retentionDays >= 32 else {
      throw .invalidConfiguration(
        field: "retentionDays", value: "\(configuration.retentionDays)",
        requirement: "at least 32, so that a month's budget can be derived")
    }
    do throws(BudgetMathError) {
      _ = try BudgetAlertState(thresholds: configuration.alertThresholds)
    } catch {
      throw .invalidConfiguration(
        field: "alertThresholds", value: "\(configuration.alertThresholds)",
        requirement: error.description)
    }
    do throws(UsageModelError) {
      try MonitoringRegistration.validate(configuration.registrations)
    } catch {
      throw .invalidConfiguration(
        field: "registrations", value: "\(configuration.registrations.count) registrations",
        requirement: error.description)
    }
    do throws(UsageModelError) {
      emptyAccountant = try ThresholdAccountant(
        timeZone: configuration.timeZone, tolerance: configuration.thresholdTolerance)
    } catch {
      throw .invalidConfiguration(
        field: "thresholdTolerance", value: "\(configuration.thresholdTolerance)",
        requirement: error.description)
    }
    do throws(SequenceTrackingError) {
      consumer = try OutboxConsumer(
        outbox: folder.outbox, store: folder.store, key: folder.layout.appStateKey,
        initialState: PipelineState(ledger: RewardLedger(rate: configuration.exchangeRate)))
    } catch {
      throw .sequence(error)
    }
    do throws(TrackerSignalsError) {
      try folder.removeTemporaryFiles()
    } catch {
      throw .signals(error)
    }
    self.configuration = configuration
    self.folder = folder
  }

  // MARK: - Draining

  /// Drains the outbox if the coordinator says there is anything to drain, then settles the
  /// state (retention, reward earnings).
  ///
  /// Call it when the extension's notification arrives, when the app comes to the foreground,
  /// and on each polling tick. When nothing changed since the last call, it reads only the
  /// outbox's change token.
  ///
  /// - Parameters:
  ///   - trigger: What woke the app.
  ///   - now: The current instant; facts older than the retention before it are dropped. A
  ///     `now` earlier than the last call's (a clock set back) drops less, never more, and
  ///     drops nothing at all when it is not a number or before 0001-01-03.
  /// - Returns: What the coordinator decided and what the drain applied.
  /// - Throws: ``PipelineError``. A drain is one atomic write: when it fails nothing of it was
  ///   applied — except after ``PipelineError/sequence(_:)`` with
  ///   `SequenceTrackingError.notDurable`, when the batch was applied but may not survive a power
  ///   cut. A failure after a drain (settling the retention and rewards, recording an
  ///   undecodable entry) leaves the drained facts applied; the next wake that drains settles
  ///   again. Rewards are settled only by a wake that drains: a threshold confirmed after its
  ///   burst window has passed is credited at the next one.
  @discardableResult
  public mutating func wake(_ trigger: DrainTrigger, now: Date) throws(PipelineError)
    -> PipelineDrain
  {
    let decision: DrainDecision
    do throws(SequenceTrackingError) {
      lastHead = try consumer.outbox.head(reusing: lastHead)
      let known: OutboxCursor
      if let cursor {
        known = cursor
      } else {
        known = try consumer.record().cursor
      }
      decision = coordinator.decide(trigger, head: lastHead?.number, cursor: known)
    } catch {
      throw .sequence(error)
    }
    guard decision.shouldDrain else {
      return PipelineDrain(decision: decision, applied: 0, lost: nil, reset: nil)
    }
    let batch = try drainPassingOverUndecodable()
    cursor = batch.cursor
    try settle(now: now)
    return PipelineDrain(
      decision: decision, applied: batch.entries.count, lost: batch.lost, reset: batch.reset)
  }

  /// Drains; an entry that never decodes (written by a newer extension) is passed over and
  /// recorded in ``PipelineState/undecodable``.
  ///
  /// Passing over an entry and recording it are two writes: a kill between them leaves the
  /// entry unrecorded as undecodable, and the next fact drained then reports its number as lost.
  private func drainPassingOverUndecodable() throws(PipelineError) -> OutboxBatch<MonitorFact> {
    var applied: [SequencedEntry<MonitorFact>] = []
    var lost: SequenceRange?
    var reset: SequenceResetReason?
    // Each pass applies or passes over at least one entry, so the outbox's capacity bounds the
    // passes; the bound guards against an outbox that keeps changing underneath.
    for _ in 0...consumer.outbox.capacity {
      let undecodable: SequenceNumber
      do throws(SequenceTrackingError) {
        let batch = try consumer.drain { state, entry in state.apply(entry) }
        return OutboxBatch(
          entries: applied + batch.entries, lost: lost ?? batch.lost, reset: reset ?? batch.reset,
          cursor: batch.cursor, head: batch.head)
      } catch .payloadDecoding(_, let number, _, _) {
        undecodable = number
      } catch {
        throw .sequence(error)
      }
      let batch: OutboxBatch<MonitorFact>
      do throws(SequenceTrackingError) {
        batch = try consumer.skip(through: undecodable) { state, entry in state.apply(entry) }
      } catch {
        throw .sequence(error)
      }
      if batch.cursor.last == undecodable {
        try updateState { state throws(PipelineError) in state.passOver(undecodable) }
      }
      applied += batch.entries
      lost = lost ?? batch.lost
      reset = reset ?? batch.reset
    }
    do throws(SequenceTrackingError) {
      let batch = try consumer.drain { state, entry in state.apply(entry) }
      return OutboxBatch(
        entries: applied + batch.entries, lost: lost ?? batch.lost, reset: reset ?? batch.reset,
        cursor: batch.cursor, head: batch.head)
    } catch {
      throw .sequence(error)
    }
  }

  /// Drops what is past the retention and credits the reward ledger with the usage so far.
  ///
  /// One atomic write, idempotent, so a kill before it loses nothing; nothing is written when
  /// there is nothing to drop or credit.
  private func settle(now: Date) throws(PipelineError) {
    let snapshot = try state()
    // A retention longer than the supported instants reach (a planted configuration may ask
    // for Int.max days) keeps everything: the cutoff saturates before the earliest instant.
    let (retention, overflow) = Int64(configuration.retentionDays).multipliedReportingOverflow(
      by: 86_400_000)
    let span = Milliseconds.latest - Milliseconds.earliest
    let cutoff = Milliseconds.clampedInstant(now) - (overflow ? span : min(retention, span))
    let cutoffDay = Self.day(before: cutoff, in: configuration.boundary)
    let expired = snapshot.hasExpired(before: cutoff, day: cutoffDay)
    var credits = emptyAccountant
    if configuration.rewards != nil {
      credits =
        FactDerivation.derive(
          snapshot.facts, configuration: configuration, accountant: emptyAccountant
        ).accountant(for: configuration.rewardBound)
    }
    let asOf = Milliseconds.date(Milliseconds.clampedInstant(now))
    guard expired || snapshot.owesCredit(for: credits, configuration: configuration, asOf: asOf)
    else {
      return
    }
    try updateState { state throws(PipelineError) in
      state.prune(before: cutoff, day: cutoffDay)
      try state.credit(credits, configuration: configuration, asOf: asOf)
    }
  }

  /// The local day before the one containing `instant`: budget alert windows that ended before
  /// it are forgotten.
  ///
  /// A cutoff before the supported instants (a retention longer than they reach) gives the
  /// first supported day, before which no window can end.
  static func day(before instant: Int64, in boundary: DayBoundary) -> LocalDay {
    let supported = min(max(instant, Milliseconds.earliest), Milliseconds.latest)
    let day = boundary.day(containingSupported: supported)
    return day.dayNumber > LocalDay.supportedDayNumbers.lowerBound ? day.advanced(by: -1) : day
  }

  /// The state, as last drained.
  ///
  /// - Returns: The state; the initial one before the first drain.
  /// - Throws: ``PipelineError/sequence(_:)``, including a state that does not decode (it is
  ///   never replaced behind your back).
  public func state() throws(PipelineError) -> PipelineState {
    do throws(SequenceTrackingError) {
      return try consumer.record().state
    } catch {
      throw .sequence(error)
    }
  }

  /// Changes the state in one atomic write of the consumer's record, leaving the cursor alone.
  func updateState<Result>(
    _ change: (inout PipelineState) throws(PipelineError) -> Result
  ) throws(PipelineError) -> Result {
    let outcome: Swift.Result<Result, PipelineError>
    do throws(SequenceTrackingError) {
      outcome = try consumer.updateState(change)
    } catch {
      throw .sequence(error)
    }
    return try outcome.get()
  }
}

/// What one ``UsagePipeline/wake(_:now:)`` did.
public struct PipelineDrain: Sendable, Hashable {
  /// Whether the coordinator decided to drain, and why.
  public let decision: DrainDecision
  /// How many facts were applied.
  public let applied: Int
  /// The numbers evicted from the outbox before the app read them, if any.
  public let lost: SequenceRange?
  /// Why the cursor's position no longer applied, if the outbox was reset.
  public let reset: SequenceResetReason?
}
