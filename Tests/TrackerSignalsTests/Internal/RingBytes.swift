import Foundation

/// A stored heartbeat history built field by field, in the binary layout `HeartbeatRecorder`
/// documents (`TheHeartbeatHotPath` article), so that tests can write any damage into it.
struct RingBytes {
  struct Record {
    var instant: Int64
    var sequence: UInt64 = 0
    var memory: UInt64 = 0
    var flags: UInt8 = 0
    var padding: UInt8 = 0
  }

  var magic = Array("STKH".utf8)
  var version: UInt16 = 1
  var recordSize: UInt16 = 32
  var capacity: UInt32
  var count: UInt32
  var next: UInt32
  var reserved: UInt32 = 0
  var totalRecorded: UInt64
  var records: [Record]
  /// Bytes appended after the records.
  var trailing: [UInt8] = []

  /// A consistent ring of `capacity` slots holding `instants` oldest first (all of them fit).
  init(capacity: UInt32, instants: [Int64]) {
    self.capacity = capacity
    count = UInt32(instants.count)
    next = UInt32(instants.count) % capacity
    totalRecorded = UInt64(instants.count)
    records = instants.map { Record(instant: $0) }
  }

  var data: Data {
    var bytes = magic
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    append(version)
    append(recordSize)
    append(capacity)
    append(count)
    append(next)
    append(reserved)
    append(totalRecorded)
    for record in records {
      append(record.instant)
      append(record.sequence)
      append(record.memory)
      bytes.append(record.flags)
      bytes.append(record.padding)
      bytes += [UInt8](repeating: 0, count: 6)
    }
    return Data(bytes + trailing)
  }
}
