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
  /// The most bytes the encoding of `count` bytes takes: one more per 254, plus one.
  static func encodedBound(_ count: Int) -> Int {
    count + count / 254 + 1
  }

  /// Writes the encoding of `input` at the start of `output`, which holds at least
  /// ``encodedBound(_:)`` bytes, and returns its length; the result contains no `0x00`.
  ///
  /// Each run of bytes between zeros is written as blocks: 254 bytes after the code `0xFF`
  /// while that many remain, then the rest (possibly nothing) after the code `count + 1`, which
  /// stands for the zero that ends the run too (except after the last run).
  ///
  /// - Complexity: O(*n*), copying runs whole.
  static func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
    -> Int
  {
    precondition(output.count >= encodedBound(input.count), "the output is too small")
    var length = 0
    func put(_ code: Int, _ run: Range<Int>) {
      output[length] = UInt8(code)
      UnsafeMutableRawBufferPointer(rebasing: output[length + 1..<length + 1 + run.count])
        .copyMemory(from: UnsafeRawBufferPointer(rebasing: input[run]))
      length += 1 + run.count
    }
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
        put(0xFF, block..<block + 254)
        block += 254
      }
      put(zero - block + 1, block..<zero)
      if zero == input.count { return length }
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
  /// The most bytes a value takes: 10, for 64 bits at seven a byte.
  static var maximumSize: Int { 10 }

  /// Writes `value` into `output` at `index`, advancing it; `output` has room for
  /// ``maximumSize`` bytes there.
  static func write(_ value: UInt64, to output: UnsafeMutableRawBufferPointer, at index: inout Int)
  {
    var value = value
    while value >= 0x80 {
      output[index] = UInt8(truncatingIfNeeded: value) | 0x80
      index += 1
      value >>= 7
    }
    output[index] = UInt8(value)
    index += 1
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
