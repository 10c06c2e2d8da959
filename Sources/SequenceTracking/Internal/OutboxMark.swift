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
/// A producer that carries the mark writes the mark log only when the log names another epoch
/// than the outbox's (once per epoch); the log otherwise holds what other writers put there (a
/// consumer's ``SequencedOutbox/markHandedOut(through:)``, a publish that did not carry the
/// mark). Two writers can so leave the two records in different epochs for a while: the mark of
/// an epoch is the higher of the records of that epoch, and every epoch a record names that is
/// not the outbox's is one that ended.
struct OutboxMarks {
  var logged: OutboxMark?
  var carried: OutboxMark?

  /// The mark of each epoch the records name, the carried record's epoch first.
  ///
  /// The mark of an epoch is the higher of its records; the records name at most two epochs.
  var byEpoch: [OutboxMark] {
    switch (carried, logged) {
    case (nil, nil): return []
    case (let one?, nil), (nil, let one?): return [one]
    case (let carried?, let logged?):
      guard carried.number.epoch == logged.number.epoch else { return [carried, logged] }
      return [logged.number.value > carried.number.value ? logged : carried]
    }
  }

  /// The mark of the epoch whose identity is `identity`, or `nil` when no record is of it.
  ///
  /// Asked at every publish, so it builds no array (``byEpoch`` does).
  func current(inEpoch identity: UInt64) -> OutboxMark? {
    func ofEpoch(_ mark: OutboxMark?) -> OutboxMark? {
      mark?.number.epoch.rawValue == identity ? mark : nil
    }
    switch (ofEpoch(carried), ofEpoch(logged)) {
    case (nil, nil): return nil
    case (let one?, nil), (nil, let one?): return one
    case (let carried?, let logged?):
      return logged.number.value > carried.number.value ? logged : carried
    }
  }

  /// Whether a record names an epoch other than `identity`.
  ///
  /// Asked at every publish, so it builds no array (``ended(inEpoch:)`` does).
  func namesOtherEpoch(than identity: UInt64) -> Bool {
    carried.map { $0.number.epoch.rawValue != identity } ?? false
      || logged.map { $0.number.epoch.rawValue != identity } ?? false
  }

  /// The marks of the epochs other than `identity` that the records name: epochs that ended
  /// (removed, moved aside, or replaced by an older copy of another) and whose ends are to be
  /// recorded, unless they are already (see `SequencedOutbox.othersHaveEnded(in:marks:)`).
  func ended(inEpoch identity: UInt64) -> [OutboxMark] {
    byEpoch.filter { $0.number.epoch.rawValue != identity }
  }

  /// Whether the mark log names an epoch other than `identity`, so that a producer that carries
  /// the mark writes the log once, and its stale epoch is not taken for a new end again.
  func logIsStale(inEpoch identity: UInt64) -> Bool {
    logged.map { $0.number.epoch.rawValue != identity } ?? false
  }
}
