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
/// nothing changed) and drains if so. Then ``dashboard(for:boundary:now:)`` answers for a day.
///
/// ```swift
/// var pipeline = try UsagePipeline(directory: storeDirectory, configuration: configuration)
/// try pipeline.wake(.foreground, now: Date())
/// let dashboard = try pipeline.dashboard(for: today, boundary: boundary, now: Date())
/// for alert in dashboard.alerts { notify(alert) }
/// ```
///
/// **Exactly once.** A drain applies the facts after the cursor to the ``PipelineState`` and
/// moves the cursor in one atomic write of one key (an `OutboxConsumer`), so whatever kills the
/// app, no fact is applied twice and none is skipped. Facts evicted from the bounded outbox
/// before the app drained them are reported, never silently missing: they are
/// ``PipelineState/losses``, with their epochs.
///
/// **Derived, not kept.** The state keeps the facts themselves, as a set; usage, budgets,
/// health and gaps are derived from them on every dashboard, so a duplicate, late or reordered
/// fact changes nothing. Only the reward ledger's earnings and the alerts already raised are
/// written besides the facts, each idempotently.
public struct UsagePipeline: Sendable {
  /// The default store key of the state: `stk.pipeline.state`.
  public static let defaultStateKey = "stk.pipeline.state"

  /// The settings every dashboard is derived with.
  public let configuration: PipelineConfiguration
  /// The consumer of the facts' outbox, which keeps the ``PipelineState`` and the cursor.
  public let consumer: OutboxConsumer<MonitorFact, PipelineState>
  /// The monitor extension's heartbeats.
  public let heartbeats: HeartbeatRecorder
  /// The extension's diagnostic log, for the diagnostics report; `nil` when not given.
  public let diagnostics: DiagnosticLog?
  /// What the notification-and-poll hybrid was asked and decided during this process's life.
  public private(set) var coordinator = DrainCoordinator()

  let store: any SharedStore
  let recordKey: StoreKey<OutboxConsumerRecord<PipelineState>>
  let emptyAccountant: ThresholdAccountant
  private var lastHead: OutboxHead?
  private var cursor: OutboxCursor?

  /// Opens the pipeline on the shared store in `directory`, with the library's keys: the facts'
  /// outbox of `MonitorRecorder` and the monitor extension's heartbeats.
  ///
  /// Open it at the app's launch: it also removes the temporary files that writers killed in the
  /// middle of a write left in the directory (`FileStore.removeTemporaryFiles()`). A monitor
  /// extension is killed often, readers ignore such files, and nothing else removes them.
  ///
  /// - Parameters:
  ///   - directory: The shared store's directory, as the extension's `MonitorRecorder` opened
  ///     it.
  ///   - configuration: The settings.
  /// - Throws: ``PipelineError/store(_:)`` when a store cannot be opened or a leftover file
  ///   cannot be removed, and ``PipelineError/invalidConfiguration(field:value:requirement:)``
  ///   for invalid settings.
  /// - Complexity: O(*n*) in the files of the directory.
  public init(directory: URL, configuration: PipelineConfiguration) throws(PipelineError) {
    let store: FileStore
    let outbox: SequencedOutbox<MonitorFact>
    let heartbeats: HeartbeatRecorder
    do {
      store = try FileStore(directory: directory)
      try store.removeTemporaryFiles()
    } catch {
      throw .store(error)
    }
    do {
      outbox = try SequencedOutbox(
        store: store, key: MonitorRecorder.defaultOutboxKey,
        capacity: MonitorRecorder.defaultOutboxCapacity)
      heartbeats = try HeartbeatRecorder(directory: directory, source: .monitorExtension)
    } catch let error as SequenceTrackingError {
      throw .sequence(error)
    } catch let error as TrackerSignalsError {
      throw .signals(error)
    } catch {
      preconditionFailure("unexpected error opening the pipeline: \(error)")
    }
    try self.init(
      outbox: outbox, store: store, heartbeats: heartbeats,
      diagnostics: DiagnosticLog(store: store), configuration: configuration)
  }

