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
/// delivered to a suspended app. Each call to ``wake(_:now:)`` asks a
/// ``/SequenceTracking/DrainCoordinator`` whether there is anything after the cursor (reading only
/// the outbox's change token when nothing changed) and drains if so. Then ``dashboard(for:now:)``
/// answers for a day, and ``acknowledge(_:)`` records the alerts the app raised.
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
/// moves the cursor in one atomic write of one key (an ``/SequenceTracking/OutboxConsumer``), so
/// whatever kills the app, no fact is applied twice and none is skipped. Facts evicted from the
/// bounded outbox before the app drained them are reported, never silently missing: they are
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
  /// The shared folder, as the extension's ``/TrackerSignals/MonitorRecorder`` opened it.
  public let folder: SharedFolder
  /// The consumer of the facts' outbox, which keeps the ``PipelineState`` and the cursor.
  public let consumer: OutboxConsumer<MonitorFact, PipelineState>
  /// What the notification-and-poll hybrid was asked and decided during this process's life.
  public private(set) var coordinator = DrainCoordinator()

  let emptyAccountant: ThresholdAccountant
  /// The facts drained, in the folder's per-day logs.
  let journal: FactJournal
  /// The reward ledger, in its log.
  let ledgerJournal: LedgerJournal
  /// The configuration's digest, which the summaries of past days record.
  let configurationDigest: String?
  private var lastHead: OutboxHead?
  /// The cursor after the last drain of this process, if any.
  var cursor: OutboxCursor?
  /// When the last fact applied before the last drain of this process ran, in milliseconds.
  var appliedBeforeLastDrain: Int64?
  /// The last number applied before the last drain of this process, as the stored cursor said
  /// when it began — by any app process, unlike ``cursor``; `nil` when no drain ran in the
  /// current wake.
  var appliedNumberBeforeLastDrain: SequenceNumber?

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
        initialState: PipelineState())
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
    journal = FactJournal(store: folder.store, layout: folder.layout)
    ledgerJournal = LedgerJournal(
      store: folder.store, key: folder.layout.appLedgerKey,
      newLedgerRate: configuration.exchangeRate,
      cache: journal.cache)
    configurationDigest = configuration.digest
  }

  // MARK: - Draining

  /// Drains the outbox if the coordinator says there is anything to drain, then settles the
  /// state (retention, reward earnings).
  ///
  /// Call it when the extension's notification arrives, when the app comes to the foreground,
  /// and on each polling tick. When nothing changed since the last call, it reads only the
  /// outbox's change token.
  ///
  /// **It heals the app side's files.** A file of the app's state that is damaged, or that went
  /// back without an error (cut short, rolled back, removed), is quarantined — its bytes kept —
  /// rebuilt from the facts still in the outbox and the day logs, and reported in
  /// ``PipelineDrain/recoveries`` and ``PipelineState/recoveries`` with what could not be
  /// rebuilt (``PipelineRecovery``); then the wake goes on. An I/O error is thrown as it is, and
  /// nothing is quarantined for it.
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
  ///   cut; with `CommittedChange.movedAside`, a damaged outbox was moved aside, and the wake
  ///   drained if a drain was due and recorded the ended epoch in the state before throwing it.
  ///   A failure after a drain (settling the retention and rewards, recording an undecodable
  ///   entry) leaves the drained facts applied; the next wake that drains settles again. A wake
  ///   that moved the outbox aside records the ended epoch before it throws any later failure.
  ///   Rewards are settled only by a wake that drains: a threshold confirmed after its burst
  ///   window has passed is credited at the next one. A damaged file of the app side is
  ///   not thrown but healed — unless the same file is damaged again within the call, or a
  ///   quarantine or rebuild fails (then ``PipelineError/store(_:)``; with the store's
  ///   `notDurable`, the file was moved, rebuilt and recorded, but the move may not survive a
  ///   power cut, and the step of the wake that found it did not run: the next wake does).
  @discardableResult
  public mutating func wake(_ trigger: DrainTrigger, now: Date) throws(PipelineError)
    -> PipelineDrain
  {
    // Read before the drain, as a hint: a state that cannot be read now is healed by the drain.
    let before = (try? appliedNumber()) ?? nil
    appliedNumberBeforeLastDrain = nil
    let drain: PipelineDrain
    var healed = false
    var unflushedMove: PipelineError?
    do throws(PipelineError) {
      drain = try drainIfDue(trigger, now: now)
    } catch {
      // A damaged outbox is moved aside (its bytes kept) and the wake goes on; the extension's
      // next fact starts a new epoch.
      guard damage(in: error) != nil else { throw error }
      do throws(PipelineError) {
        try quarantineOutbox()
      } catch {
        // Moved aside and recorded, but perhaps not past a power cut: the wake goes on, records
        // the ended epoch in the state as after any move, and then throws it. Thrown here, an
        // app that never drained would not learn of the epoch at its next wake.
        guard case .sequence(.notDurable(.movedAside, _, _, _)) = error else { throw error }
        unflushedMove = error
      }
      healed = true
      lastHead = nil
      do throws(PipelineError) {
        drain = try drainIfDue(trigger, now: now)
      } catch {
        // The outbox is aside: its ended epoch is recorded before the drain's failure is thrown,
        // for no later wake learns of it when this one committed into the new epoch or never
        // drained. A failure to record it is not thrown over the drain's own.
        do throws(PipelineError) {
          _ = try recordEndedEpochs(before: before, now: now)
        } catch {}
        throw error
      }
    }
    if case .wentBackwards(let applied)? = drain.reset, let before, applied == before.value,
      let head = lastHead?.number, head.epoch == before.epoch,
      applied <= head.value || applied - head.value <= UInt64(consumer.outbox.capacity)
    {
      // The outbox and its mark went back together: the extension numbers on after what this
      // app applied instead of handing those numbers out again. Not further than a capacity:
      // a cursor that far ahead is not evidence enough to make the extension start a new epoch.
      consumer.outbox.markHandedOut(through: before)
    }
    guard healed || drain.crossedEpochs else { return drain }
    let reported = drain.reporting(try recordEndedEpochs(before: before, now: now))
    if let unflushedMove { throw unflushedMove }
    return reported
  }

  /// Records in the state the outbox's epochs that ended, with the numbers each cost; returns
  /// them.
  ///
  /// The numbers an ended epoch cost are those after the last one applied by any app process:
  /// this process's own cursor (`before`, read before the wake's drain) may be older than
  /// another's drains (the app and its widget). The stored cursor is the drain's, or read now
  /// when the wake healed and drained nothing.
  private mutating func recordEndedEpochs(before: SequenceNumber?, now: Date)
    throws(PipelineError) -> [OutboxRecovery]
  {
    var stored = appliedNumberBeforeLastDrain
    if stored == nil { stored = try storedAppliedNumber() }
    return try recordRecoveries(after: [before, stored].compactMap { $0 }, now: now)
  }

  /// Drains the outbox if the coordinator says there is anything to drain, then settles the
  /// state: ``wake(_:now:)`` without its recovery.
  private mutating func drainIfDue(_ trigger: DrainTrigger, now: Date) throws(PipelineError)
    -> PipelineDrain
  {
    // Each step heals the app side's damaged files it finds (see `PipelineRecovery`); the
    // healing runs on a copy, since the steps change this pipeline.
    let healer = self
    let instant = Milliseconds.clampedInstant(now)
    var recoveries: [PipelineRecovery] = []
    let decision = try healer.healing(now: instant, into: &recoveries) {
      () throws(PipelineError) -> DrainDecision in
      try decide(trigger)
    }
    guard decision.shouldDrain else {
      return PipelineDrain(
        decision: decision, applied: 0, lost: nil, reset: nil, recoveries: recoveries)
    }
    let (batch, previous, appliedNumber) = try healer.healing(now: instant, into: &recoveries) {
      () throws(PipelineError) in
      try healer.checkFilesWentBack(now: instant)
      return try healer.drainPassingOverUndecodable()
    }
    cursor = batch.cursor
    appliedBeforeLastDrain = previous
    appliedNumberBeforeLastDrain = appliedNumber
    // Credits are settled over the days from the last fact of the previous drain on: the
    // intervals that were current then may have been confirmed since.
    let earliest = ([previous].compactMap { $0 } + batch.entries.map(\.payload.instant)).min()
    let drained = recoveries.count
    try healer.healing(now: instant, into: &recoveries) { () throws(PipelineError) in
      try healer.settle(now: now, since: earliest)
    }
    // A state rebuilt while settling starts from the outbox's start again: the next wake reads
    // its cursor.
    if recoveries[drained...].contains(where: { $0.file == .state }) { cursor = nil }
    // Numbers a rebuilt state cannot vouch for are reported by its recovery, not as lost.
    let unknown = recoveries.flatMap(\.unrebuilt).compactMap { loss -> SequenceRange? in
      if case .deliveries(let range) = loss { return range }
      return nil
    }
    let lost = batch.lost.flatMap { lost in
      unknown.contains {
        $0.epoch == lost.epoch && $0.values.lowerBound <= lost.values.lowerBound
          && lost.values.upperBound <= $0.values.upperBound
      } ? nil : lost
    }
    return PipelineDrain(
      decision: decision, applied: batch.entries.count, lost: lost, reset: batch.reset,
      recoveries: recoveries)
  }

  /// Asks the coordinator whether to drain, reading the stored cursor when this process does not
  /// know it.
  private mutating func decide(_ trigger: DrainTrigger) throws(PipelineError) -> DrainDecision {
    do throws(SequenceTrackingError) {
      lastHead = try consumer.outbox.head(reusing: lastHead)
      let known: OutboxCursor
      if let cursor {
        known = cursor
      } else {
        known = try consumer.record().cursor
      }
      return coordinator.decide(trigger, head: lastHead?.number, cursor: known)
    } catch {
      throw .sequence(error)
    }
  }

  /// Drains; an entry that never decodes (written by a newer extension) is passed over and
  /// recorded in ``PipelineState/undecodable``.
  ///
  /// Each step writes, then commits: the facts read from the outbox are appended to the
  /// folder's per-day logs (``FactJournal``), and only then is the cursor moved past them
  /// (`OutboxConsumer.drain(through:_:)`), so a kill in between leaves them to the next drain,
  /// which appends them again — the logs are read as a set. Before the first drain appends a
  /// fact, it writes in the state that a drain began (`PipelineState.drainBegan`), so that a
  /// state with nothing else in it beside the day logs is not taken for a removed one
  /// meanwhile.
  /// Passing over an entry and recording it are two writes: a kill between them leaves the
  /// entry unrecorded as undecodable, and the next fact drained then reports its number as lost.
  private func drainPassingOverUndecodable() throws(PipelineError)
    -> (batch: OutboxBatch<MonitorFact>, previous: Int64?, appliedNumber: SequenceNumber?)
  {
    var previous: Int64?
    var appliedNumber: SequenceNumber?
    var applied: [SequencedEntry<MonitorFact>] = []
    var lost: SequenceRange?
    var reset: SequenceResetReason?
    var cursor: OutboxCursor?
    var head: SequenceNumber?
    // Each pass commits, passes over or finds nothing, and the outbox's capacity bounds the
    // entries to commit or pass over; the bound guards against an outbox that keeps changing
    // underneath.
    for pass in 0...consumer.outbox.capacity {
      let step = try drainStep()
      if pass == 0 { (previous, appliedNumber) = (step.previous, step.stored.last) }
      applied += step.batch.entries
      lost = lost ?? step.batch.lost
      reset = reset ?? step.batch.reset
      cursor = step.batch.cursor
      head = step.batch.head
      guard step.again else { break }
    }
    let batch = OutboxBatch(
      entries: applied, lost: lost, reset: reset, cursor: cursor ?? OutboxCursor(), head: head)
    return (batch, previous, appliedNumber)
  }

  /// One write-then-commit step of a drain: what it committed, whether there may be more, the
  /// instant of the last fact applied before it, and the stored cursor it began from.
  private func drainStep() throws(PipelineError)
    -> (batch: OutboxBatch<MonitorFact>, again: Bool, previous: Int64?, stored: OutboxCursor)
  {
    let stored: OutboxCursor
    let previous: Int64?
    let read: OutboxBatch<MonitorFact>
    let began: Bool
    var undecodable: SequenceNumber?
    do throws(SequenceTrackingError) {
      let record = try consumer.record()
      stored = record.cursor
      previous = record.state.lastApplied.flatMap { Milliseconds.instant($0.at) }
      began = record.state.drainBegan
      read = try peek(after: stored, undecodable: &undecodable)
    } catch {
      throw .sequence(error)
    }
    let facts = read.entries.map(\.payload)
    if !began, !facts.isEmpty {
      // Before the first facts reach the day logs: a state with nothing applied beside them
      // would otherwise read as a removed one until this drain commits — to another app
      // process meanwhile, or to the next wake after a kill (`checkFilesWentBack`). A mark
      // written but not flushed is kept: a power cut that loses it brings back only that
      // false alarm, which rebuilds the state and loses nothing.
      do throws(PipelineError) {
        try updateState { state throws(PipelineError) in state.drainBegan = true }
      } catch {
        guard case .notDurable? = error.storeError else { throw error }
      }
    }
    try journal.append(facts)
    try markStale(facts)
    let written = Set(read.entries.map(\.number))
    var unwritten: [MonitorFact] = []
    let apply = { (state: inout PipelineState, entry: SequencedEntry<MonitorFact>) in
      // Only an entry this step did not read can be unwritten: the record was rolled back
      // underneath. It is written just after the commit.
      if !written.contains(entry.number) { unwritten.append(entry.payload) }
      state.apply(entry)
    }
    let batch: OutboxBatch<MonitorFact>
    do throws(SequenceTrackingError) {
      if let undecodable {
        batch = try consumer.skip(through: undecodable, apply)
      } else if let last = read.entries.last {
        batch = try consumer.drain(through: last.number, apply)
      } else {
        // Nothing to read, but perhaps a cursor to realign (a new epoch, a reset outbox).
        batch = try consumer.drain(apply)
      }
    } catch {
      throw .sequence(error)
    }
    try journal.append(unwritten)
    try markStale(unwritten)
    if let undecodable, batch.cursor.last == undecodable {
      try updateState { state throws(PipelineError) in state.passOver(undecodable) }
    }
    // After passing over an entry, the ones after it are still to read. After a commit through
    // the last entry read, entries published since are left to the next wake, which the
    // extension's notification or the poll brings.
    return (batch, undecodable != nil && batch.cursor != stored, previous, stored)
  }

  /// The entries after `cursor`; when one does not decode, the entries before it, with its
  /// number in `undecodable`.
  func peek(after cursor: OutboxCursor, undecodable: inout SequenceNumber?)
    throws(SequenceTrackingError) -> OutboxBatch<MonitorFact>
  {
    do throws(SequenceTrackingError) {
      return try consumer.outbox.drain(after: cursor)
    } catch .payloadDecoding(_, let number, _, _) {
      undecodable = number
      return try consumer.outbox.drain(after: cursor, passingOver: number)
    }
  }

  /// Drops what is past the retention, summarises the days that closed, and credits the reward
  /// ledger with the usage so far.
  ///
  /// Each write is idempotent, so a kill before it loses nothing; nothing is written when there
  /// is nothing to drop, summarise or credit.
  ///
  /// - Parameters:
  ///   - now: The drain's instant.
  ///   - since: The earliest instant whose intervals are credited: the last fact of the previous
  ///     drain, or the earliest fact of this one.
  /// - Throws: ``PipelineError`` from the store.
  private func settle(now: Date, since: Int64?) throws(PipelineError) {
    let snapshot = try state()
    // A retention longer than the supported instants reach (a planted configuration may ask
    // for Int.max days) keeps everything: the cutoff saturates before the earliest instant.
    let (retention, overflow) = Int64(configuration.retentionDays).multipliedReportingOverflow(
      by: 86_400_000)
    let span = Milliseconds.latest - Milliseconds.earliest
    let instant = Milliseconds.clampedInstant(now)
    let cutoff = instant - (overflow ? span : min(retention, span))
    let cutoffDay = Self.day(before: cutoff, in: configuration.boundary)
    // Whole UTC days of facts expire; the starts a week later, while events of their
    // intervals may remain.
    try journal.remove(
      daysBefore: FactJournal.utcDay(of: cutoff),
      startsBefore: FactJournal.utcDay(of: cutoff - IntervalAttribution.longestIntervalMilliseconds)
    )
    try summarize(now: instant)
    let expired = snapshot.hasExpired(before: cutoff, day: cutoffDay)
    var credits: (usage: ThresholdAccountant, from: Int64)?
    if configuration.rewards != nil {
      // The intervals from `since` through today: those wholly within the facts read are
      // credited.
      let today = configuration.boundary.day(containingSupported: instant)
      let first = min(today, configuration.boundary.day(containingSupported: since ?? instant))
      let window = try window(for: first...today, now: instant)
      credits = (derive(window).accountant(for: configuration.rewardBound), window.from)
    }
    let asOf = Milliseconds.date(instant)
    if expired {
      try updateState { state throws(PipelineError) in state.prune(before: cutoff, day: cutoffDay) }
    }
    // The ledger lets go of what no fact left can credit again: the intervals that began before
    // the oldest start kept, and a day more.
    let cut = cutoff - IntervalAttribution.longestIntervalMilliseconds - 86_400_000
    try ledgerJournal.compact(before: cut, keepingCreditsWithin: instant - cut)
    guard let credits else { return }
    if try ledgerJournal.fold().owesCredit(
      for: credits.usage, intervalsFrom: credits.from, configuration: configuration, asOf: asOf)
    {
      try ledgerJournal.update { fold throws(PipelineError) in
        try fold.credit(
          credits.usage, intervalsFrom: credits.from, configuration: configuration, asOf: asOf)
      }
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
  /// - Throws: ``PipelineError/sequence(_:)``, including a state that does not decode: this
  ///   accessor only reads; the next ``wake(_:now:)`` or ``dashboard(for:now:)`` quarantines and
  ///   rebuilds it (see ``PipelineRecovery``).
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
  /// The app side's files this wake found damaged, moved aside and rebuilt; also recorded in
  /// ``PipelineState/recoveries``.
  public let recoveries: [PipelineRecovery]
  /// The outbox epochs this wake learnt had ended before the app reached their ends — a
  /// damaged outbox moved aside by the extension or by this wake, a vanished one — also kept
  /// in ``PipelineState/outboxRecoveries``; the numbers each cost are in
  /// ``PipelineState/losses``.
  public private(set) var outboxRecoveries: [OutboxRecovery] = []

  init(
    decision: DrainDecision, applied: Int, lost: SequenceRange?, reset: SequenceResetReason?,
    recoveries: [PipelineRecovery]
  ) {
    self.decision = decision
    self.applied = applied
    self.lost = lost
    self.reset = reset
    self.recoveries = recoveries
  }

  /// Whether the drain crossed into another epoch of the outbox.
  var crossedEpochs: Bool {
    if case .epochChanged? = reset { return true }
    return false
  }

  /// This drain, reporting `recoveries`.
  func reporting(_ recoveries: [OutboxRecovery]) -> PipelineDrain {
    var drain = self
    drain.outboxRecoveries = recoveries
    return drain
  }
}
