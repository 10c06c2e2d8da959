import BudgetMath
import Foundation
import SharedStore
import UsageModel

/// A record of the ledger's log that replaces the records before it: the ledger's opening and
/// what was credited for the intervals that can still be derived.
///
/// JSON form, one line: `{"checkpoint":{"earned":{"<interval start in ms>|<app>":120,…},
/// "opening":LedgerOpening}}`. A transaction's record never has a `checkpoint` key.
struct LedgerCheckpoint: Codable, Equatable {
  /// What the ledger carries over from the transactions before the checkpoint.
  var opening: LedgerOpening
  /// The XP credited per interval and app (``LedgerJournal/Fold/earned``), for the intervals
  /// that start at or after the checkpoint's cut.
  var earned: [String: Int]

  private struct Record: Codable {
    var checkpoint: LedgerCheckpoint
  }

  /// The record's leading bytes, which no transaction's record has.
  private static let prefix = Data(#"{"checkpoint":"#.utf8)

  /// The checkpoint stored as `record`, or `nil` when `record` is not a checkpoint.
  ///
  /// - Throws: ``PipelineError/store(_:)`` with `SharedStoreError.decoding` for a checkpoint
  ///   that does not decode: a damaged log, which the pipeline quarantines and rebuilds.
  init?(record: Data, key: String) throws(PipelineError) {
    guard record.starts(with: Self.prefix) else { return nil }
    do {
      self = try JSONDecoder().decodeStored(Record.self, from: record).checkpoint
    } catch {
      throw .store(.decoding(key: key, type: "LedgerCheckpoint", description: "\(error)"))
    }
  }

  init(opening: LedgerOpening, earned: [String: Int]) {
    self.opening = opening
    self.earned = earned
  }

  /// The record of this checkpoint.
  func record(_ encoder: JSONEncoder) throws -> Data {
    try encoder.encode(Record(checkpoint: self))
  }
}

extension LedgerJournal {
  /// How much older than the cut the ledger's oldest transaction gets before a compaction:
  /// a week, so that a ledger is rewritten about once a week, not at every wake.
  static let compactionSlack: Int64 = 7 * 86_400_000

  /// Lets go of the transactions dated before `cut`, once the oldest is a week older than it:
  /// appends a checkpoint and copies of the transactions kept, then removes every record before
  /// the checkpoint.
  ///
  /// The ledger keeps its balance, its open sessions and what it credited for the intervals that
  /// start at or after `cut`; a transaction dated before the checkpoint's opening is refused
  /// from then on (`BudgetMathError.transactionBeforeOpening`), so none let go is applied twice.
  /// A kill between the append and the removal loses nothing: a fold starts again from the
  /// checkpoint. Another writer appending first makes it fold again and try again, as
  /// ``update(_:)`` does; a removal that fails is left to the next compaction.
  ///
  /// - Parameter cut: Older than any interval whose use can still be credited, and than any
  ///   transaction the app can still repeat.
  /// - Returns: Whether it compacted.
  /// - Throws: ``PipelineError/store(_:)`` for a log that cannot be read or written.
  /// - Complexity: O(*t*) in the transactions the log holds, once a week.
  @discardableResult
  func compact(before cut: Int64) throws(PipelineError) -> Bool {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for _ in 0..<Self.attempts {
      let fold = try fold()
      guard let oldest = fold.ledger.entries.first?.transaction.at,
        Milliseconds.clampedInstant(oldest) < cut - Self.compactionSlack,
        let before = fold.position
      else { return false }
      let compacted = fold.ledger.compacted(before: Milliseconds.date(cut))
      guard compacted.entries.count < fold.ledger.entries.count, let opening = compacted.opening
      else { return false }
      let earned = fold.earned.filter { key, _ in
        key.split(separator: "|", maxSplits: 1).first.flatMap { Int64($0) }.map { $0 >= cut }
          ?? true
      }
      var records: [Data] = []
      do {
        records.append(try LedgerCheckpoint(opening: opening, earned: earned).record(encoder))
        for entry in compacted.entries { records.append(try encoder.encode(entry.transaction)) }
      } catch {
        throw .store(.encoding(key: key, type: "LedgerCheckpoint", description: "\(error)"))
      }
      let appended: LogAppend?
      do throws(SharedStoreError) {
        appended = try store.appendToLog(key, capacity: Self.capacity, examiningNewest: 0) { log in
          log.identity == before.identity && log.nextPosition == before.next ? records : []
        }
      } catch {
        throw .store(error)
      }
      guard let appended else { continue }  // another writer appended first: fold again
      let checkpoint = appended.positions.lowerBound
      cache.ledger = Fold(
        ledger: compacted, earned: earned,
        position: (appended.identity, appended.positions.upperBound + 1))
      // The records before the checkpoint are superseded; removing them only saves space.
      _ = try? store.compactLog(key) { record in record.position >= checkpoint }
      return true
    }
    return false
  }
}
