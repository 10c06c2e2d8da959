import Foundation
import SharedStore
import SignalValues

/// A ``SequencedOutbox`` as stored, layout version 1: an append-only log of the key whose
/// records are the entries.
///
/// The log's identity is the outbox's epoch and each record's position is its entry's number, so
/// the store hands out numbers as it appends — atomically across processes — and never hands one
/// out twice in an epoch. A record is one byte, the layout version (`1`), followed by the
/// payload's JSON:
///
/// ```text
/// 01 7B 22 61 70 70 22 3A …       (the byte 1, then {"app":"com.example.game","seconds":60})
/// ```
///
/// An empty record is a *vanished number*: a number a producer handed out whose entry the
/// outbox no longer holds because the outbox went back (truncated, restored from an older copy).
/// A publish that finds the outbox behind the numbers its producers handed out (see
/// `OutboxMark`) writes one empty record for each such number before its entries, so that no
/// number is handed out twice within an epoch and a consumer is told exactly which ones vanished.
///
/// Payloads are kept as bytes, so a publish appends one record without reading, decoding or
/// rewriting any other, and a drain decodes only the entries it delivers.
/// `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/SequenceTracking-OutboxFormat.md` describes
/// the layout for people.
struct OutboxLayout {
  /// The layout version this library writes and reads: the first byte of every record.
  static let version = 1

  /// The numbers the outbox holds.
  struct Header: Equatable {
    var epoch: SequenceEpoch
    var head: UInt64
    var oldest: UInt64
  }

  let header: Header
  /// The records read, oldest first: record *k* holds the entry numbered `firstRead + k`.
  ///
  /// All of the outbox's, or its newest ones (``init(parsingNewest:key:)``).
  let records: [LogRecord]
  /// The number of the first record read: `header.oldest` when every record was read.
  let firstRead: UInt64

  /// The payload bytes of `value`, which must lie in `firstRead...header.head`.
  func payload(of value: UInt64) -> Data {
    records[Int(value - firstRead)].bytes.dropFirst()
  }

  /// Whether the record of `value`, which must lie in `firstRead...header.head`, is a vanished
  /// number rather than an entry.
  func isVanished(_ value: UInt64) -> Bool {
    records[Int(value - firstRead)].bytes.isEmpty
  }

  /// The runs of vanished numbers among `values`, which must lie in `firstRead...header.head`.
  ///
  /// - Complexity: O(*k*) in the number of values.
  func vanished(in values: ClosedRange<UInt64>) -> [SequenceRange] {
    var runs: [SequenceRange] = []
    var start: UInt64?
    for value in values {
      if isVanished(value) {
        if start == nil { start = value }
      } else if let first = start {
        runs.append(SequenceRange(epoch: header.epoch, values: first...(value - 1)))
        start = nil
      }
    }
    if let first = start {
      runs.append(SequenceRange(epoch: header.epoch, values: first...values.upperBound))
    }
    return runs
  }

  /// Whether the outbox holds an entry under `value` and it was read.
  func holds(_ value: UInt64) -> Bool {
    (firstRead...header.head).contains(value)
  }

  /// The CRC-32C of the stored payload of `value` (its JSON, without the version byte), which
  /// must lie in `header.oldest...header.head`; what an ``OutboxCursor`` keeps of its last entry.
  ///
  /// - Complexity: O(*m*) in the length of the payload.
  func checksum(of value: UInt64) -> UInt32 {
    payload(of: value).withUnsafeBytes { CRC32C.checksum($0) }
  }

  /// A cursor just after `value`, with the checksum of its payload.
  func cursor(after value: UInt64) -> OutboxCursor {
    OutboxCursor(
      after: SequenceNumber(epoch: header.epoch, value: value), checksum: checksum(of: value))
  }

  // MARK: - Reading

  /// The numbers of the outbox whose log is `log`, checking its newest record only; `nil` when it
  /// holds no entry.
  ///
  /// - Throws: `corruptedOutbox` or `unsupportedOutboxFormat` for the newest record.
  static func header(of log: LogSnapshot, key: String) throws(SequenceTrackingError) -> Header? {
    guard let newest = log.records.last, log.count > 0 else { return nil }
    try checkNewest(newest, key: key)
    guard UInt64(log.count - 1) < newest.position else {
      throw .corruptedOutbox(
        key: key, reason: "\(log.count) entries cannot end at number \(newest.position)")
    }
    return Header(
      epoch: SequenceEpoch(rawValue: log.identity), head: newest.position,
      oldest: newest.position - UInt64(log.count - 1))
  }

