import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// Stored bytes that are not UTF-8 are malformed JSON, refused before the decoder sees them
/// (Swift 6.0's Foundation traps on them inside a string instead of throwing).
@Suite("Stored JSON")
struct StoredJSONTests {
  static let invalid: [[UInt8]] = [
    [0xFF],  // never a UTF-8 byte
    [0xC3],  // a two-byte sequence cut short
    [0xC0, 0xAF],  // an overlong encoding of "/"
    [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
    [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
  ]

  @Test("bytes that are not UTF-8 inside a JSON string are a decoding error", arguments: invalid)
  func invalidUTF8IsADecodingError(_ bytes: [UInt8]) {
    let json = Data([0x22] + Array("app".utf8) + bytes + [0x22])
    #expect(!JSONDecoder.isUTF8(json), "refused by the check, not only by this toolchain's decoder")
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decodeStored(String.self, from: json)
    }
  }

  @Test("a typed key whose stored value is not UTF-8 throws the store's decoding error")
  func typedKeyReportsIt() throws {
    let store = InMemoryStore()
    try store.write(Data([0x22, 0xFF, 0x22]), for: "name")
    #expect {
      try store.value(for: StoreKey("name", default: ""))
    } throws: { error in
      guard case .decoding(let key, _, _) = error as? SharedStoreError else { return false }
      return key == "name"
    }
  }

  @Test("UTF-8 beyond ASCII decodes as before")
  func nonASCIIDecodes() throws {
    let text = "é 東京 🕐"
    let json = try JSONEncoder().encode(text)
    #expect(try JSONDecoder().decodeStored(String.self, from: json) == text)
  }

  @Test(
    "the UTF-8 check agrees with Foundation's on random bytes", arguments: [1, 2, 3] as [UInt64])
  func agreesWithFoundation(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...12, using: &random)
      // Mostly bytes at 0x80 and above, where the cases are.
      let bytes = (0..<count).map { _ in UInt8.random(in: 0x60...0xFF, using: &random) }
      let data = Data(bytes)
      #expect(JSONDecoder.isUTF8(data) == (String(data: data, encoding: .utf8) != nil), "\(bytes)")
    }
  }
}
