import BudgetMath
import Foundation
import SharedStore

/// The first record of the ledger's log: the exchange rate the ledger was created with.
///
/// The rate is part of the ledger's data, not of the configuration: a stored `redeem` keeps only
/// the XP it spent, so a ledger folded at another rate would re-price every past redemption —
/// cheaper, and time nobody earned appears; dearer, and a stored redemption or session no longer
/// applies and the ledger is rebuilt at zero.
///
/// JSON form, one line: `{"rate":{"timeMs":60000,"xp":10}}` (`ExchangeRate`'s form, sorted
/// keys). Neither a transaction's record nor a checkpoint's has a `rate` key.
struct LedgerRateRecord: Codable, Equatable {
  /// The ledger's rate.
  var rate: ExchangeRate

  /// The record's leading bytes, which no transaction's or checkpoint's record has.
  private static let prefix = Data(#"{"rate":"#.utf8)

  /// Whether `record` is a rate record (``LedgerJournal/record(_:startsWith:)``).
  static func isRate(_ record: Data) -> Bool {
    LedgerJournal.record(record, startsWith: prefix)
  }

  /// Creates the record of `rate`.
  init(rate: ExchangeRate) {
    self.rate = rate
  }

  /// The rate record stored as `record`.
  ///
  /// - Throws: ``PipelineError/store(_:)`` with `SharedStoreError.decoding` for a rate record
  ///   that does not decode: a damaged log, which the pipeline quarantines and rebuilds.
  init(record: Data, key: String) throws(PipelineError) {
    do {
      self = try JSONDecoder().decodeStored(Self.self, from: record)
    } catch {
      throw .store(.decoding(key: key, type: "LedgerRateRecord", description: "\(error)"))
    }
  }

  /// The record of this rate.
  func record(_ encoder: JSONEncoder) throws -> Data {
    try encoder.encode(self)
  }
}

extension LedgerJournal {
  /// Whether `record` begins with `prefix`, the leading bytes of a checkpoint's or the rate's
  /// record, which no transaction's has.
  ///
  /// Called for every record at every fold: the third byte — `a` in the transactions the
  /// package writes (`{"at":…`), `c` in a checkpoint, `r` in the rate record — turns almost
  /// every other record away before the prefix is compared.
  static func record(_ record: Data, startsWith prefix: Data) -> Bool {
    record.count >= prefix.count
      && record[record.startIndex + 2] == prefix[prefix.startIndex + 2]
      && record.starts(with: prefix)
  }

  /// The rate of a ledger whose log has no checkpoint: its rate record's, at position 1, or
  /// ``newLedgerRate`` for a log without one (none that this version writes).
  ///
  /// - Parameter records: Every record of the log, in order.
  /// - Returns: The ledger's rate.
  /// - Throws: ``PipelineError/store(_:)`` with `SharedStoreError.decoding` for a rate record that
  ///   does not decode.
  func rate(of records: [LogRecord]) throws(PipelineError) -> ExchangeRate {
    guard let first = records.first, first.position == 1, LedgerRateRecord.isRate(first.bytes)
    else { return newLedgerRate }
    return try LedgerRateRecord(record: first.bytes, key: key).rate
  }
}
