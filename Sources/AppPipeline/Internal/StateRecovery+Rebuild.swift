import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

// The rebuild of a damaged file: what it reads, the move and what it writes, in one hold.
extension UsagePipeline {
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
  func recover(
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
}
