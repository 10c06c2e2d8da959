import BudgetMath
import Foundation
import SharedStore
import TrackerSignals

/// Where the app side keeps the reward ledger: every transaction, in order, in an append-only
/// log of the shared folder (`<appStateKey>.ledger`).
///
/// The ledger is the fold of its transactions: each is applied in the order of the log
/// (`RewardLedger.apply(_:)`), so a transaction appended twice under one identifier is one
/// transaction. A change — the usage credited by a drain, a redemption the app makes — is
/// applied to the ledger folded so far and its new transactions appended **only if no other
/// writer appended in between** (the log's position is checked under the store's lock); if one
/// did, the log is folded again and the change made again. So a redemption is checked against
/// the balance every writer sees, and a drain writes one record per new transaction, not the
/// ledger.
///
/// The ledger's exchange rate is in its log, not in the configuration: in the log's first record
/// (``LedgerRateRecord``), appended with the first transactions of a new log, and in every
/// checkpoint, since a compaction removes the records it covers, the rate record included. A
/// ledger keeps its rate for as long as its log exists, so a redemption keeps the time it bought
/// when the configured rate changes; a new ledger — the first, or one rebuilt after damage —
/// takes ``newLedgerRate``.
///
/// Opening folds the log: O(*t*) in the transactions it holds. A process keeps the fold, and
/// checks it against the log's newest record only. The log is compacted at the retention
/// (``compact(before:keepingCreditsWithin:)``): a checkpoint record — the ledger's opening,
/// what it credited for the intervals still derivable, and the last position it covers —
/// replaces the records it covers; a fold starts from the newest checkpoint and applies the
/// transactions after what it covers.
struct LedgerJournal: Sendable {
  /// The most records the log keeps: a bound on the file (about 11 MB).
  ///
  /// A compaction keeps the log within the retention and 38 days of transactions, so a record
  /// is evicted only past about 1,280 transactions a day; ``fold()`` then finds the log damaged,
  /// and the pipeline rebuilds the ledger at a balance of zero and reports it, rather than fold
  /// what is left into a balance that never was.
  static let capacity = 100_000
  /// How often a change is made again after another writer appended first.
  static let attempts = 16

  let store: any SharedStore
  let key: String
  /// The rate a new ledger is created with, the configuration's: an existing ledger's rate is in
  /// its log.
  let newLedgerRate: ExchangeRate
  let cache: JournalCache

  /// The ledger folded from the log, with what it credited per interval and app.
  struct Fold: Sendable {
    var ledger: RewardLedger
    /// The XP credited per interval and app, keyed `"<interval start in ms>|<app>"`: the largest
    /// total among the `usage:<key>|<xp>` earnings.
    var earned: [String: Int]
    /// The log's identity and next position when folded; `nil` before the log exists.
    var position: (identity: UInt64, next: UInt64)?
    /// The position in the log of each of the ledger's entries, in order.
    var recordPositions: [UInt64] = []
  }

  /// The ledger as the log holds it now.
  func fold() throws(PipelineError) -> Fold {
    let newest: LogSnapshot?
    do throws(SharedStoreError) {
      newest = try store.readLog(key, newest: 1)
    } catch {
      throw .store(error)
    }
    guard let newest else { return Fold(ledger: RewardLedger(rate: newLedgerRate), earned: [:]) }
    if let cached = cache.ledger, let position = cached.position,
      position.identity == newest.identity, position.next == newest.nextPosition
    {
      return cached
    }
    let snapshot: LogSnapshot?
    do throws(SharedStoreError) {
      snapshot = try store.readLog(key)
    } catch {
      throw .store(error)
    }
    return try fold(snapshot)
  }

