import BudgetMath
import Foundation
import SharedStore
import UsageModel

/// A record of the ledger's log that stands for the records it covers: the ledger's opening
/// after them, what was credited for the intervals that can still be derived, the last position
/// it covers, and the ledger's rate, since the rate record is among the records it covers.
///
/// JSON form, one line: `{"checkpoint":{"covers":1234,"earned":{"<interval start in ms>|<app>":
/// 120,…},"opening":LedgerOpening,"rate":ExchangeRate}}`. A transaction's record never has a
/// `checkpoint` key.
struct LedgerCheckpoint: Codable, Equatable {
  /// The last position of the log whose transaction the ``opening`` includes; the fold applies
  /// the transactions after it.
  var covers: UInt64
  /// What the ledger carries over from the transactions it covers.
  var opening: LedgerOpening
  /// The XP credited per interval and app (``LedgerJournal/Fold/earned``), for the intervals
  /// that start within the retention and 8 days before the opening: every interval that can
  /// still be credited, and more.
  var earned: [String: Int]
  /// The ledger's exchange rate (``LedgerRateRecord``): a compaction removes the rate record
  /// with the other records it covers.
  var rate: ExchangeRate

  private struct Record: Codable {
    var checkpoint: LedgerCheckpoint
  }

  /// The record's leading bytes, which no transaction's or rate record has.
  private static let prefix = Data(#"{"checkpoint":"#.utf8)

  /// Whether `record` is a checkpoint's (``LedgerJournal/record(_:startsWith:)``).
  static func isCheckpoint(_ record: Data) -> Bool {
    LedgerJournal.record(record, startsWith: prefix)
  }

  /// The checkpoint stored as `record`.
  ///
  /// - Throws: ``PipelineError/store(_:)`` with `SharedStoreError.decoding` for a checkpoint
  ///   that does not decode: a damaged log, which the pipeline quarantines and rebuilds.
  init(record: Data, key: String) throws(PipelineError) {
    do {
      self = try JSONDecoder().decodeStored(Record.self, from: record).checkpoint
    } catch {
      throw .store(.decoding(key: key, type: "LedgerCheckpoint", description: "\(error)"))
    }
    // What a credit subtracts from: never negative, as the XP of a use never is.
    if let (interval, xp) = earned.first(where: { $0.value < 0 }) {
      throw .store(
        .decoding(
          key: key, type: "LedgerCheckpoint",
          description: "earned[\(interval.debugDescription)] is \(xp) XP, below zero"))
    }
  }

  init(covers: UInt64, opening: LedgerOpening, earned: [String: Int], rate: ExchangeRate) {
    self.covers = covers
    self.opening = opening
    self.earned = earned
    self.rate = rate
  }

  /// The record of this checkpoint.
  func record(_ encoder: JSONEncoder) throws -> Data {
    try encoder.encode(Record(checkpoint: self))
  }
}

extension LedgerJournal {
  /// How much older than the cut the ledger's oldest transaction gets before a compaction.
  ///
  /// 30 days, so that the log is rewritten about once a month, not at every wake: a compaction
  /// rewrites what the log keeps, and the log keeps at most the retention, the cut's 8 days and
  /// these 30 of transactions.
  static let compactionSlack: Int64 = 30 * 86_400_000

