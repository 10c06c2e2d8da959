import Foundation
import UsageModel

/// The stored form of a heartbeat history: a fixed-size binary ring, so that recording one
/// heartbeat changes 32 bytes and decodes nothing else.
///
/// Layout, all integers little-endian:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `STKH` |
/// | 4 | 2 | format version, 1 |
/// | 6 | 2 | record size, 32 |
/// | 8 | 4 | capacity (records) |
/// | 12 | 4 | count of records stored, at most the capacity |
/// | 16 | 4 | the slot the next heartbeat goes to; the oldest slot once the ring is full |
/// | 20 | 4 | reserved, 0 |
/// | 24 | 8 | heartbeats ever recorded; minus the count, the number evicted |
/// | 32 | 32 × count | records |
///
/// A record: instant in milliseconds since 1970 (`Int64`, 8 bytes), sequence (`UInt64`), memory
/// in bytes (`UInt64`), flags (1 byte: bit 0 sequence present, bit 1 memory present), 7 zero
/// bytes. Until the ring is full the file grows by one record per heartbeat; a full day at 30 s
/// (2,880 records) is 92,192 bytes.
///
/// Everything read is validated before it is used — header fields, the byte count, flags,
/// padding, instants within the supported range — and arithmetic on stored counters is checked:
/// damage is reported as `Damage`, never trapped on and never written over.
enum HeartbeatRing {
  static let magic: [UInt8] = [0x53, 0x54, 0x4B, 0x48]
  static let version: UInt16 = 1
  static let headerSize = 32
  static let recordSize = 32

  /// The header fields.
  struct Header: Equatable {
    var capacity: Int
    var count: Int
    var next: Int
    var totalRecorded: UInt64

    /// The slot of the newest record; only meaningful when `count > 0`.
    var newest: Int { (next + capacity - 1) % capacity }
    /// The slot of the oldest record.
    var oldest: Int { count < capacity ? 0 : next }
  }

  /// One record's fields.
  struct Record: Equatable {
    var instant: Int64
    var sequence: UInt64?
    var memoryBytes: UInt64?
  }

  /// Why stored bytes are not a ring; becomes ``TrackerSignalsError/corruptedHeartbeatHistory``.
  struct Damage: Error {
    var reason: String
  }

  // MARK: - Reading

  static func header(of bytes: UnsafeRawBufferPointer) throws(Damage) -> Header {
    guard bytes.count >= headerSize else {
      throw Damage(reason: "\(bytes.count) bytes, shorter than the \(headerSize)-byte header")
    }
    guard Array(bytes[0..<4]) == magic else { throw Damage(reason: "no STKH magic") }
    let version = load(UInt16.self, bytes, 4)
    guard version == Self.version else {
      throw Damage(reason: "format version \(version); this library reads version 1")
    }
    guard load(UInt16.self, bytes, 6) == UInt16(recordSize) else {
      throw Damage(reason: "record size \(load(UInt16.self, bytes, 6)), expected \(recordSize)")
    }
    let header = Header(
      capacity: Int(load(UInt32.self, bytes, 8)), count: Int(load(UInt32.self, bytes, 12)),
      next: Int(load(UInt32.self, bytes, 16)), totalRecorded: load(UInt64.self, bytes, 24))
    guard header.capacity >= 1, header.count <= header.capacity,
      header.next < header.capacity,
      header.count == header.capacity || header.next == header.count,
      UInt64(header.count) <= header.totalRecorded, load(UInt32.self, bytes, 20) == 0
    else {
      throw Damage(
        reason: "inconsistent header (capacity \(header.capacity), count \(header.count), "
          + "next \(header.next), recorded \(header.totalRecorded))")
    }
    guard bytes.count == headerSize + header.count * recordSize else {
      throw Damage(
        reason: "\(bytes.count) bytes, expected \(headerSize + header.count * recordSize) "
          + "for \(header.count) records")
    }
    return header
  }

  static func record(at slot: Int, in bytes: UnsafeRawBufferPointer) throws(Damage) -> Record {
    let offset = headerSize + slot * recordSize
    let flags = bytes[offset + 24]
    guard flags & ~0b11 == 0, (25..<32).allSatisfy({ bytes[offset + $0] == 0 }) else {
      throw Damage(reason: "record \(slot) has unknown flags or non-zero padding")
    }
    let instant = load(Int64.self, bytes, offset)
    guard instant >= Milliseconds.earliest, instant <= Milliseconds.latest else {
      throw Damage(
        reason: "record \(slot) has the instant \(instant) ms, outside 0001-01-03...9999-12-29")
    }
    let sequence = load(UInt64.self, bytes, offset + 8)
    let memory = load(UInt64.self, bytes, offset + 16)
    return Record(
      instant: instant,
      sequence: flags & 0b01 != 0 ? sequence : nil,
      memoryBytes: flags & 0b10 != 0 ? memory : nil)
  }