  /// Opens the pipeline on stores of your choosing.
  ///
  /// For a `FileStore`, call its `removeTemporaryFiles()` at the app's launch, as
  /// ``init(directory:configuration:)`` does, so that the files of writers killed mid-write do
  /// not pile up.
  ///
  /// - Parameters:
  ///   - outbox: The facts' outbox, as the extension publishes to it.
  ///   - store: Where the state lives; the outbox's store or another.
  ///   - stateKey: The state's key; ``defaultStateKey`` unless you choose otherwise.
  ///   - heartbeats: The monitor extension's heartbeat recorder.
  ///   - diagnostics: The extension's diagnostic log, for ``diagnosticsReport(for:boundary:now:title:)``.
  ///   - configuration: The settings.
  /// - Throws: ``PipelineError/sequence(_:)`` for an invalid state key, and
  ///   ``PipelineError/invalidConfiguration(field:value:requirement:)`` for invalid settings.
  public init(
    outbox: SequencedOutbox<MonitorFact>, store: any SharedStore,
    stateKey: String = defaultStateKey, heartbeats: HeartbeatRecorder,
    diagnostics: DiagnosticLog? = nil, configuration: PipelineConfiguration
  ) throws(PipelineError) {
    guard configuration.retentionDays >= 32 else {
      throw .invalidConfiguration(
        field: "retentionDays", value: "\(configuration.retentionDays)",
        requirement: "at least 32, so that a month's budget can be derived")
    }
    do {
      emptyAccountant = try ThresholdAccountant(
        timeZone: configuration.timeZone, tolerance: configuration.thresholdTolerance)
    } catch {
      throw .invalidConfiguration(
        field: "thresholdTolerance", value: "\(configuration.thresholdTolerance)",
        requirement: error.description)
    }
    let initial = PipelineState(ledger: RewardLedger(rate: configuration.exchangeRate))
    do {
      consumer = try OutboxConsumer(
        outbox: outbox, store: store, key: stateKey, initialState: initial)
    } catch {
      throw .sequence(error)
    }
    self.configuration = configuration
    self.store = store
    self.heartbeats = heartbeats
    self.diagnostics = diagnostics
    recordKey = StoreKey(stateKey, default: OutboxConsumerRecord(cursor: .start, state: initial))
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
  /// - Throws: ``PipelineError``. After a failure nothing was applied — except after
  ///   ``PipelineError/sequence(_:)`` with `SequenceTrackingError.notDurable`, when the batch
  ///   was applied but may not survive a power cut.
  @discardableResult
  public mutating func wake(_ trigger: DrainTrigger, now: Date) throws(PipelineError)
    -> PipelineDrain
  {
    do {
      lastHead = try consumer.outbox.head(reusing: lastHead)
      let known = try cursor ?? consumer.record().cursor
      let decision = coordinator.decide(trigger, head: lastHead?.number, cursor: known)
      guard decision.shouldDrain else {
        return PipelineDrain(decision: decision, applied: 0, lost: nil, reset: nil)
      }
      let batch = try drainSkippingUndecodable()
      cursor = batch.cursor
      try settle(now: now)
      return PipelineDrain(
        decision: decision, applied: batch.entries.count, lost: batch.lost, reset: batch.reset)
    } catch let error as PipelineError {
      throw error
    } catch let error as SequenceTrackingError {
      throw .sequence(error)
    } catch {
      preconditionFailure("unexpected error while draining: \(error)")
    }
  }

  /// Drains; an entry that never decodes (written by a newer extension) is passed over and
  /// recorded in ``PipelineState/skipped``.
  ///
  /// Passing over an entry and recording it are two writes: a kill between them leaves the
  /// entry unrecorded as skipped, and the next fact drained then reports its number as lost.
  private func drainSkippingUndecodable() throws -> OutboxBatch<MonitorFact> {
    var applied: [SequencedEntry<MonitorFact>] = []
    var lost: SequenceRange?
    var reset: SequenceResetReason?
    // Each pass applies or passes over at least one entry, so the outbox's capacity bounds the
    // passes; the bound guards against an outbox that keeps changing underneath.
    for _ in 0...consumer.outbox.capacity {
      do {
        let batch = try consumer.drain { state, entry in state.apply(entry) }
        return OutboxBatch(
          entries: applied + batch.entries, lost: lost ?? batch.lost, reset: reset ?? batch.reset,
          cursor: batch.cursor, head: batch.head)
      } catch SequenceTrackingError.payloadDecoding(_, let number, _, _) {
        let batch = try consumer.skip(through: number) { state, entry in state.apply(entry) }
        if batch.cursor.last == number {
          try updateState { state throws(PipelineError) in state.skip(number) }
        }
        applied += batch.entries
        lost = lost ?? batch.lost
        reset = reset ?? batch.reset
      }
    }
    return try consumer.drain { state, entry in state.apply(entry) }
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
    let cutoffDay = Self.day(before: cutoff, in: configuration.timeZone)
    let expired = snapshot.hasExpired(before: cutoff, day: cutoffDay)
    var credits: [DerivedUsage.IntervalUsage] = []
    if configuration.rewards != nil {
      credits =
        FactDerivation.derive(
          snapshot.facts, configuration: configuration, accountant: emptyAccountant
        ).highest
    }
    guard expired || snapshot.owesCredit(for: credits, configuration: configuration) else {
      return
    }
    try updateState { state throws(PipelineError) in
      state.prune(before: cutoff, day: cutoffDay)
      try state.credit(credits, configuration: configuration)
    }
  }

  /// The local day before the one containing `instant`, in `timeZone`: budget alert windows
  /// that ended before it are forgotten.
  ///
  /// A cutoff before the supported instants (a retention longer than they reach) gives the
  /// first supported day, before which no window can end.
  static func day(before instant: Int64, in timeZone: TimeZone) -> LocalDay {
    let boundary = DayBoundary(timeZone: timeZone)
    let supported = min(max(instant, Milliseconds.earliest), Milliseconds.latest)
    do {
      let day = try boundary.day(containing: Milliseconds.date(supported))
      return day.dayNumber > LocalDay.supportedDayNumbers.lowerBound ? day.advanced(by: -1) : day
    } catch {
      // The instant is clamped into the supported range, whose days all exist.
      preconditionFailure("no local day for a supported instant: \(error)")
    }
  }

  /// The state, as last drained.
  ///
  /// - Returns: The state; the initial one before the first drain.
  /// - Throws: ``PipelineError/sequence(_:)``, including a state that does not decode (it is
  ///   never replaced behind your back).
  public func state() throws(PipelineError) -> PipelineState {
    do {
      return try consumer.record().state
    } catch {
      throw .sequence(error)
    }
  }

  // MARK: - The app's own ledger transactions

  /// Applies one of the app's own transactions to the reward ledger — a redemption, a spending
  /// session — atomically with the state.
  ///
  /// - Parameter transaction: The transaction; its identifier makes a repeat a no-op.
  /// - Returns: What the ledger did.
  /// - Throws: ``PipelineError/budget(_:)`` for a transaction the ledger rejects (an overdraft,
  ///   an unknown session), with nothing changed, and the store's errors.
  @discardableResult
  public func apply(_ transaction: LedgerTransaction) throws(PipelineError) -> LedgerApplyResult {
    try updateState { state throws(PipelineError) in
      do throws(BudgetMathError) {
        return try state.ledger.apply(transaction)
      } catch {
        throw .budget(error)
      }
    }
  }

  /// Redeems every whole unit of XP in the reward ledger for screen time, atomically with the
  /// state (seed 001: 105 XP at 10 XP a minute buy 10 minutes and keep 5 XP as credit).
  ///
  /// - Parameters:
  ///   - id: The redemption's identifier; a repeat with the same identifier changes nothing and
  ///     reports the earlier redemption.
  ///   - at: When it happens.
  /// - Returns: What was redeemed, the time bought and the XP that remain; nothing is recorded
  ///   when less than one unit is available.
  /// - Throws: ``PipelineError/budget(_:)`` for an identifier already used by another kind of
  ///   transaction, and the store's errors.
  @discardableResult
  public func redeemAll(id: String, at: Date) throws(PipelineError) -> LedgerRedemption {
    try updateState { state throws(PipelineError) in
      do throws(BudgetMathError) {
        return try state.ledger.redeemAll(id: id, at: at)
      } catch {
        throw .budget(error)
      }
    }
  }

  /// Changes the state in one atomic write of its key, leaving the cursor alone.
  func updateState<Result>(
    _ change: (inout PipelineState) throws(PipelineError) -> Result
  ) throws(PipelineError) -> Result {
    do {
      return try store.update(recordKey) { record in try change(&record.state) }
    } catch let error as PipelineError {
      throw error
    } catch let error as SharedStoreError {
      throw .store(error)
    } catch {
      preconditionFailure("unexpected error updating the pipeline state: \(error)")
    }
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
