import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// A log frame is written in temporary buffers (`LogFileFormat.withFrame`): its bytes are the
/// textbook encoding — varints, records, CRC-32C, then COBS and a final `0x00` — for every
/// length, including runs of 254 bytes and more without a zero, where COBS adds a code byte.
@Suite("Log frames, encoded in place")
struct FrameEncodingTests {
  /// COBS as its definition states it, one byte at a time: each zero ends a block, written as
  /// its length plus one; a block that reaches 254 bytes is written with the code 0xFF and no
  /// zero.
  static func referenceCOBS(_ input: [UInt8]) -> [UInt8] {
    var encoded: [UInt8] = []
    var block: [UInt8] = []
    for byte in input {
      if byte == 0 {
        encoded += [UInt8(block.count + 1)] + block
        block = []
      } else {
        block.append(byte)
        if block.count == 254 {
          encoded += [0xFF] + block
          block = []
        }
      }
    }
    return encoded + [UInt8(block.count + 1)] + block
  }

  /// A frame as the format describes it, built from first principles.
  static func referenceFrame(ordinal: Int, firstPosition: UInt64, records: [[UInt8]])
    -> [UInt8]
  {
    func varint(_ value: UInt64) -> [UInt8] {
      var value = value
      var bytes: [UInt8] = []
      repeat {
        let low = UInt8(value & 0x7F)
        value >>= 7
        bytes.append(value == 0 ? low : low | 0x80)
      } while value != 0
      return bytes
    }
    var content = varint(UInt64(ordinal)) + varint(firstPosition) + varint(UInt64(records.count))
    for record in records { content += varint(UInt64(record.count)) + record }
    let crc = CRC32C.checksum(ofBytes: content)
    content += withUnsafeBytes(of: crc.littleEndian) { Array($0) }
    return referenceCOBS(content) + [0]
  }

  /// Records of every kind that matters to COBS: empty, all zeros, none, and long runs.
  static func records(_ random: inout SplitMix64) -> [[UInt8]] {
    (0..<Int.random(in: 1...4, using: &random)).map { _ in
      let lengths = [0, 1, 13, 253, 254, 255, 508, 600, 1_100]
      let count = lengths[Int.random(in: 0..<lengths.count, using: &random)]
      let zeros = [0, 1, 50][Int.random(in: 0..<3, using: &random)]
      return (0..<count).map { _ in
        Int.random(in: 0..<100, using: &random) < zeros
          ? 0 : UInt8.random(in: 1...255, using: &random)
      }
    }
  }

  @Test("a frame's bytes are the reference encoding, and decode to its records", arguments: 0..<200)
  func frameMatchesReference(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed))
    let records = Self.records(&random)
    let ordinal = Int.random(in: 0...1 << 40, using: &random)
    let position = UInt64.random(in: 1...UInt64.max, using: &random)
    let expected = Self.referenceFrame(ordinal: ordinal, firstPosition: position, records: records)
    let frame = LogFileFormat.frame(
      ordinal: ordinal, firstPosition: position, records: records.map { Data($0) })
    #expect(Array(frame) == expected)
    #expect(!frame.dropLast().contains(0), "a frame holds no 0x00 but its last byte")
    let decoded = frame.dropLast().withUnsafeBytes { LogFileFormat.decodeFrame($0) }
    let value = try decoded.get()
    #expect(value.ordinal == ordinal && value.firstPosition == position)
    #expect(value.records.map { Array($0) } == records)
  }

  @Test("a frame after an unterminated tail starts with the 0x00 that ends it")
  func frameAfterZero() {
    let records = [Data([0x41, 0, 0x42])]
    let plain = LogFileFormat.frame(ordinal: 3, firstPosition: 9, records: records)
    let after = LogFileFormat.withFrame(
      ordinal: 3, firstPosition: 9, records: records, afterZero: true
    ) { Data($0) }
    #expect(after == Data([0]) + plain)
  }

  @Test("control: the reference differs from an encoder that forgets the 254-byte blocks")
  func referenceSeesLongRuns() {
    let run = [UInt8](repeating: 7, count: 300)
    let naive = [UInt8(1)] + run  // one code byte for the whole run: not COBS
    #expect(Self.referenceCOBS(run) != naive)
    #expect(Self.referenceCOBS(run).count == run.count + 2)
  }
}
