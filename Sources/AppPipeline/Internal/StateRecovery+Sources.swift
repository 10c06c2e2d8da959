import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

// What a rebuild reads from the outbox and the surviving logs, and how it writes them back.
extension UsagePipeline {
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
  func outboxFacts() -> (
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
  func salvage(_ key: String) -> [MonitorFact] {
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

  /// Appends `facts` to the log of their UTC day only — not to the starts' log, which may be the
  /// next file to heal.
  func appendFacts(_ facts: [MonitorFact]) throws(PipelineError) {
    guard let day = facts.first.map({ FactJournal.utcDay(of: $0.instant) }) else { return }
    try append(facts, to: folder.layout.appFactsKey(of: day), capacity: FactJournal.dayCapacity)
  }

  /// Appends `starts` to the starts' log.
  func appendStarts(_ starts: [MonitorFact]) throws(PipelineError) {
    try append(starts, to: folder.layout.appStartsKey, capacity: FactJournal.startsCapacity)
  }

  /// Appends `facts`, in their JSON form, to the log `key`.
  func append(_ facts: [MonitorFact], to key: String, capacity: Int)
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
  func creditAndExpire(_ usage: ThresholdAccountant, from: Int64, now: Int64)
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
