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
  /// Call it on a copy of the pipeline when `body` changes the pipeline itself.
  ///
  /// - Parameters:
  ///   - now: The instant the recoveries are dated (milliseconds).
  ///   - recoveries: The recoveries made, appended to.
  ///   - body: The operation.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` throws when it is not damage, or is damage of a key healed already in
  ///   this call; ``PipelineError/store(_:)`` when a quarantine or a rebuild fails.
  func healing<Result>(
    now: Int64, into recoveries: inout [PipelineRecovery],
    _ body: () throws(PipelineError) -> Result
  ) throws(PipelineError) -> Result {
    var healed: Set<String> = []
    var unrecorded: [PipelineRecovery] = []
    var failure: PipelineError?
    while true {
      if let error = failure {
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
            throw original
          }
          throw original
        }
        healed.insert(key)
        let (recovery, rebuildFailure) = try recover(file, key: key, damage: error, now: now)
        unrecorded.append(recovery)
        // A rebuild that met another damaged file heals that one next.
        failure = rebuildFailure
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
  private func record(
    _ unrecorded: inout [PipelineRecovery], into recoveries: inout [PipelineRecovery]
  ) throws(PipelineError) {
    guard !unrecorded.isEmpty else { return }
    let rebuiltLedger = unrecorded.contains { $0.file == .ledger }
    let mark = rebuiltLedger ? try ledgerPosition() : nil
    let pending = unrecorded
    try updateState { state throws(PipelineError) in
      for recovery in pending { state.record(recovery) }
      if rebuiltLedger { state.ledgerMark = mark }
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

  /// Quarantines `key` and rebuilds what it held.
  ///
  /// - Returns: The recovery, and the error its rebuild failed with, if it did: then the
  ///   recovery reports everything the file held as not rebuilt.
  /// - Throws: ``PipelineError/store(_:)`` when the quarantine fails.
  private func recover(
    _ file: PipelineRecovery.File, key: String, damage: PipelineError, now: Int64
  ) throws(PipelineError) -> (PipelineRecovery, PipelineError?) {
    // What still reads of a log that went back, or holds a record that does not decode, is kept.
    let survivors = file == .facts || file == .starts ? salvage(key) : []
    let keptAt: String?
    do throws(SharedStoreError) {
      keptAt = try folder.store.quarantine(key)
    } catch {
      throw .store(error)
    }
    let outbox = outboxFacts()
    var unrebuilt: [PipelineRecovery.Loss]
    var failure: PipelineError?
    do throws(PipelineError) {
      unrebuilt = try rebuild(
        file, key: key, survivors: survivors, outbox: outbox, now: now)
    } catch {
      failure = error
      unrebuilt = Self.everything(of: file, key: key, layout: folder.layout, now: now)
    }
    if file == .state {
      unrebuilt.insert(
        contentsOf: [outbox.unknown.map(PipelineRecovery.Loss.deliveries)].compactMap { $0 }, at: 0)
    }
    let recovery = PipelineRecovery(
      file: file, key: key, damage: damage.description, keptAt: keptAt, at: now,
      unrebuilt: unrebuilt)
    return (recovery, failure)
  }

  /// Rebuilds the (quarantined) `file`; returns what it could not rebuild.
  private func rebuild(
    _ file: PipelineRecovery.File, key: String, survivors: [MonitorFact],
    outbox: (facts: [MonitorFact], unknown: SequenceRange?), now: Int64
  ) throws(PipelineError) -> [PipelineRecovery.Loss] {
    switch file {
    case .state:
      // Nothing to write: the next drain applies the outbox from its start again, and the
      // facts it appends to the day logs are read as a set.
      return [.acknowledgedAlerts]
    case .facts:
      return try rebuildFacts(key: key, survivors: survivors, outbox: outbox.facts)
    case .starts:
      return try rebuildStarts(from: survivors + outbox.facts, now: now)
    case .summaries:
      // The next wake summarises again every closed day whose facts are kept.
      let first = try journal.days().first
      let before = first.map {
        configuration.boundary.day(
          containingSupported: Int64($0.dayNumber) * FactJournal.dayMilliseconds
        ).advanced(by: 1)
      }
      return [
        .daySummaries(before: before ?? configuration.boundary.day(containingSupported: now))
      ]
    case .ledger:
      try rebuildLedger(now: now)
      return [.ledgerTransactions(before: Milliseconds.date(now))]
    }
  }

  /// Everything `file` held, as losses: what a recovery reports when its rebuild failed.
  private static func everything(
    of file: PipelineRecovery.File, key: String, layout: SharedFolderLayout, now: Int64
  ) -> [PipelineRecovery.Loss] {
    switch file {
    case .state:
      return [.acknowledgedAlerts]
    case .facts:
      guard case .appFacts(let day)? = layout.content(of: key) else { return [] }
      let start = Int64(day.dayNumber) * FactJournal.dayMilliseconds
      return [
        .facts(
          from: Milliseconds.date(start),
          to: Milliseconds.date(start + FactJournal.dayMilliseconds))
      ]
    case .starts:
      return [.intervalStarts(before: Milliseconds.date(now))]
    case .summaries:
      return [.daySummaries(before: FactJournal.utcDay(of: now).advanced(by: 1))]
    case .ledger:
      return [.ledgerTransactions(before: Milliseconds.date(now))]
    }
  }

  // MARK: - Files gone back

  /// Checks that no file of the app side went back without an error.
  ///
  /// The day log of the last fact applied must still hold it, a state with nothing applied must
  /// have no day logs beside it, and the ledger must hold what it held after the app's last
  /// transaction: a log truncated, rolled back to an older copy or removed reads without an
  /// error, and would otherwise lose its facts silently. A day the
  /// retention before `now` (milliseconds) may have removed is not checked.
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
      let key = folder.layout.appFactsKey(of: day)
      throw .store(
        .corrupted(
          key: key, path: key,
          reason: "it no longer holds the last fact applied, \(last.number) at "
            + "\(ISO8601Instant.format(instant)): it was truncated, rolled back or removed"))
    }
    guard state.recoveries.isEmpty, state == PipelineState(),
      let first = try journal.days().first
    else { return }
    let key = folder.layout.appStateKey
    throw .store(
      .corrupted(
        key: key, path: key,
        reason: "it was removed or replaced by an empty one while the facts of \(first) and "
          + "later remain"))
  }

  /// Checks that the reward ledger's log holds at least what it held after the app's last own
  /// transaction (``PipelineState/ledgerMark``), and that it reads and folds.
  ///
  /// - Throws: ``PipelineError/store(_:)`` with `SharedStoreError.corrupted` naming the ledger
  ///   when it was cut short, rolled back, removed or replaced, and the errors of a ledger that
  ///   does not read or fold.
  func checkLedgerWentBack(_ state: PipelineState) throws(PipelineError) {
    if let mark = state.ledgerMark {
      let position = try ledgerPosition()
      guard let position, position.identity == mark.identity, position.next >= mark.next else {
        let key = folder.layout.appLedgerKey
        throw .store(
          .corrupted(
            key: key, path: key,
            reason: "it holds less than after the app's last transaction (position \(mark.next)): "
              + "it was cut short, rolled back, removed or replaced"))
      }
    }
    // Folded before anything is drained: a ledger found damaged is rebuilt from the facts
    // drained before, and the facts drained next are credited as usual. Cached: O(1) when
    // the log did not change.
    _ = try ledgerJournal.fold()
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

  // MARK: - Rebuilding

  /// The facts the outbox holds, drained or not, each decodable one; and the numbers before the
  /// oldest of them in its epoch, which a rebuilt state cannot vouch for.
  ///
  /// An outbox that cannot be read gives no facts: the rebuild then reports everything it could
  /// not bring back, and the outbox's own error reaches the caller at the next drain.
  private func outboxFacts() -> (facts: [MonitorFact], unknown: SequenceRange?) {
    var facts: [MonitorFact] = []
    var first: SequenceNumber?
    var head: SequenceNumber?
    var cursor = OutboxCursor()
    // Each pass reads to the end or passes over one undecodable entry; the capacity bounds them.
    for _ in 0...consumer.outbox.capacity {
      var undecodable: SequenceNumber?
      let batch: OutboxBatch<MonitorFact>
      do throws(SequenceTrackingError) {
        batch = try peek(after: cursor, undecodable: &undecodable)
      } catch {
        break  // unreadable: nothing to rebuild from
      }
      first = first ?? [batch.entries.first?.number, undecodable].compactMap { $0 }.first
      facts += batch.entries.map(\.payload)
      head = batch.head
      guard undecodable != nil, batch.cursor != cursor else { break }
      cursor = batch.cursor
    }
    let unknown: SequenceRange?
    if let first {
      unknown =
        first.value > 1 ? SequenceRange(epoch: first.epoch, values: 1...(first.value - 1)) : nil
    } else if let head, head.value >= 1 {
      unknown = SequenceRange(epoch: head.epoch, values: 1...head.value)
    } else {
      unknown = nil
    }
    return (facts, unknown)
  }

  /// The facts of the log `key` that still read: every record that decodes, when the log
  /// itself reads; none when it does not.
  private func salvage(_ key: String) -> [MonitorFact] {
    let snapshot: LogSnapshot?
    do throws(SharedStoreError) {
      snapshot = try folder.store.readLog(key)
    } catch {
      return []  // damaged as a whole: nothing reads, and the recovery reports the loss
    }
    let decoder = JSONDecoder()
    var facts: [MonitorFact] = []
    for record in snapshot?.records ?? [] {
      do {
        facts.append(try decoder.decodeStored(MonitorFact.self, from: record.bytes))
      } catch {
        continue  // the record stays in the quarantined file
      }
    }
    return facts
  }

  /// Appends to the (quarantined, now empty) log `key` the facts of its UTC day that still read
  /// in it and those the outbox holds; returns the stretch of the day between the last one that
  /// read and the outbox's oldest, whose facts are lost.
  private func rebuildFacts(
    key: String, survivors: [MonitorFact], outbox: [MonitorFact]
  ) throws(PipelineError) -> [PipelineRecovery.Loss] {
    guard case .appFacts(let day)? = folder.layout.content(of: key) else { return [] }
    // The starts' log holds a copy of the day's interval starts: without them, the day's events
    // would belong to no interval.
    var starts: [MonitorFact] = []
    do throws(PipelineError) {
      starts = try journal.starts().filter { FactJournal.utcDay(of: $0.instant) == day }
    } catch {
      // A damaged starts' log is healed when it is read next; the day is rebuilt without it.
    }
    let kept = (survivors + starts).filter { FactJournal.utcDay(of: $0.instant) == day }
    try journal.append(kept + outbox.filter { FactJournal.utcDay(of: $0.instant) == day })
    let start = Int64(day.dayNumber) * FactJournal.dayMilliseconds
    let end = start + FactJournal.dayMilliseconds
    let from =
      survivors.filter { FactJournal.utcDay(of: $0.instant) == day }.map {
        $0.instant + 1
      }.max() ?? start
    let to = min(outbox.map(\.instant).min() ?? end, end)
    guard to > from else { return [] }
    return [.facts(from: Milliseconds.date(from), to: Milliseconds.date(to))]
  }

  /// Appends to the starts' log the `intervalDidStart` facts of the day logs and the outbox;
  /// returns the instant before which starts may be lost.
  private func rebuildStarts(from outbox: [MonitorFact], now: Int64) throws(PipelineError)
    -> [PipelineRecovery.Loss]
  {
    let days = try journal.days()
    var facts = outbox
    if let first = days.first, let last = days.last {
      facts += try journal.facts(from: first, through: last).facts
    }
    let starts = PipelineState.sortedSet(facts.filter { $0.callback == .intervalDidStart })
    if !starts.isEmpty {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      var records: [Data] = []
      for start in starts {
        do {
          records.append(try encoder.encode(start))
        } catch {
          throw .store(
            .encoding(key: folder.layout.appStartsKey, type: "MonitorFact", description: "\(error)")
          )
        }
      }
      do throws(SharedStoreError) {
        try folder.store.append(
          records, toLog: folder.layout.appStartsKey, capacity: FactJournal.startsCapacity)
      } catch {
        throw .store(error)
      }
    }
    let kept = [
      days.first.map { Int64($0.dayNumber) * FactJournal.dayMilliseconds },
      outbox.map(\.instant).min(),
    ].compactMap { $0 }.min()
    return [.intervalStarts(before: Milliseconds.date(kept ?? now))]
  }

  /// Credits the (quarantined, now empty) reward ledger with the usage of the facts kept, and
  /// expires it at once: what was redeemed before is unknown, so nothing of it is paid again.
  private func rebuildLedger(now: Int64) throws(PipelineError) {
    guard configuration.rewards != nil else { return }
    let today = configuration.boundary.day(containingSupported: now)
    let first = LocalDay(
      uncheckedDayNumber: max(
        LocalDay.supportedDayNumbers.lowerBound,
        today.dayNumber - min(configuration.retentionDays, 400) + 1))
    let window = try window(for: first...today, now: now)
    let usage = derive(window).accountant(for: configuration.rewardBound)
    let asOf = Milliseconds.date(now)
    try ledgerJournal.update { fold throws(PipelineError) in
      try fold.credit(
        usage, intervalsFrom: window.from, configuration: configuration, asOf: asOf)
      let balance = fold.ledger.balance
      guard balance.xp > 0 || balance.available > .zero else { return }
      do throws(BudgetMathError) {
        try fold.ledger.apply(fold.ledger.expiryOfEverything(id: "recovery:\(now)", at: asOf))
      } catch {
        throw .budget(error)
      }
    }
  }
}