  /// Lets go of the transactions dated before `cut`, once the oldest is 30 days older than it:
  /// appends a checkpoint that covers them, then removes the records it covers.
  ///
  /// The ledger keeps its balance, its open sessions and what it credited for the intervals that
  /// can still be credited; a transaction dated before the checkpoint's opening is refused
  /// from then on (`BudgetMathError.transactionBeforeOpening`), so none let go is applied twice.
  /// A kill between the append and the removal loses nothing: a fold starts from the newest
  /// checkpoint and skips what it covers. Another writer appending first makes it fold again and
  /// try again, as ``update(_:)`` does; a removal that fails is left to the next compaction.
  ///
  /// Nothing within `span` of the newest transaction is let go, and what was credited is kept
  /// for the intervals that start within `span` before the opening: rules of the data, not of
  /// the clock. A clock set months ahead for a while lets go of nothing it dated itself, so the
  /// opening stays before the real time, and neither does it forget what today's intervals were
  /// credited.
  ///
  /// - Parameters:
  ///   - cut: Older than any interval whose use can still be credited, and than any transaction
  ///     the app can still repeat.
  ///   - span: How long before the newest transaction a transaction can still be repeated or
  ///     an interval's use still credited: the retention and the longest interval, and a day.
  /// - Returns: Whether it compacted.
  /// - Throws: ``PipelineError/store(_:)`` for a log that cannot be read or written.
  /// - Complexity: O(*t*) in the transactions the log holds, about once a month.
  @discardableResult
  func compact(before cut: Int64, keepingCreditsWithin span: Int64) throws(PipelineError) -> Bool {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for _ in 0..<Self.attempts {
      let fold = try fold()
      // Never past the span before the newest transaction, a rule of the data: a clock set
      // months ahead for a while must not let go of what it dated, or the opening would lie in
      // the future once the clock is back, and refuse every transaction dated by it.
      guard let oldest = fold.ledger.entries.first?.transaction.at,
        let newest = fold.ledger.entries.lazy.map({ Milliseconds.clampedInstant($0.transaction.at) }
        )
        .max(),
        case (let spanBeforeNewest, false) = newest.subtractingReportingOverflow(span)
      else { return false }
      let cut = min(cut, spanBeforeNewest)
      guard Milliseconds.clampedInstant(oldest) < cut - Self.compactionSlack,
        let before = fold.position
      else { return false }
      let compacted = fold.ledger.compacted(before: Milliseconds.date(cut))
      let letGo = fold.ledger.entries.count - compacted.entries.count
      guard letGo > 0, let opening = compacted.opening else { return false }
      let covers = fold.recordPositions[letGo - 1]
      // What was credited is kept for the intervals that start within the span before the
      // opening: it depends only on the transactions let go, not on the clock or on
      // transactions a clock set ahead dated in the future.
      let earned = Self.credits(
        fold.earned, from: Milliseconds.clampedInstant(opening.through) - span)
      // The rate too: the rate record is among the records the checkpoint covers.
      let checkpoint = LedgerCheckpoint(
        covers: covers, opening: opening, earned: earned, rate: compacted.rate)
      let record: Data
      do {
        record = try checkpoint.record(encoder)
      } catch {
        throw .store(.encoding(key: key, type: "LedgerCheckpoint", description: "\(error)"))
      }
      // The checkpoint and the trim of what it covers in one hold: between them another app
      // process could rebuild a damaged ledger, whose first records the trim, by position,
      // would remove.
      let appended = try FolderHold.holding(store) { () throws(PipelineError) -> LogAppend? in
        let appended: LogAppend?
        do throws(SharedStoreError) {
          appended = try store.appendToLog(key, capacity: Self.capacity, examiningNewest: 0) {
            log in
            log.identity == before.identity && log.nextPosition == before.next ? [record] : []
          }
        } catch {
          throw .store(error)
        }
        // What the checkpoint covers is superseded: removing it only saves space, and the fold
        // skips it while it remains. Every record after it stays, older checkpoints too, so that
        // a record missing there can only have been evicted.
        if appended != nil { _ = try? store.compactLog(key) { record in record.position > covers } }
        return appended
      }
      guard let appended else { continue }  // another writer appended first: fold again
      // As a fold of the log would find it: the checkpoint's, and the earnings kept.
      var folded = earned
      for entry in compacted.entries { Self.noteEarning(entry.transaction, in: &folded) }
      cache.ledger = Fold(
        ledger: compacted, earned: folded,
        position: (appended.identity, appended.positions.upperBound + 1),
        recordPositions: Array(fold.recordPositions[letGo...]))
      return true
    }
    return false
  }

  /// The credits of `earned` whose interval starts at or after `floor`; those whose key does not
  /// name a start are kept.
  static func credits(_ earned: [String: Int], from floor: Int64) -> [String: Int] {
    earned.filter { key, _ in
      key.split(separator: "|", maxSplits: 1).first.flatMap { Int64($0) }.map { $0 >= floor }
        ?? true
    }
  }
}