  /// The ledger `snapshot` holds — a whole read of the log, `nil` when it has no file — folded
  /// afresh, and kept for ``fold()``.
  ///
  /// The ledger's rate is the newest checkpoint's, else the rate record's at position 1, else
  /// (a log without one) ``newLedgerRate``.
  ///
  /// - Throws: ``PipelineError/store(_:)`` with `corrupted` or `decoding` when the records do
  ///   not fold — a rate record that does not decode, or one after the first record, among
  ///   them: damage, which the pipeline quarantines and rebuilds.
  func fold(_ snapshot: LogSnapshot?) throws(PipelineError) -> Fold {
    let records = snapshot?.records ?? []
    // The newest checkpoint: the fold starts from it, and from the records after those it
    // covers. An older checkpoint is covered by it, or is among those records and is skipped,
    // and so is the rate record: the checkpoint carries the rate.
    var fold: Fold
    var covered: UInt64 = 0
    if let newest = records.last(where: { LedgerCheckpoint.isCheckpoint($0.bytes) }) {
      let checkpoint = try LedgerCheckpoint(record: newest.bytes, key: key)
      fold = Fold(
        ledger: RewardLedger(rate: checkpoint.rate, opening: checkpoint.opening),
        earned: checkpoint.earned)
      // A checkpoint covers records before it, never itself or what follows it.
      guard checkpoint.covers < newest.position else {
        throw .store(
          .corrupted(
            key: key, path: key,
            reason: "the checkpoint at position \(newest.position) covers up to "
              + "\(checkpoint.covers), past itself"))
      }
      covered = checkpoint.covers
    } else {
      fold = Fold(ledger: RewardLedger(rate: try rate(of: records)), earned: [:])
    }
    // Every record after what the newest checkpoint covers is kept (a compaction removes only
    // what it covers): one missing was evicted at the log's capacity, and the ledger would fold
    // to a balance that never was, so the log is damaged.
    let next = snapshot?.nextPosition ?? 1
    guard covered < next,
      records.lazy.filter({ $0.position > covered }).count == next - 1 - covered
    else {
      throw .store(
        .corrupted(
          key: key, path: key,
          reason: "records after position \(covered) are missing: the log evicted transactions "
            + "at its capacity of \(Self.capacity)"))
    }
    let decoder = JSONDecoder()
    for record in records where record.position > covered {
      if LedgerCheckpoint.isCheckpoint(record.bytes) { continue }
      if LedgerRateRecord.isRate(record.bytes) {
        // The first record's rate was read above, unless a checkpoint's supersedes it; a rate
        // anywhere else would re-price what follows it: damage.
        guard record.position == 1 else {
          throw .store(
            .corrupted(
              key: key, path: key,
              reason: "a rate record at position \(record.position): only the log's first "
                + "record holds the ledger's rate"))
        }
        continue
      }
      let transaction: LedgerTransaction
      do {
        // Most records take the quick reader; the decoder reads, or refuses, the others.
        transaction =
          try LedgerTransaction(flatJSON: record.bytes)
          ?? decoder.decodeStored(LedgerTransaction.self, from: record.bytes)
      } catch {
        throw .store(.decoding(key: key, type: "LedgerTransaction", description: "\(error)"))
      }
      do throws(BudgetMathError) {
        if case .applied = try fold.ledger.apply(transaction) {
          fold.recordPositions.append(record.position)
        }
      } catch {
        // Every stored transaction applied when it was appended: one that does not apply now is
        // a damaged log, which the pipeline quarantines and rebuilds.
        throw .store(.decoding(key: key, type: "RewardLedger", description: error.description))
      }
      Self.noteEarning(transaction, in: &fold.earned)
    }
    fold.position = snapshot.map { ($0.identity, $0.nextPosition) }
    cache.ledger = fold
    return fold
  }

  /// Makes `change` to the ledger and appends the transactions it added, unless another writer
  /// appended first; then it folds again and makes the change again.
  ///
  /// - Returns: What `change` returned.
  /// - Throws: What `change` throws (nothing is appended then), ``PipelineError/store(_:)``, and
  ///   ``PipelineError/store(_:)`` with `SharedStoreError.io` when other writers appended first
  ///   ``attempts`` times in a row.
  func update<Result>(_ change: (inout Fold) throws(PipelineError) -> Result)
    throws(PipelineError) -> Result
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for _ in 0..<Self.attempts {
      var fold = try fold()
      // The cache lets go of the fold, so that the change is made in place instead of on a copy
      // of every transaction; it keeps the fold again once the append succeeded.
      cache.ledger = nil
      let before = (count: fold.ledger.entries.count, position: fold.position)
      let result = try change(&fold)
      let added = fold.ledger.entries[before.count...].map(\.transaction)
      guard !added.isEmpty else {
        cache.ledger = fold
        return result
      }
      // A log this change creates starts with the ledger's rate (the fold's: the new ledger's),
      // which is not one of the ledger's entries.
      let creates = before.position == nil
      var records: [Data] = []
      if creates {
        do {
          records.append(try LedgerRateRecord(rate: fold.ledger.rate).record(encoder))
        } catch {
          throw .store(.encoding(key: key, type: "LedgerRateRecord", description: "\(error)"))
        }
      }
      for transaction in added {
        do {
          records.append(try encoder.encode(transaction))
        } catch {
          throw .store(
            .encoding(key: key, type: "LedgerTransaction", description: "\(error)"))
        }
      }
      let appended: LogAppend?
      do throws(SharedStoreError) {
        appended = try store.appendToLog(key, capacity: Self.capacity, examiningNewest: 0) {
          log in
          let unchanged =
            before.position.map { log.identity == $0.identity && log.nextPosition == $0.next }
            ?? (log.count == 0 && log.evictedCount == 0)
          return unchanged ? records : []
        }
      } catch {
        throw .store(error)
      }
      guard let appended else { continue }  // another writer appended first: fold again
      fold.position = (appended.identity, appended.positions.upperBound + 1)
      fold.recordPositions += appended.positions.dropFirst(creates ? 1 : 0)
      cache.ledger = fold
      return result
    }
    throw .store(
      .io(
        operation: "append to the reward ledger: other writers kept appending first",
        path: key, errno: .resourceTemporarilyUnavailable))
  }

  /// Records in `earned` what a usage earning `transaction` credited.
  static func noteEarning(_ transaction: LedgerTransaction, in earned: inout [String: Int]) {
    guard transaction.id.hasPrefix("usage:"),
      let separator = transaction.id.lastIndex(of: "|"),
      let xp = Int(transaction.id[transaction.id.index(after: separator)...])
    else { return }
    let key = String(
      transaction.id[transaction.id.index(transaction.id.startIndex, offsetBy: 6)..<separator])
    earned[key] = max(earned[key] ?? 0, xp)
  }
}
