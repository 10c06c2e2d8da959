import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// Damaged, truncated and foreign files are reported precisely and never changed.
@Suite("FileStore corruption")
struct CorruptionTests {
  /// A store with one valid value under `key`, and the bytes of that value's file.
  struct Fixture {
    let directory: TemporaryDirectory
    let store: FileStore
    let path: String
    let valid: Data

    init(payload: Data = Data(#"{"minutes":42,"app":"com.example"}"#.utf8)) throws {
      directory = try TemporaryDirectory()
      store = try FileStore(directory: directory.url, durability: .processCrashSafe)
      try store.write(payload, for: "key")
      path = directory.url.appendingPathComponent("key").path
      valid = try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func replaceFile(with bytes: Data) throws {
      try bytes.write(to: URL(fileURLWithPath: path))
    }

    func fileBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Every read path of the store, each of which must throw for a damaged file.
    var readers: [(String, () throws -> Void)] {
      [
        ("read", { _ = try store.read("key") }),
        (
          "update",
          {
            try store.update("key") { _ -> Void in Issue.record("body ran on a damaged file") }
          }
        ),
        ("typed value", { _ = try store.value(for: StoreKey("key", default: [String: Int]())) }),
      ]
    }
  }

  static func isCorrupted(_ error: any Error) -> Bool {
    guard case .corrupted(let key, _, _) = error as? SharedStoreError else { return false }
    return key == "key"
  }

  /// Checks that every read path throws `corrupted` and the file is byte-identical afterwards.
  static func expectCorrupted(_ fixture: Fixture, _ bytes: Data, _ comment: Comment) throws {
    try fixture.replaceFile(with: bytes)
    for (name, reader) in fixture.readers {
      #expect("\(comment) via \(name)", performing: reader, throws: isCorrupted)
    }
    #expect(try fixture.fileBytes() == bytes, "\(comment): the file must not change")
  }

  @Test("an empty file is corrupted")
  func emptyFileIsCorrupted() throws {
    let fixture = try Fixture()
    try Self.expectCorrupted(fixture, Data(), "empty")
  }

  @Test("every truncated prefix of a valid file is corrupted")
  func everyTruncatedPrefixIsCorrupted() throws {
    let fixture = try Fixture()
    for length in 0..<fixture.valid.count {
      try Self.expectCorrupted(fixture, fixture.valid.prefix(length), "prefix of \(length) bytes")
    }
  }

  @Test("a valid file with bytes appended is corrupted")
  func trailingBytesAreCorrupted() throws {
    let fixture = try Fixture()
    try Self.expectCorrupted(fixture, fixture.valid + Data([0]), "one extra byte")
  }

  @Test("every single-bit flip of a valid file is detected")
  func everySingleBitFlipIsDetected() throws {
    let fixture = try Fixture()
    for byte in 0..<fixture.valid.count {
      for bit in 0..<8 {
        var damaged = fixture.valid
        damaged[byte] ^= 1 << bit
        try Self.expectCorrupted(fixture, damaged, "bit \(bit) of byte \(byte)")
      }
    }
  }

  @Test("random bytes are corrupted", arguments: 0..<50)
  func randomBytesAreCorrupted(seed: UInt64) throws {
    let fixture = try Fixture()
    var generator = SplitMix64(seed: seed)
    let length = Int.random(in: 0...300, using: &generator)
    let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try Self.expectCorrupted(fixture, bytes, "seed \(seed)")
  }

  @Test("a JSON file written by something else is corrupted, not decoded")
  func foreignJSONIsCorrupted() throws {
    let fixture = try Fixture()
    try Self.expectCorrupted(fixture, Data(#"{"minutes":42}"#.utf8), "foreign JSON")
  }

  @Test("a file of a newer format version is reported as such and left untouched")
  func newerFormatVersionIsReported() throws {
    let fixture = try Fixture()
    var newer = fixture.valid
    newer[4] = 2
    newer[5] = 0
    newer[6] = ~2
    newer[7] = 0xFF
    try fixture.replaceFile(with: newer)
    for (name, reader) in fixture.readers {
      #expect(
        throws: SharedStoreError.unsupportedFormatVersion(
          key: "key", path: fixture.path, found: 2, supported: 1),
        "\(name)", performing: reader)
    }
    #expect(
      throws: SharedStoreError.unsupportedFormatVersion(
        key: "key", path: fixture.path, found: 2, supported: 1)
    ) { _ = try fixture.store.changeToken(for: "key") }
    #expect(try fixture.fileBytes() == newer)
  }

  @Test("the change token of a file with a damaged header is an error, not nil")
  func damagedHeaderTokenThrows() throws {
    let fixture = try Fixture()
    var damaged = fixture.valid
    damaged[9] ^= 0x10
    try fixture.replaceFile(with: damaged)
    #expect(throws: (any Error).self) { _ = try fixture.store.changeToken(for: "key") }
    #expect(
      performing: { _ = try fixture.store.changeToken(for: "key") }, throws: Self.isCorrupted)
  }

  @Test("quarantine moves a damaged file aside byte for byte and the key starts afresh")
  func quarantineRecoversDamagedFile() throws {
    let fixture = try Fixture()
    let damaged = fixture.valid.prefix(20)
    try fixture.replaceFile(with: damaged)
    let kept = try #require(try fixture.store.quarantine("key"))
    #expect(kept.hasSuffix("/.quarantined.key.1"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == damaged)
    #expect(try fixture.store.read("key") == nil)
    #expect(try fixture.store.keys().isEmpty)
    try fixture.store.write(Data("fresh".utf8), for: "key")
    #expect(try fixture.store.read("key") == Data("fresh".utf8))
  }

  @Test("a plain write replaces a damaged file")
  func writeReplacesDamagedFile() throws {
    let fixture = try Fixture()
    try fixture.replaceFile(with: Data("garbage".utf8))
    try fixture.store.write(Data("new".utf8), for: "key")
    #expect(try fixture.store.read("key") == Data("new".utf8))
  }

  @Test("the corrupted message names the key, the path and what is wrong")
  func corruptedMessageIsActionable() throws {
    let fixture = try Fixture()
    try fixture.replaceFile(with: Data())
    do {
      _ = try fixture.store.read("key")
      Issue.record("expected an error")
    } catch {
      #expect(error.description.contains("'key'"))
      #expect(error.description.contains(fixture.path))
      #expect(error.description.contains("empty"))
      #expect(error.description.contains("quarantine"))
    }
  }
}
