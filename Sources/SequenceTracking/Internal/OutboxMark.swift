import Foundation
import SignalValues

/// The high-water mark of an outbox: the last number its producers handed out, kept beside the
/// outbox in a log of 16-byte records on a store without flushes.
///
/// A record is the epoch and the value of the number, each a little-endian `UInt64`. The newest
/// record is the mark; the older ones keep the last number of the epochs before, for a while.
/// A publish reads the mark before appending, continues after it when the outbox holds less (it
/// was truncated or restored from an older copy), and appends the number it handed out after
/// the outbox's write: the mark is never below the outbox's newest number except for a producer
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
