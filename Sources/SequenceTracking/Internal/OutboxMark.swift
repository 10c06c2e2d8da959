import Foundation
import SignalValues

/// The high-water mark of an outbox: the last number its producers handed out, kept beside the
/// outbox in a log of 16-byte records on a store without flushes.
///
/// A record is the epoch and the value of the number, each a little-endian `UInt64`. The newest
/// record is the mark; the older ones keep the last number of the epochs before, for a while.
/// A publish reads the mark before appending, continues after it when the outbox holds less (it
/// was truncated or restored from an older copy), and appends the number it handed out after
/// the outbox's write — or its producer writes the number in a record of its own
/// (``OutboxMarks``): the mark is never below the outbox's newest number except for a producer
/// killed between the two writes, or after a power cut (the mark is not flushed) — then the
/// outbox's own newest number is the higher, and is used.
struct OutboxMark: Equatable {
  /// The records the mark's log keeps: 256.
  ///
  /// Appended at every publish, the log is rewritten (a temporary file and a rename) once every
  /// capacity appends; at 16 that was a rewrite every 17 callbacks, a third of the mark's cost.
  /// 256 records are about 6 KB on disk, and a compaction holds 4 KB of them.
  static let capacity = 256
  /// The size of a record.
  static let recordSize = 16

  var number: SequenceNumber

  /// The record of this mark.
  var record: Data {
    withUnsafeBytes(of: (number.epoch.rawValue.littleEndian, number.value.littleEndian)) {
      Data($0)
    }
  }

  /// The mark stored as `record`, or `nil` when it is not a mark's record.
  init?(record: Data) {
    guard record.count == Self.recordSize else { return nil }
    let (epoch, value) = record.withUnsafeBytes { raw in
      (
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      )
    }
    number = SequenceNumber(epoch: SequenceEpoch(rawValue: epoch), value: value)
  }

  /// A mark at `number`.
  init(_ number: SequenceNumber) {
    self.number = number
  }
}

/// The two places an outbox's high-water mark may be kept: its mark log, and a record its
/// producer writes in the same hold of the lock (the monitor extension's heartbeat), either of
/// which may hold nothing.
///
/// A producer that carries the mark does not write the mark log; the log then holds what other
/// writers put there (a consumer's ``SequencedOutbox/markHandedOut(through:)``, a publish that
/// did not carry the mark), possibly of an epoch long gone. So the outbox's epoch decides: the
/// mark of an epoch is the higher of the records of that epoch.
struct OutboxMarks {
  var logged: OutboxMark?
  var carried: OutboxMark?

  /// The mark of the epoch whose identity is `identity`: the higher of the records of that
  /// epoch, or `nil` when neither is of it.
  func current(inEpoch identity: UInt64) -> OutboxMark? {
    let logged = logged.flatMap { $0.number.epoch.rawValue == identity ? $0 : nil }
    let carried = carried.flatMap { $0.number.epoch.rawValue == identity ? $0 : nil }
    return newest(logged: logged, carried: carried)
  }

  /// The mark of an epoch that ended, when no record is of the epoch `identity` the outbox
  /// numbers in now: the carried one, which its producer writes at every publish, or else the
  /// logged one; `nil` when a record is of that epoch, or there is none.
  func ended(inEpoch identity: UInt64) -> OutboxMark? {
    guard current(inEpoch: identity) == nil else { return nil }
    return carried ?? logged
  }

  /// The last number handed out, whatever epoch the outbox is in now
  /// (`SequenceNumber.highWaterMark(recording:over:)` of the carried record over the logged).
  var newest: OutboxMark? { newest(logged: logged, carried: carried) }

  private func newest(logged: OutboxMark?, carried: OutboxMark?) -> OutboxMark? {
    SequenceNumber.highWaterMark(recording: carried?.number, over: logged?.number).map(
      OutboxMark.init)
  }
}
