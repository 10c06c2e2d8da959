import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// A typed key kept as versions (`ValueStorage.versions(keeping:)`): the same values as a
/// replaced key, one flush per change on a durable `FileStore`, and a change cut short reads as
/// the version before it.
@Suite("Values kept as versions")
struct VersionedValueTests {
  struct Fixture {
    let directory: TemporaryDirectory
    let fileSystem = FaultyFileSystem()
    let store: FileStore
    var path: String { directory.url.appendingPathComponent("cursor").path }

    init() throws {
      directory = try TemporaryDirectory(prefix: "stk-versions")
      store = try FileStore(directory: directory.url, durability: .durable, fileSystem: fileSystem)
    }
  }

  static let versioned = StoreKey("cursor", default: 0, storage: .versions(keeping: 4))

  @Test("a change of a value kept as versions is one flush of its file and no rename")
  func oneFlushPerChange() throws {
    let fixture = try Fixture()
    try fixture.store.update(Self.versioned) { $0 += 1 }  // creates the log: a rename
    let flushes = fixture.fileSystem.count(.synchronize)
    let renames = fixture.fileSystem.count(.rename)
    try fixture.store.update(Self.versioned) { $0 += 1 }
    #expect(fixture.fileSystem.count(.synchronize) == flushes + 1, "the file, not the directory")
    #expect(fixture.fileSystem.count(.rename) == renames)
    #expect(try fixture.store.value(for: Self.versioned) == 2)
  }

  @Test("control: a change of a replaced value flushes the new file and the directory, and renames")
  func replacedValueCostsTwoFlushes() throws {
    let fixture = try Fixture()
    let replaced = StoreKey("cursor", default: 0)
    try fixture.store.update(replaced) { $0 += 1 }
    let flushes = fixture.fileSystem.count(.synchronize)
    let renames = fixture.fileSystem.count(.rename)
    try fixture.store.update(replaced) { $0 += 1 }
    #expect(fixture.fileSystem.count(.synchronize) == flushes + 2)
    #expect(fixture.fileSystem.count(.rename) == renames + 1)
  }

