import Foundation
import SharedStore
import SignalValues
import UsageModel

/// The stored form of one heartbeat: one record of the history's append-only log, so that
/// recording a heartbeat appends its 10 to 42 bytes and rewrites nothing else.
///
/// Layout, all integers little-endian:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 1 | format version, 1 |
/// | 1 | 1 | flags: bit 0 sequence present, bit 1 memory present, bit 2 mark present; the other bits 0 |
/// | 2 | 8 | instant in milliseconds since 1970 (`Int64`) |
/// | 10 | 8 | sequence (`UInt64`), only when bit 0 is set |
/// | … | 8 | memory in bytes (`UInt64`), only when bit 1 is set |
/// | … | 16 | the outbox's high-water mark: its epoch and its value (`UInt64` each), only when bit 2 is set |
///
/// The mark is the last number handed out by the outbox of the folder the history is in, as
/// its producer carries it (`SequencedOutbox`'s carried mark): the monitor extension writes it
/// with each heartbeat, instead of appending to the outbox's mark log, and a record without a
/// new number carries the one before it forward.
///
/// Everything read is validated before it is used — version, flags, length, the instant within
/// the supported range — and reported as `Damage`, never trapped on and never written over.
enum HeartbeatRecordFormat {
  static let version: UInt8 = 1

  /// One record's fields.
  struct Record: Equatable {
    var instant: Int64
    var sequence: UInt64?
    var memoryBytes: UInt64?
    var mark: SequenceNumber?
  }

  /// The most bytes a record takes.
  static let maximumSize = 42

  /// Why stored bytes are not a heartbeat; becomes
  /// ``TrackerSignalsError/corruptedHeartbeatHistory(key:reason:)``.
  struct Damage: Error {
    var reason: String
  }

  /// The bytes of `record`.
  static func encode(_ record: Record) -> Data {
    // Written in place: a heartbeat is encoded at every callback.
    withUnsafeTemporaryAllocation(byteCount: maximumSize, alignment: 1) { bytes in
      bytes[0] = version
      bytes[1] = 0
      var count = 2
      func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { value in
          UnsafeMutableRawBufferPointer(rebasing: bytes[count..<count + value.count])
            .copyMemory(from: value)
          count += value.count
        }
      }
      append(record.instant)
      if let sequence = record.sequence {
        bytes[1] |= 0b01
        append(sequence)
      }
      if let memory = record.memoryBytes {
        bytes[1] |= 0b10
        append(memory)
      }
      if let mark = record.mark {
        bytes[1] |= 0b100
        append(mark.epoch.rawValue)
        append(mark.value)
      }
      return Data(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
    }
  }

  /// The heartbeat stored in `record`.
  static func decode(_ record: LogRecord) throws(Damage) -> Record {
    let bytes = record.bytes
    let position = record.position
    guard bytes.count >= 2 else {
      throw Damage(reason: "record \(position) has \(bytes.count) bytes, too few for a heartbeat")
    }
    let start = bytes.startIndex
    guard bytes[start] == version else {
      throw Damage(
        reason: "record \(position) has format version \(bytes[start]); "
          + "this library reads version \(version)")
    }
    let flags = bytes[start + 1]
    guard flags & ~0b111 == 0 else {
      throw Damage(reason: "record \(position) has unknown flags \(flags)")
    }
    let expected = 10 + 8 * (flags & 0b11).nonzeroBitCount + (flags & 0b100 == 0 ? 0 : 16)
    guard bytes.count == expected else {
      throw Damage(
        reason: "record \(position) has \(bytes.count) bytes, \(expected) expected for its flags")
    }
    return try bytes.withUnsafeBytes { raw -> Result<Record, Damage> in
      let instant = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 2, as: Int64.self))
      guard instant >= Milliseconds.earliest, instant <= Milliseconds.latest else {
        return .failure(
          Damage(
            reason: "record \(position) has the instant \(instant) ms, "
              + "outside 0001-01-03...9999-12-29"))
      }
      var offset = 10
      func next() -> UInt64 {
        defer { offset += 8 }
        return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      }
      let sequence = flags & 0b01 != 0 ? next() : nil
      let memory = flags & 0b10 != 0 ? next() : nil
      var mark: SequenceNumber?
      if flags & 0b100 != 0 {
        let epoch = SequenceEpoch(rawValue: next())
        mark = SequenceNumber(epoch: epoch, value: next())
      }
      return .success(
        Record(instant: instant, sequence: sequence, memoryBytes: memory, mark: mark))
    }.get()
  }
}
