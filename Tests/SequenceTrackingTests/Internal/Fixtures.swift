import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing

/// Fixed epochs, so that expected values can be written out.
extension SequenceEpoch {
  static let a = SequenceEpoch(rawValue: 0xA)
  static let b = SequenceEpoch(rawValue: 0xB)
}

/// A number of epoch `a` (or another epoch).
func number(_ value: UInt64, _ epoch: SequenceEpoch = .a) -> SequenceNumber {
  SequenceNumber(epoch: epoch, value: value)
}

/// A range of epoch `a` (or another epoch).
func range(_ values: ClosedRange<UInt64>, _ epoch: SequenceEpoch = .a) -> SequenceRange {
  SequenceRange(epoch: epoch, values: values)
}

/// The JSON a store writes for `value`: sorted keys, no escaped slashes.
func storedJSON(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// Decodes `json` as `type`.
func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
  try JSONDecoder().decode(type, from: Data(json.utf8))
}

/// The stores the outbox and counter suites run against.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case inMemory
  case file

  var testDescription: String { rawValue }

  /// A fresh store, and the temporary directory to keep alive while it is used.
  func makeStore() throws -> (store: any SharedStore, directory: TemporaryDirectory?) {
    switch self {
    case .inMemory:
      return (InMemoryStore(), nil)
    case .file:
      let directory = try TemporaryDirectory(prefix: "stk-sequence")
      return (try FileStore(directory: directory.url, durability: .processCrashSafe), directory)
    }
  }
}

/// A payload for outbox tests.
struct Event: Codable, Sendable, Hashable {
  var app: String
  var seconds: Int
}

/// Stores under `key` an outbox of `epoch` holding `payloads` (JSON text) numbered from `first`,
/// in the stored layout a publish writes (see
/// `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/SequenceTracking-OutboxFormat.md`):
/// an append-only log whose identity is the epoch and whose records are the byte 1 followed by
/// the payload.
func storeOutbox(
  in store: InMemoryStore, key: String = "outbox", epoch: SequenceEpoch = .a, first: UInt64 = 1,
  payloads: [String], capacity: Int = 100
) {
  storeOutbox(
    in: store, key: key, epoch: epoch, first: first,
    records: payloads.map { Data([1]) + Data($0.utf8) }, capacity: capacity)
}

/// Stores under `key` an outbox log of `epoch` holding `records` as they are, numbered from
/// `first`.
func storeOutbox(
  in store: InMemoryStore, key: String = "outbox", epoch: SequenceEpoch = .a, first: UInt64 = 1,
  records: [Data], capacity: Int = 100
) {
  let header = LogFileFormat.Header(
    tokenBase: 1, identity: epoch.rawValue, capacity: capacity, evicted: first - 1,
    nextPosition: first + UInt64(records.count))
  let stored = records.enumerated().map { index, bytes in
    LogRecord(position: first + UInt64(index), bytes: bytes)
  }
  store.setLogBytes(LogFileFormat.file(header: header, records: stored), for: key)
}
