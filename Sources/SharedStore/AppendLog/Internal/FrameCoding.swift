#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

/// Consistent Overhead Byte Stuffing and LEB128 varints: the two encodings inside a log frame.
///
/// COBS rewrites bytes so that `0x00` never occurs in them, at a cost of one byte per 254 (plus
/// one). A log ends every frame with a `0x00`, so a frame boundary can be found from either end
/// of a file without trusting any length field, and a frame cut short by a killed writer never
/// ends in `0x00`: whatever bytes a record holds, a torn frame cannot pass for a complete one.
enum COBS {
  /// Appends the encoding of `input` to `output`; the result contains no `0x00`.
  ///
  /// Each run of bytes between zeros is written as blocks: 254 bytes after the code `0xFF`
  /// while that many remain, then the rest (possibly nothing) after the code `count + 1`, which
  /// stands for the zero that ends the run too (except after the last run).
  ///
  /// - Complexity: O(*n*), copying runs whole.
  static func encode(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
    output.reserveCapacity(output.count + input.count + input.count / 254 + 2)
    var start = 0
    while true {
      var zero = input.count
      if start < input.count, let base = input.baseAddress,
        let hit = memchr(base + start, 0, input.count - start)
      {
        zero = base.distance(to: UnsafeRawPointer(hit))
      }
      var block = start
      while zero - block >= 254 {
        output.append(0xFF)
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[block..<block + 254]))
        block += 254
      }
      output.append(UInt8(zero - block + 1))
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[block..<zero]))
      if zero == input.count { return }
      start = zero + 1
    }
  }

  /// Decodes `input`, which must contain no `0x00` (the bytes between two of them); `nil` when
  /// it is not a valid encoding.
  ///
  /// - Complexity: O(*n*), copying runs whole.
  static func decode(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
    var output: [UInt8] = []
    return decode(input, into: &output) ? output : nil
  }

  /// Decodes `input` into `output`, replacing what it held but keeping its capacity, so that a
  /// reader of many frames allocates once; `false` when `input` is not a valid encoding.
  ///
  /// - Complexity: O(*n*), copying runs whole.
  static func decode(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Bool {
    output.removeAll(keepingCapacity: true)
    output.reserveCapacity(input.count)
    var index = 0
    let count = input.count
    while index < count {
      let code = Int(input[index])
      guard code != 0 else { return false }
      index += 1
      let end = index + code - 1
      guard end <= count else { return false }
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<end]))
      index = end
      if code != 0xFF && index < count { output.append(0) }
    }
    return true
  }
}

/// Unsigned LEB128: seven bits a byte, least significant first, the high bit set on every byte
/// but the last.
enum Varint {
  /// Appends `value` to `output`.
  static func append(_ value: UInt64, to output: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      output.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    output.append(UInt8(value))
  }

  /// Reads a value at `index`, advancing it; `nil` when the bytes end first or the value does
  /// not fit in 64 bits (or is not written in its shortest form).
  static func read(_ bytes: UnsafeRawBufferPointer, at index: inout Int, end: Int) -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while index < end {
      let byte = bytes[index]
      index += 1
      let payload = UInt64(byte & 0x7F)
      guard shift < 64, shift < 63 || payload <= 1 else { return nil }
      value |= payload << shift
      if byte & 0x80 == 0 {
        // The shortest form only: a final zero byte after others is padding.
        guard byte != 0 || shift == 0 else { return nil }
        return value
      }
      shift += 7
    }
    return nil
  }
}
