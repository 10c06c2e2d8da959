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
  private func record(
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

  /// What a rebuild writes once the damaged file is quarantined, read before it is.
  private enum RebuildPlan {
    /// Nothing to write but the recoveries the old state lists, when it decodes: the next drain
    /// applies the outbox from its start again.
    case state(unknown: SequenceRange?, kept: [PipelineRecovery])
    /// The facts of a UTC day to append, the stretch of it that is lost, and the facts among
    /// them that no drain has applied yet.
    case facts(append: [MonitorFact], lost: (from: Int64, to: Int64)?, undrained: [MonitorFact])
    /// The interval starts to append, and the instant before which starts may be lost.
    case starts(append: [MonitorFact], before: Int64)
    /// Nothing to write: the next wake summarises again; the day before which summaries are lost.
    case summaries(before: LocalDay)
    /// The usage to credit and expire, with the start of the intervals it covers; `nil` without
    /// rewards.
    case ledger(credits: (usage: ThresholdAccountant, from: Int64)?)
  }

  /// Quarantines `key` and rebuilds what it held.
  ///
  /// What the rebuild needs is read first, while the file is still in place: another damaged
  /// file met on the way (a day log the ledger's credits read, say) is healed before this one is
  /// moved, so that no file is left quarantined and empty — a reward ledger credited again from
  /// scratch would pay twice.
  ///
  /// The move and the rebuild's writes happen in one hold of the folder's lock, after reading
  /// what the rebuild needs again there. Another app process (the app and its widget) appends
  /// to a damaged log without seeing the damage — an append reads only the newest frame — so
  /// outside a hold, a fact it drained between the read and the move went aside with the file,
  /// read by neither rebuild nor drain: lost without a report. In the hold, its append comes
  /// before the read, which finds the fact in the outbox, or after the rebuild, into the new
  /// file. The read before the hold heals the other damaged files it meets and fills the
  /// journal's cache, so that the read in the hold decodes again only the outbox, the damaged
  /// file and the day logs changed since. A ledger's credits are derived from every retained
  /// day, so they are not read again in the hold: a transaction another process makes in
  /// between is not in the rebuilt ledger — fewer XP, never more.
  ///
  /// The file is moved only if it is still damaged in the hold (``stillDamaged(_:key:found:)``):
  /// the key still names `found`, the file read before the second read that found the damage
  /// (a state is judged by what it holds instead).
  /// Another process that healed the file meanwhile left a whole rebuild, which would otherwise
  /// be moved aside and rebuilt again — for a ledger, losing the transactions made in between.
  /// Nothing is recorded for the key then, and the caller reads the healed file. The recovery,
  /// and those made on the way not recorded yet, are recorded in the state within the same hold
  /// (into `recorded`), so that the next process to take the lock finds the state naming the
  /// rebuild — unless that record fails: then they are returned, and the caller records them.
  ///
  /// - Returns: The recoveries made and not recorded yet — this one last, when its record in
  ///   the hold failed — and the error the rebuild's writes failed with, if they did: then this
  ///   recovery reports everything the file held as not rebuilt; or the error of a write after a
  ///   whole rebuild (a summary's stale mark), with the rebuild's own losses; or the
  ///   quarantine's `notDurable` (the file moved, the move perhaps not past a power cut), or the
  ///   record's.
  ///   When other files were healed on the way, a failure after them (the quarantine, the lock)
  ///   is returned with their recoveries rather than thrown, so that they are recorded.
  /// - Throws: When no other file was healed on the way: ``PipelineError/store(_:)`` when the
  ///   quarantine fails, the lock cannot be taken or the file cannot be read in the hold for a
  ///   reason that is not damage; an error that is not damage while the rebuild reads, and
  ///   damage of a key healed already (nothing moved then).
  private func recover(
    _ file: PipelineRecovery.File, key: String, damage: PipelineError, found: KeyFile,
    now: Int64, healed: inout Set<String>, recorded: inout [PipelineRecovery]
  ) throws(PipelineError) -> ([PipelineRecovery], PipelineError?) {
    var made: [PipelineRecovery] = []
    do throws(PipelineError) {
      let early = try prepared(
        file, key: key, now: now, healed: &healed, made: &made, recorded: &recorded)
      return try FolderHold.holding(folder.store) { () throws(PipelineError) in
        guard try stillDamaged(file, key: key, found: found) else { return (made, nil) }
        // Read again in the hold, but for a ledger's credits, which are derived.
        let plan: RebuildPlan
        if file == .ledger {
          plan = early
        } else {
          plan = try prepared(
            file, key: key, now: now, healed: &healed, made: &made, recorded: &recorded)
        }
        let keptAt: String?
        var failure: PipelineError?
        do throws(SharedStoreError) {
          keptAt = try folder.store.quarantine(key)
        } catch {
          // Moved, but perhaps not past a power cut: rebuilt and recorded all the same, and
          // reported. Thrown instead, it left the key empty and unrecorded — a day log that is
          // not the last applied one reads empty then, and no later check finds it.
          guard case .notDurable(_, let kept, _) = error else { throw .store(error) }
          keptAt = kept
          failure = .store(error)
        }
        var unrebuilt: [PipelineRecovery.Loss]
        do throws(PipelineError) {
          let written: PipelineError?
          (unrebuilt, written) = try write(plan, now: now)
          failure = written ?? failure
        } catch {
          failure = error
          unrebuilt = Self.everything(of: file, key: key, layout: folder.layout, now: now)
        }
        if case .state(let unknown?, _) = plan { unrebuilt.insert(.deliveries(unknown), at: 0) }
        // Recorded in the same hold, with those healed on the way that are not yet: the next
        // process to take the lock finds the state naming the rebuild (the recovery, a rebuilt
        // ledger's position), never a rebuilt ledger its checks would take for one gone back,
        // and move again.
        var pending =
          made + [
            PipelineRecovery(
              file: file, key: key, damage: damage.description, keptAt: keptAt, at: now,
              unrebuilt: unrebuilt)
          ]
        do throws(PipelineError) {
          try record(&pending, into: &recorded)
        } catch {
          // Written but perhaps not past a power cut (`notDurable`): recorded, and reported.
          // Otherwise the caller records them after the hold, and reports that failure.
          if case .notDurable? = error.storeError { failure = failure ?? error }
        }
        return (pending, failure)
      }
    } catch {
      guard !made.isEmpty else { throw error }
      return (made, error)
    }
  }

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

  /// What rebuilding `file` needs, read after healing first each other damaged file met on the
  /// way; the recoveries of those go to `recorded` when recorded in their holds, else to `made`.
  private func prepared(
    _ file: PipelineRecovery.File, key: String, now: Int64, healed: inout Set<String>,
    made: inout [PipelineRecovery], recorded: inout [PipelineRecovery]
  ) throws(PipelineError) -> RebuildPlan {
    // As `healing` does: once more before moving another file, which another process may have
    // healed since, and the file found then is the one to move.
    var suspected: [String: KeyFile] = [:]
    while true {
      do throws(PipelineError) {
        return try prepare(file, key: key, now: now)
      } catch {
        guard let (other, otherFile) = damagedFile(error), other != key,
          !healed.contains(other), healed.count < Self.recoveryLimit
        else { throw error }
        guard let found = suspected[other] else {
          suspected[other] = try keyFile(other)
          continue
        }
        healed.insert(other)
        let (more, failure) = try recover(
          otherFile, key: other, damage: error, found: found, now: now, healed: &healed,
          recorded: &recorded)
        made += more
        if let failure { throw failure }
      }
    }
  }

  /// Reads what rebuilding `file` needs.
  private func prepare(_ file: PipelineRecovery.File, key: String, now: Int64)
    throws(PipelineError) -> RebuildPlan
  {
    switch file {
    case .state:
      // The recoveries of files healed before, which no drain derives again: another process
      // may have recorded one in a state that reads as removed, which is moved aside all the
      // same (`dayBesideRemoved`).
      let kept: [PipelineRecovery]
      do throws(PipelineError) {
        kept = try state().recoveries
      } catch {
        // A state that does not decode loses its recoveries with it; an I/O error moves nothing.
        guard damagedFile(error) != nil else { throw error }
        kept = []
      }
      return .state(unknown: outboxFacts().unknown, kept: kept)
    case .facts:
      let outbox = outboxFacts()
      return try prepareFacts(
        key: key, survivors: salvage(key), drained: outbox.drained, undrained: outbox.undrained)
    case .starts:
      let outbox = outboxFacts()
      return try prepareStarts(
        from: salvage(key) + outbox.drained + outbox.undrained, now: now)
    case .summaries:
      let first = try journal.days().first
      let before = first.map {
        configuration.boundary.day(
          containingSupported: Int64($0.dayNumber) * FactJournal.dayMilliseconds
        ).advanced(by: 1)
      }
      return .summaries(before: before ?? configuration.boundary.day(containingSupported: now))
    case .ledger:
      guard configuration.rewards != nil else { return .ledger(credits: nil) }
      let today = configuration.boundary.day(containingSupported: now)
      let first = LocalDay(
        uncheckedDayNumber: max(
          LocalDay.supportedDayNumbers.lowerBound,
          today.dayNumber - min(configuration.retentionDays, 400) + 1))
      var window = try window(for: first...today, now: now)
      // Fail safe: a day log may hold facts no drain has applied yet — a rebuilt day takes the
      // outbox's undrained facts too, and a drain appends before it commits — and a ledger
      // credited and expired with them would never pay their minutes. The outbox is read after
      // the days, so that a fact another process appended in between is among its undrained
      // ones. A fact the drained ones hold too (delivered twice) stays: it was credited before,
      // and leaving it out would pay it again when its copy is drained. (A drained copy the
      // outbox evicted since is not seen: a fact published twice, to the millisecond, more
      // than a capacity of entries apart.)
      let outbox = outboxFacts()
      let undrained = Set(outbox.undrained).subtracting(outbox.drained)
      window.facts.removeAll { undrained.contains($0) }
      return .ledger(
        credits: (derive(window).accountant(for: configuration.rewardBound), window.from))
    }
  }

  /// Writes `plan` into the quarantined, now empty, key; returns what could not be rebuilt, and
  /// the error of a write after the rebuild (the stale mark of a rebuilt day's summary), which
  /// leaves the rebuild whole.
  private func write(_ plan: RebuildPlan, now: Int64) throws(PipelineError)
    -> ([PipelineRecovery.Loss], PipelineError?)
  {
    switch plan {
    case .state(_, let kept):
      if !kept.isEmpty {
        try updateState { state throws(PipelineError) in
          for recovery in kept { state.record(recovery) }
          // As the record of its recovery will: a reader that finds the rebuilt state before
          // that record must not take it for a removed one.
          state.drainBegan = true
        }
      }
      return ([.acknowledgedAlerts], nil)
    case .facts(let facts, let lost, let undrained):
      try appendFacts(facts)
      var losses: [PipelineRecovery.Loss] = []
      if let lost {
        losses.append(.facts(from: Milliseconds.date(lost.from), to: Milliseconds.date(lost.to)))
      }
      do throws(PipelineError) {
        // A summary may lack the undrained facts; their drain marks it stale as it marks any
        // late fact's, but the outbox may evict them or be moved aside first.
        try markStale(undrained)
      } catch {
        // A summaries' log that does not read is healed when it is read next, and its rebuild
        // summarises every closed day again.
        guard damagedFile(error)?.file == .summaries else { return (losses, error) }
      }
      return (losses, nil)
    case .starts(let starts, let before):
      try appendStarts(starts)
      return ([.intervalStarts(before: Milliseconds.date(before))], nil)
    case .summaries(let before):
      return ([.daySummaries(before: before)], nil)
    case .ledger(let credits):
      if let credits { try creditAndExpire(credits.usage, from: credits.from, now: now) }
      return ([.ledgerTransactions(before: Milliseconds.date(now))], nil)
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
      let key = folder.layout.appFactsKey(of: day)
      throw .store(
        .corrupted(
          key: key, path: key,
          reason: "it no longer holds the last fact applied, \(last.number) at "
            + "\(ISO8601Instant.format(instant)): it was truncated, rolled back or removed"))
    }
    guard let first = try dayBesideRemoved(state) else { return }
    let key = folder.layout.appStateKey
    throw .store(
      .corrupted(
        key: key, path: key,
        reason: "it was removed or replaced by an empty one while the facts of \(first) and "
          + "later remain"))
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
      let key = folder.layout.appLedgerKey
      throw .store(
        .corrupted(
          key: key, path: key,
          reason: "it holds less than after the app's last transaction (position \(mark.next)): "
            + "it was cut short, rolled back, removed or replaced"))
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

  // MARK: - Rebuilding

  /// The facts the outbox holds, each decodable one: those the app drained, and those after the
  /// consumer's cursor in its epoch; and the numbers before the oldest entry in its epoch, which
  /// a rebuilt state cannot vouch for.
  ///
  /// An entry of another epoch than the cursor's counts as drained, and so does every entry
  /// when the consumer's record does not read (or was just rebuilt): nothing says it was not
  /// drained, and a ledger that credits too little is safe where one that pays twice is not.
  ///
  /// A rebuilt day or starts' log takes both: another app process may have appended an undrained
  /// fact to the damaged log, to commit it after the rebuild, and the drain would never append it
  /// again. A rebuilt ledger leaves the undrained ones out: it must not credit, and expire,
  /// minutes that were never drained.
  ///
  /// An outbox that cannot be read gives no facts: the rebuild then reports everything it could
  /// not bring back, and the outbox's own error reaches the caller at the next drain.
  private func outboxFacts() -> (
    drained: [MonitorFact], undrained: [MonitorFact], unknown: SequenceRange?
  ) {
    var drained: [MonitorFact] = []
    var undrained: [MonitorFact] = []
    var first: SequenceNumber?
    var head: SequenceNumber?
    var cursor = OutboxCursor()
    var last: SequenceNumber?
    do throws(SequenceTrackingError) {
      last = try consumer.record().cursor.last
    } catch {
      last = nil  // the state is what is damaged: every fact the outbox holds
    }
    let wasDrained = { (number: SequenceNumber) in
      guard let last else { return true }
      return number.epoch != last.epoch || number.value <= last.value
    }
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
      for entry in batch.entries {
        if wasDrained(entry.number) {
          drained.append(entry.payload)
        } else {
          undrained.append(entry.payload)
        }
      }
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
    return (drained, undrained, unknown)
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

  /// The facts of the UTC day of the log `key` that still read in it, those of the starts' log
  /// and those the outbox holds, drained or not (`drained` and then `undrained`, each in number
  /// order), each once; the stretch of the day between the last one that read and the outbox's
  /// oldest entry, whose facts are lost; and the undrained ones of the day.
  private func prepareFacts(
    key: String, survivors: [MonitorFact], drained: [MonitorFact], undrained: [MonitorFact]
  ) throws(PipelineError) -> RebuildPlan {
    guard case .appFacts(let day)? = folder.layout.content(of: key) else {
      return .facts(append: [], lost: nil, undrained: [])
    }
    let onDay = { (fact: MonitorFact) in FactJournal.utcDay(of: fact.instant) == day }
    // The starts' log holds a copy of the day's interval starts: without them, the day's events
    // would belong to no interval.
    var starts: [MonitorFact] = []
    do throws(PipelineError) {
      starts = try journal.starts().filter(onDay)
    } catch {
      // A damaged starts' log is healed when it is read next; the day is rebuilt without it.
    }
    let outbox = drained + undrained
    let start = Int64(day.dayNumber) * FactJournal.dayMilliseconds
    let end = start + FactJournal.dayMilliseconds
    let from = survivors.filter(onDay).map { $0.instant + 1 }.max() ?? start
    // The facts published before the outbox's oldest entry may be lost, and that entry (the
    // first in number order) was published after them: a late fact published since, dated
    // earlier, does not shorten the stretch.
    let to = min(outbox.first?.instant ?? end, end)
    return .facts(
      append: PipelineState.sortedSet((survivors + starts + outbox).filter(onDay)),
      lost: to > from ? (from, to) : nil, undrained: undrained.filter(onDay))
  }

  /// The `intervalDidStart` facts of `facts` and of the day logs, and the instant before which
  /// starts may be lost.
  private func prepareStarts(from facts: [MonitorFact], now: Int64) throws(PipelineError)
    -> RebuildPlan
  {
    let days = try journal.days()
    var facts = facts
    if let first = days.first, let last = days.last {
      facts += try journal.facts(from: first, through: last).facts
    }
    let kept = [
      days.first.map { Int64($0.dayNumber) * FactJournal.dayMilliseconds },
      facts.map(\.instant).min(),
    ].compactMap { $0 }.min()
    return .starts(
      append: PipelineState.sortedSet(facts.filter { $0.callback == .intervalDidStart }),
      before: kept ?? now)
  }

  /// Appends `facts` to the log of their UTC day only — not to the starts' log, which may be the
  /// next file to heal.
  private func appendFacts(_ facts: [MonitorFact]) throws(PipelineError) {
    guard let day = facts.first.map({ FactJournal.utcDay(of: $0.instant) }) else { return }
    try append(facts, to: folder.layout.appFactsKey(of: day), capacity: FactJournal.dayCapacity)
  }

  /// Appends `starts` to the starts' log.
  private func appendStarts(_ starts: [MonitorFact]) throws(PipelineError) {
    try append(starts, to: folder.layout.appStartsKey, capacity: FactJournal.startsCapacity)
  }

  /// Appends `facts`, in their JSON form, to the log `key`.
  private func append(_ facts: [MonitorFact], to key: String, capacity: Int)
    throws(PipelineError)
  {
    guard !facts.isEmpty else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var records: [Data] = []
    for fact in facts {
      do {
        records.append(try encoder.encode(fact))
      } catch {
        throw .store(.encoding(key: key, type: "MonitorFact", description: "\(error)"))
      }
    }
    do throws(SharedStoreError) {
      try folder.store.append(records, toLog: key, capacity: capacity)
    } catch {
      throw .store(error)
    }
  }

  /// Credits the (quarantined, now empty) reward ledger with `usage`, and expires it at once:
  /// what was redeemed before is unknown, so nothing of it is paid again.
  private func creditAndExpire(_ usage: ThresholdAccountant, from: Int64, now: Int64)
    throws(PipelineError)
  {
    let asOf = Milliseconds.date(now)
    try ledgerJournal.update { fold throws(PipelineError) in
      try fold.credit(usage, intervalsFrom: from, configuration: configuration, asOf: asOf)
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