  /// The records oldest first, and the header.
  static func records(in data: Data) throws(Damage) -> (Header, [Record]) {
    try data.withUnsafeBytes { bytes in
      Result { () throws(Damage) in
        let header = try header(of: bytes)
        var records: [Record] = []
        records.reserveCapacity(header.count)
        for index in 0..<header.count {
          records.append(try record(at: (header.oldest + index) % header.capacity, in: bytes))
        }
        return (header, records)
      }
    }.get()
  }

  /// The newest record, reading only the header and one record.
  static func newest(in data: Data) throws(Damage) -> Record? {
    try data.withUnsafeBytes { bytes in
      Result { () throws(Damage) in
        let header = try header(of: bytes)
        return header.count == 0 ? nil : try record(at: header.newest, in: bytes)
      }
    }.get()
  }

  // MARK: - Writing

  /// Appends `record` to the ring in `data` (created when `nil`), evicting the oldest record
  /// when full; re-lays the ring out first when its capacity differs from `capacity`.
  ///
  /// Validates everything it relies on: the header, the newest record (compared with `record`)
  /// and, once the ring is full, the oldest record it overwrites — so that a damaged ring is
  /// reported instead of being quietly repaired slot by slot.
  ///
  /// - Returns: `false` when `record` equals the newest record, in which case nothing changes.
  static func append(
    _ record: Record, to data: inout Data?, capacity: Int
  ) throws(Damage) -> Bool {
    guard var bytes = data else {
      let header = Header(capacity: capacity, count: 1, next: 1 % capacity, totalRecorded: 1)
      data = encode(header, [record])
      return true
    }
    if try newest(in: bytes) == record { return false }
    var header = try bytes.withUnsafeBytes { raw in
      Result { () throws(Damage) in
        let header = try Self.header(of: raw)
        if header.count == header.capacity { _ = try Self.record(at: header.next, in: raw) }
        return header
      }
    }.get()
    let (total, overflow) = header.totalRecorded.addingReportingOverflow(1)
    guard !overflow else {
      throw Damage(reason: "the count of heartbeats ever recorded is at its limit, \(UInt64.max)")
    }
    if header.capacity != capacity {
      let (_, records) = try records(in: bytes)
      let kept = Array(records.suffix(capacity - 1))
      header = Header(
        capacity: capacity, count: kept.count + 1, next: (kept.count + 1) % capacity,
        totalRecorded: total)
      data = encode(header, kept + [record])
      return true
    }
    let slot = header.next
    if header.count < header.capacity {
      bytes.append(Data(count: recordSize))
      header.count += 1
    }
    header.next = (slot + 1) % header.capacity
    header.totalRecorded = total
    bytes.withUnsafeMutableBytes { raw in
      store(header, raw)
      store(record, at: slot, raw)
    }
    data = bytes
    return true
  }

  /// A ring holding `records` in slots 0, 1, ...
  static func encode(_ header: Header, _ records: [Record]) -> Data {
    var data = Data(count: headerSize + records.count * recordSize)
    data.withUnsafeMutableBytes { raw in
      raw.copyBytes(from: magic)
      raw.storeBytes(of: version.littleEndian, toByteOffset: 4, as: UInt16.self)
      raw.storeBytes(of: UInt16(recordSize).littleEndian, toByteOffset: 6, as: UInt16.self)
      store(header, raw)
      for (slot, record) in records.enumerated() { store(record, at: slot, raw) }
    }
    return data
  }

  private static func store(_ header: Header, _ raw: UnsafeMutableRawBufferPointer) {
    raw.storeBytes(of: UInt32(header.capacity).littleEndian, toByteOffset: 8, as: UInt32.self)
    raw.storeBytes(of: UInt32(header.count).littleEndian, toByteOffset: 12, as: UInt32.self)
    raw.storeBytes(of: UInt32(header.next).littleEndian, toByteOffset: 16, as: UInt32.self)
    raw.storeBytes(of: header.totalRecorded.littleEndian, toByteOffset: 24, as: UInt64.self)
  }

  private static func store(_ record: Record, at slot: Int, _ raw: UnsafeMutableRawBufferPointer) {
    let offset = headerSize + slot * recordSize
    raw.storeBytes(of: record.instant.littleEndian, toByteOffset: offset, as: Int64.self)
    raw.storeBytes(
      of: (record.sequence ?? 0).littleEndian, toByteOffset: offset + 8, as: UInt64.self)
    raw.storeBytes(
      of: (record.memoryBytes ?? 0).littleEndian, toByteOffset: offset + 16, as: UInt64.self)
    let flags: UInt8 = (record.sequence == nil ? 0 : 0b01) | (record.memoryBytes == nil ? 0 : 0b10)
    raw.storeBytes(of: flags, toByteOffset: offset + 24, as: UInt8.self)
    for padding in 25..<32 { raw[offset + padding] = 0 }
  }

  private static func load<T: FixedWidthInteger>(
    _ type: T.Type, _ bytes: UnsafeRawBufferPointer, _ offset: Int
  ) -> T {
    T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
  }
}
