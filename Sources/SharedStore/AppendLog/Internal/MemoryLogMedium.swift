import Foundation

/// A log held as bytes in memory: the log of an ``InMemoryStore`` key, or the value under which a
/// store of your own keeps a log (the default implementation of the log requirements).
struct MemoryLogMedium: LogMedium {
  /// The log's bytes, in the format of a log file, or `nil` when there is no log.
  private(set) var bytes: Data?
  /// Whether an append or a replacement changed the bytes.
  private(set) var changed = false

  init(_ bytes: Data?) {
    self.bytes = bytes
  }

  var exists: Bool { bytes != nil }

  var maximumSize: Int { .max }

  func size() -> Int { bytes?.count ?? 0 }

  func read(from offset: Int, count: Int) -> Data {
    guard let bytes else { return Data() }
    let start = bytes.startIndex + offset
    return Data(bytes[start..<start + count])
  }

  mutating func append(_ new: UnsafeRawBufferPointer, at offset: Int) {
    precondition(offset == size(), "a log grows at its end")
    bytes?.append(contentsOf: new)
    changed = true
  }

  mutating func replace(with new: Data) {
    bytes = new
    changed = true
  }
}

extension LogEngine where Medium == MemoryLogMedium {
  /// An engine over bytes in memory, drawing identities from the system's generator.
  init(bytes: Data?, key: String, path: String) {
    self.init(
      medium: MemoryLogMedium(bytes), key: key, path: path,
      random: { UInt64.random(in: 1...UInt64.max) })
  }
}
