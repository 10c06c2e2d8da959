import Foundation

extension DiagnosticEntry {
  /// A stable identifier for an entry made from `parts`: equal parts give equal identifiers, so
  /// that an entry logged again for the same occurrence is counted once by
  /// ``/TrackerSignals/DiagnosticLog``.
  ///
  /// Two 64-bit FNV-1a hashes of the parts, with different offsets, laid out as a version-8
  /// (custom) UUID. Not for security; collisions between different occurrences are as unlikely
  /// as between random identifiers of 122 bits.
  ///
  /// - Parameter parts: What identifies the occurrence.
  /// - Returns: The identifier.
  package static func identifier(of parts: [String]) -> UUID {
    var first: UInt64 = 0xCBF2_9CE4_8422_2325
    var second: UInt64 = 0x6C62_272E_07BB_0142
    for part in parts {
      for byte in part.utf8 + [0] {
        first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
      }
    }
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in 0..<8 {
      bytes[index] = UInt8(truncatingIfNeeded: first >> (56 - 8 * UInt64(index)))
      bytes[8 + index] = UInt8(truncatingIfNeeded: second >> (56 - 8 * UInt64(index)))
    }
    bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}
