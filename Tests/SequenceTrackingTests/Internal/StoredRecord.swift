import Foundation
import SequenceTracking
import SharedStore

/// A consumer's record as the store holds it: the newest version in the key's log
/// (`OutboxConsumer.recordStorage`).
extension SharedStore {
  /// Stores `bytes` as the newest version of the consumer record under `key`, as a process
  /// that wrote it would have.
  func plantRecord(_ bytes: Data, for key: String) throws {
    guard case .versions(let keeping) = OutboxConsumer<Int, Int>.recordStorage else {
      try write(bytes, for: key)
      return
    }
    try append([bytes], toLog: key, capacity: keeping)
  }

  /// The bytes of the newest version of the consumer record under `key`.
  func recordBytes(_ key: String) throws -> Data? {
    try readLog(key, newest: 1)?.records.last?.bytes
  }
}