  /// Checks every record of `log`, which must hold all of them; `nil` when it holds none.
  ///
  /// - Complexity: O(*n*) in the number of entries; payloads are not decoded.
  init?(parsing log: LogSnapshot, key: String) throws(SequenceTrackingError) {
    guard let first = log.records.first, let last = log.records.last else { return nil }
    try Self.checkNewest(last, key: key)
    try Self.checkConsecutive(
      log.records, complete: log.records.count == log.count, what: "entries", key: key)
    header = Header(
      epoch: SequenceEpoch(rawValue: log.identity), head: last.position, oldest: first.position)
    records = log.records
    firstRead = first.position
  }

  /// Checks the newest records of `log`; `nil` when it holds none.
  ///
  /// They must hold consecutive numbers up to the newest. The older ones were not read: only
  /// numbers from the first read can be delivered from this layout.
  ///
  /// - Complexity: O(*k*) in the records read.
  init?(parsingNewest log: LogSnapshot, key: String) throws(SequenceTrackingError) {
    guard let header = try Self.header(of: log, key: key), let first = log.records.first else {
      return nil
    }
    try Self.checkConsecutive(log.records, complete: true, what: "newest entries", key: key)
    self.header = header
    records = log.records
    firstRead = first.position
  }

  /// Checks that `records` are entries of this layout, numbered consecutively; `complete` says
  /// whether they are every record the read asked for (all of the log's, for a whole read).
  private static func checkConsecutive(
    _ records: [LogRecord], complete: Bool, what: String, key: String
  ) throws(SequenceTrackingError) {
    guard let first = records.first, let last = records.last else { return }
    guard complete, last.position >= first.position,
      last.position - first.position == UInt64(records.count - 1)
    else {
      throw .corruptedOutbox(
        key: key,
        reason: "the \(records.count) \(what) are not numbered consecutively "
          + "(\(first.position) to \(last.position))")
    }
    for record in records { try check(record, key: key) }
  }

  /// Checks that `record`, the newest, is an entry of this layout: a vanished number is always
  /// followed by the entry whose publish wrote it.
  static func checkNewest(_ record: LogRecord, key: String) throws(SequenceTrackingError) {
    guard !record.bytes.isEmpty else {
      throw .corruptedOutbox(key: key, reason: "entry \(record.position), the newest, is empty")
    }
    try check(record, key: key)
  }

  /// Checks that `record` is an entry of this layout, or a vanished number (an empty record).
  static func check(_ record: LogRecord, key: String) throws(SequenceTrackingError) {
    guard let format = record.bytes.first else { return }
    guard Int(format) == version else {
      throw .unsupportedOutboxFormat(key: key, found: Int(format), supported: version)
    }
  }

  // MARK: - Writing

  /// Encodes one payload as a record: the version byte, then the payload's JSON.
  ///
  /// A payload that writes its own JSON (a ``/SignalValues/MonitorFact``, on every callback)
  /// writes the same bytes as the encoder, without its cost.
  ///
  /// - Parameters:
  ///   - payload: The payload.
  ///   - key: The outbox's key, for the error.
  ///   - canonical: `Payload` as a type that writes its own JSON, or `nil` when it does not
  ///     (the outbox finds it once: `Payload.self as? any CanonicalJSONEncodable.Type`).
  /// - Returns: The record's bytes.
  /// - Throws: ``SequenceTrackingError/payloadEncoding(key:type:description:)`` when the payload
  ///   cannot be encoded.
  static func record<Payload: Encodable>(
    _ payload: Payload, key: String, canonical: (any CanonicalJSONEncodable.Type)?
  ) throws(SequenceTrackingError) -> Data {
    do {
      if let canonical {
        var record = [UInt8(version)]
        record.reserveCapacity(256)
        try canonical.appendCanonicalJSON(of: payload, to: &record)
        return Data(record)
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      var record = Data([UInt8(version)])
      record.append(try encoder.encode(payload))
      return record
    } catch {
      throw .payloadEncoding(key: key, type: "\(Payload.self)", description: "\(error)")
    }
  }
}
