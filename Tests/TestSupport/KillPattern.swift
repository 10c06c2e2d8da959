import Foundation

/// Self-checking values for the kill-safety suite: a counter followed by bytes derived from it.
///
/// A value read back after a writer was killed is either one complete pattern — the old value or
/// the new one — or a torn mix that ``counter(in:)`` rejects.
package enum KillPattern {
  /// A value of `size` bytes (at least 8) for `counter`.
  ///
  /// - Parameters:
  ///   - counter: The value's number; the first eight bytes, big-endian.
  ///   - size: The total size in bytes.
  /// - Returns: The value.
  package static func value(_ counter: UInt64, size: Int) -> Data {
    var data = Data(count: max(size, 8))
    data.withUnsafeMutableBytes { bytes in
      for index in 0..<8 {
        bytes[index] = UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64(index)))
      }
      for index in 8..<bytes.count {
        bytes[index] = UInt8(truncatingIfNeeded: counter &* 31 &+ UInt64(index))
      }
    }
    return data
  }

  /// The counter of a complete pattern of `size` bytes, or `nil` for anything else.
  ///
  /// - Parameters:
  ///   - data: A value read back.
  ///   - size: The expected size.
  /// - Returns: The counter, or `nil` when the value is torn or of the wrong size.
  package static func counter(in data: Data, size: Int) -> UInt64? {
    guard data.count == max(size, 8) else { return nil }
    let counter = data.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return data == value(counter, size: size) ? counter : nil
  }
}