  @Test("the log of versions is compacted once every `keeping` + 1 changes, by a rename")
  func compactedEveryKeepingChanges() throws {
    let fixture = try Fixture()
    for _ in 1...40 { try fixture.store.update(Self.versioned) { $0 += 1 } }
    #expect(try fixture.store.value(for: Self.versioned) == 40)
    // The creation; then the 9th change finds 8 versions and compacts to 4 (the 9th included),
    // and so does every 5th change after it: the 9th, 14th, ..., 39th.
    #expect(fixture.fileSystem.count(.rename) == 1 + 7)
    let log = try #require(try fixture.store.readLog("cursor"))
    #expect(log.records.count == 4)
    #expect(
      log.records.map { String(decoding: $0.bytes, as: UTF8.self) } == ["37", "38", "39", "40"])
  }

  @Test("a change cut short by a kill reads as the version before it; the next change goes on")
  func tornChangeReadsTheVersionBefore() throws {
    let fixture = try Fixture()
    for _ in 1...3 { try fixture.store.update(Self.versioned) { $0 += 1 } }
    let intact = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    try fixture.store.update(Self.versioned) { $0 = 1_000_000 }
    let changed = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    #expect(changed.count > intact.count + 2)
    for cut in intact.count + 1..<changed.count - 1 {
      try changed.prefix(cut).write(to: URL(fileURLWithPath: fixture.path))
      #expect(try fixture.store.value(for: Self.versioned) == 3, "cut at \(cut)")
    }
    try fixture.store.update(Self.versioned) { $0 += 1 }
    #expect(try fixture.store.value(for: Self.versioned) == 4)
  }

  @Test("a key keeps the storage it was first written with: the other is a kind mismatch")
  func storageIsTheKeys() throws {
    let store = InMemoryStore()
    try store.set(1, for: StoreKey("replaced", default: 0))
    #expect(throws: SharedStoreError.kindMismatch(key: "replaced", holds: .value)) {
      try store.update(StoreKey("replaced", default: 0, storage: .versions(keeping: 2))) {
        $0 += 1
      }
    }
    try store.set(1, for: StoreKey("versioned", default: 0, storage: .versions(keeping: 2)))
    #expect(throws: SharedStoreError.kindMismatch(key: "versioned", holds: .log)) {
      try store.value(for: StoreKey("versioned", default: 0))
    }
  }

  @Test("keeping fewer than one version is refused at the first change, and nothing is stored")
  func keepingMustBePositive() throws {
    let store = InMemoryStore()
    let key = StoreKey("n", default: 0, storage: .versions(keeping: 0))
    #expect(throws: SharedStoreError.invalidCapacity(key: "n", capacity: 0)) {
      try store.update(key) { $0 += 1 }
    }
    #expect(store.keys().isEmpty)
  }

  @Test(
    "random sets, updates and removals read the same under either storage",
    arguments: [1, 2, 3] as [UInt64])
  func sameValuesAsReplaced(seed: UInt64) throws {
    let fixture = try Fixture()
    var random = SplitMix64(seed: seed)
    let versioned = StoreKey("v", default: [Int](), storage: .versions(keeping: 3))
    var reference: [Int] = []  // what a replaced key holds after the same operations
    for step in 0..<200 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0:
        try fixture.store.removeValue(for: versioned)
        reference = []
      case 1...2:
        let value = (0..<Int.random(in: 0...3, using: &random)).map { _ in step }
        try fixture.store.set(value, for: versioned)
        reference = value
      default:
        let unchanged = Bool.random(using: &random)
        try fixture.store.update(versioned) { if !unchanged { $0.append(step) } }
        if !unchanged { reference.append(step) }
      }
      #expect(try fixture.store.value(for: versioned) == reference, "step \(step)")
    }
  }

  /// A JSON codec that counts its decodes.
  static func countingCodec(_ decodes: LockedValue<Int>) -> StoreCodec<Int> {
    StoreCodec(
      encode: { try JSONEncoder().encode($0) },
      decode: { data in
        decodes.withLock { $0 += 1 }
        return try JSONDecoder().decode(Int.self, from: data)
      })
  }

  @Test("a key kept as versions decodes the same stored bytes once: reads and updates reuse them")
  func sameBytesDecodeOnce() throws {
    let store = InMemoryStore()
    let decodes = LockedValue(0)
    let key = StoreKey(
      "n", default: 0, codec: Self.countingCodec(decodes), storage: .versions(keeping: 4))
    for step in 1...5 {
      try store.update(key) { $0 += 1 }
      #expect(try store.value(for: key) == step)
    }
    #expect(try store.value(for: key) == 5)
    #expect(decodes.withLock { $0 } == 0, "every version read was one this key stored")
    // Another writer's version is new bytes: decoded, never mistaken for the remembered one.
    try store.append([Data("41".utf8)], toLog: "n", capacity: 4)
    #expect(try store.value(for: key) == 41)
    #expect(decodes.withLock { $0 } == 1)
  }

  @Test("control: a replaced key decodes at every read")
  func replacedKeyDecodesEachRead() throws {
    let store = InMemoryStore()
    let decodes = LockedValue(0)
    let key = StoreKey("n", default: 0, codec: Self.countingCodec(decodes))
    try store.update(key) { $0 += 1 }
    for _ in 1...3 { #expect(try store.value(for: key) == 1) }
    #expect(decodes.withLock { $0 } == 3, "the first update started from the default")
  }

  @Test("an unchanged value appends nothing")
  func unchangedAppendsNothing() throws {
    let fixture = try Fixture()
    try fixture.store.update(Self.versioned) { $0 += 1 }
    let token = try fixture.store.changeToken(for: "cursor")
    try fixture.store.update(Self.versioned) { _ in }
    #expect(try fixture.store.changeToken(for: "cursor") == token)
  }
}
