import Foundation
import Testing

@testable import SharedStore

@Suite("File format")
struct FileFormatTests {
  @Test("CRC-32C of \"123456789\" is the standard check value 0xE3069283")
  func crc32cCheckValue() {
    #expect(CRC32C.checksum(ofBytes: Array("123456789".utf8)) == 0xE306_9283)
    #expect(CRC32C.checksum(ofBytes: [UInt8]()) == 0)
  }

  @Test(
    "CRC-32C computed in pieces equals CRC-32C of the whole",
    arguments: [0, 1, 7, 8, 9, 63, 64, 65, 1000])
  func crc32cContinues(split: Int) {
    let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    let whole = CRC32C.checksum(ofBytes: bytes)
    let first = bytes[..<split].withUnsafeBytes { CRC32C.checksum($0) }
    let both = bytes[split...].withUnsafeBytes { CRC32C.checksum($0, continuing: first) }
    #expect(both == whole)
  }

  @Test("CRC-32C agrees with a bit-by-bit reference, a byte at a time and eight at a time")
  func crc32cMatchesReference() {
    func reference(_ bytes: [UInt8]) -> UInt32 {
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
      }
      return ~crc
    }
    let slicing = CRC32C.slicingThreshold
    for length in Array(0...100) + Array(slicing - 9...slicing + 9) + [1_000] {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
      #expect(CRC32C.checksum(ofBytes: bytes) == reference(bytes), "length \(length)")
    }
  }

  @Test("the header lays out magic, version, complement, generation, length and checksums")
  func headerLayout() throws {
    let payload = Data("hello".utf8)
    let file = StoreFileFormat.encode(payload: payload, generation: 0x0102_0304_0506_0708)
    #expect(file.count == 32 + 5)
    #expect(Array(file[0..<4]) == Array("STKS".utf8))
    #expect(Array(file[4..<8]) == [0x01, 0x00, 0xFE, 0xFF])
    #expect(Array(file[8..<16]) == [0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
    #expect(Array(file[16..<24]) == [5, 0, 0, 0, 0, 0, 0, 0])
    let payloadCRC = CRC32C.checksum(ofBytes: Array(payload))
    #expect(Array(file[24..<28]) == withUnsafeBytes(of: payloadCRC.littleEndian) { Array($0) })
    let headerCRC = CRC32C.checksum(ofBytes: Array(file[0..<28]))
    #expect(Array(file[28..<32]) == withUnsafeBytes(of: headerCRC.littleEndian) { Array($0) })
    #expect(file.suffix(5) == payload)
  }

  @Test("an encoded file decodes to its generation and payload", arguments: [0, 1, 31, 32, 4096])
  func encodedFileDecodes(size: Int) throws {
    let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0) })
    let decoded = try StoreFileFormat.decode(
      StoreFileFormat.encode(payload: payload, generation: 99)
    ).get()
    #expect(decoded.generation == 99)
    #expect(decoded.payload == payload)
    let header = try StoreFileFormat.decodeHeader(
      StoreFileFormat.encode(payload: payload, generation: 99).prefix(32)
    ).get()
    #expect(header.generation == 99)
    #expect(header.payloadLength == size)
  }
}

@Suite("File names")
struct FileNameTests {
  @Test(
    "uppercase letters are escaped so that names stay unique on case-insensitive volumes",
    arguments: [
      ("count", "count"), ("Count", "^count"), ("launchCount", "launch^count"),
      ("ABC", "^a^b^c"), ("a.B-c_D9", "a.^b-c_^d9"), ("Zulu", "^zulu"), ("az09._-", "az09._-"),
    ])
  func uppercaseIsEscaped(key: String, fileName: String) {
    #expect(FileName.forKey(key) == fileName)
    #expect(FileName.key(forFileName: fileName) == key)
  }

  @Test(
    "names that are not encoded keys are not keys",
    arguments: [".lock", ".tmp.x.1", ".quarantined.x.1", "Upper", "trailing^", "^1", "a b", ""])
  func foreignNamesAreNotKeys(name: String) {
    #expect(FileName.key(forFileName: name) == nil)
  }

  @Test("no two keys of a sample share a file name under case folding")
  func namesAreUniqueUnderCaseFolding() {
    let keys = ["a", "A", "aA", "Aa", "AA", "aa", "a^", "x.Y", "X.y"].filter {
      StoreKeyRules.violation(in: $0) == nil
    }
    let folded = Set(keys.map { FileName.forKey($0).lowercased() })
    #expect(folded.count == keys.count)
  }
}
