/// CRC-32C (Castagnoli), the checksum that guards every FileStore file.
///
/// Polynomial 0x1EDC6F41 (reflected 0x82F63B78), initial value and final XOR 0xFFFFFFFF, as in
/// iSCSI, ext4 and RFC 3720. Software slicing-by-8 — eight table lookups per eight input bytes —
/// for an input of ``slicingThreshold`` bytes or more, one lookup per byte for a shorter one.
/// The check value of the ASCII bytes "123456789" is 0xE3069283.
package enum CRC32C {
  /// Returns the CRC-32C of `bytes`, continuing from `crc` (the result of an earlier call).
  ///
  /// - Parameters:
  ///   - bytes: The bytes to checksum.
  ///   - crc: The checksum of the bytes before these, or 0 to start afresh.
  /// - Returns: The checksum of all bytes seen so far.
  /// - Complexity: O(*n*) in the number of bytes.
  package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0)
    -> UInt32
  {
    var state = ~crc
    var index = 0
    let count = bytes.count
    tables.withUnsafeBufferPointer { table in
      // Eight bytes at a time reads eight of the tables, 8 KiB in all; a short input — a
      // callback's frame of a few dozen bytes, checksummed after a flush has left the caches
      // cold — touches less memory a byte at a time from the first table's 1 KiB.
      while count - index >= 8, count >= Self.slicingThreshold {
        // Typed partial results: as one expression, Swift 6.0's type checker gives up on it.
        let low01: UInt32 = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
        let low23: UInt32 = UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
        let word: UInt32 = state ^ low01 ^ low23
        let word01: UInt32 =
          table[7 * 256 + Int(word & 0xFF)] ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
        let word23: UInt32 =
          table[5 * 256 + Int((word >> 16) & 0xFF)] ^ table[4 * 256 + Int(word >> 24)]
        let next45: UInt32 =
          table[3 * 256 + Int(bytes[index + 4])] ^ table[2 * 256 + Int(bytes[index + 5])]
        let next67: UInt32 = table[1 * 256 + Int(bytes[index + 6])] ^ table[Int(bytes[index + 7])]
        state = word01 ^ word23 ^ next45 ^ next67
        index += 8
      }
      while index < count {
        state = table[Int((state ^ UInt32(bytes[index])) & 0xFF)] ^ (state >> 8)
        index += 1
      }
    }
    return ~state
  }

  /// Returns the CRC-32C of a byte sequence, copying it into contiguous storage first.
  ///
  /// A separate label keeps raw buffers — the hot path — from resolving to this copying overload.
  ///
  /// - Parameter bytes: The bytes to checksum.
  /// - Returns: The checksum.
  package static func checksum(ofBytes bytes: some Sequence<UInt8>) -> UInt32 {
    Array(bytes).withUnsafeBytes { checksum($0) }
  }

  /// The shortest input checksummed eight bytes at a time.
  static var slicingThreshold: Int { 256 }

  /// Eight 256-entry tables: table 0 is the classic byte table, table k advances k more bytes.
  private static let tables: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
      var crc = UInt32(byte)
      for _ in 0..<8 {
        crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
      }
      table[byte] = crc
    }
    for byte in 0..<256 {
      var crc = table[byte]
      for slice in 1..<8 {
        crc = table[Int(crc & 0xFF)] ^ (crc >> 8)
        table[slice * 256 + byte] = crc
      }
    }
    return table
  }()
}
