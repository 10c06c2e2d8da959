import Foundation
import SharedStore

/// A stored heartbeat history built field by field — an append-only log of heartbeat records in
/// the layout the `TheHeartbeatHotPath` article documents — so that tests can write any damage
/// into it.
struct HeartbeatLogBytes {
  struct Record {
    var version: UInt8 = 1
    var flags: UInt8 = 0
    var instant: Int64
    var sequence: UInt64?
    var memory: UInt64?
    /// Bytes appended after the fields.
    var trailing: [UInt8] = []

    var bytes: Data {
      var bytes: [UInt8] = [version, flags]
      func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
      }
      append(instant)
      if let sequence { append(sequence) }
      if let memory { append(memory) }
      return Data(bytes + trailing)
    }
  }

  var capacity: Int
  var records: [Record]
  /// The position of the first record.
  var first: UInt64 = 1
  /// The position the next record takes; after the last record unless set.
  var nextPosition: UInt64?

  /// A history of `capacity` holding `instants` oldest first, without sequence or memory.
  init(capacity: Int, instants: [Int64]) {
    self.capacity = capacity
    records = instants.map { Record(instant: $0) }
  }

  /// Stores the history under `key` of `store`.
  func store(in store: InMemoryStore, key: String) {
    let end = first + UInt64(records.count)
    let header = LogFileFormat.Header(
      tokenBase: 1, identity: 7, capacity: capacity, evicted: 0,
      nextPosition: nextPosition ?? end)
    let stored = records.enumerated().map { index, record in
      LogRecord(position: first + UInt64(index), bytes: record.bytes)
    }
    store.setLogBytes(LogFileFormat.file(header: header, records: stored), for: key)
  }
}
