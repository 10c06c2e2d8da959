import Foundation

/// One record of an append-only log: its bytes and the position the store gave it.
///
/// Positions number a log's records 1, 2, 3, … in the order they were appended, are handed out
/// under the store's lock — so two processes appending at once never get the same one — and are
/// never reused within the log's ``LogSnapshot/identity``: evicting or compacting records leaves
/// gaps below the newest, never a second record at a position.
public struct LogRecord: Sendable, Hashable {
  /// The record's position in its log, from 1.
  public let position: UInt64
  /// The bytes appended.
  public let bytes: Data

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - position: The record's position in its log.
  ///   - bytes: The record's bytes.
  public init(position: UInt64, bytes: Data) {
    self.position = position
    self.bytes = bytes
  }
}
