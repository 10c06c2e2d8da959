import Foundation
import SharedStore
import Testing

/// The contract of `SharedStore`, checked against every backend.
@Suite("SharedStore conformance")
struct ConformanceTests {
  @Test("a written value reads back byte for byte", arguments: StoreBackend.allCases)
  func writtenValueReadsBack(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let data = Data((0..<1000).map { UInt8($0 % 251) })
    try store.write(data, for: "blob")
    #expect(try store.read("blob") == data)
  }

  @Test("a missing key reads as nil", arguments: StoreBackend.allCases)
  func missingKeyReadsAsNil(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    #expect(try store.read("absent") == nil)
  }

  @Test(
    "an empty value is stored and is not the same as no value", arguments: StoreBackend.allCases)
  func emptyValueIsNotAbsence(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data(), for: "empty")
    #expect(try store.read("empty") == Data())
    #expect(try store.keys() == ["empty"])
  }

  @Test("a write replaces the previous value", arguments: StoreBackend.allCases)
  func writeReplacesPreviousValue(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data("first, and longer".utf8), for: "k")
    try store.write(Data("second".utf8), for: "k")
    #expect(try store.read("k") == Data("second".utf8))
  }

  @Test(
    "remove deletes the value and removing a missing key does nothing",
    arguments: StoreBackend.allCases)
  func removeDeletesValue(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data([1]), for: "k")
    try store.remove("k")
    #expect(try store.read("k") == nil)
    try store.remove("k")
    try store.remove("never-written")
    #expect(try store.keys().isEmpty)
  }

  @Test("keys lists stored keys sorted, and only those", arguments: StoreBackend.allCases)
  func keysListsStoredKeysSorted(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    for key in ["b", "a.b", "A", "z-9", "_x", "a"] { try store.write(Data([0]), for: key) }
    try store.remove("z-9")
    #expect(try store.keys() == ["A", "_x", "a", "a.b", "b"])
  }

  @Test("keys differing only in case are different keys", arguments: StoreBackend.allCases)
  func keysAreCaseSensitive(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data("upper".utf8), for: "Count")
    try store.write(Data("lower".utf8), for: "count")
    try store.write(Data("mixed".utf8), for: "cOUNT")
    #expect(try store.read("Count") == Data("upper".utf8))
    #expect(try store.read("count") == Data("lower".utf8))
    #expect(try store.read("cOUNT") == Data("mixed".utf8))
    #expect(try store.keys() == ["Count", "cOUNT", "count"])
  }

  // MARK: - Typed keys

  @Test("a typed key reads its default when nothing is stored", arguments: StoreBackend.allCases)
  func typedKeyReadsDefault(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let key = StoreKey("limits", default: ["social": 30])
    #expect(try store.value(for: key) == ["social": 30])
    #expect(try store.keys().isEmpty, "reading a default writes nothing")
  }

  @Test("a typed value round-trips", arguments: StoreBackend.allCases)
  func typedValueRoundTrips(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let key = StoreKey("sample", default: Sample(name: "", when: .distantPast, minutes: []))
    let value = Sample(
      name: "Ünïcode ✓", when: Date(timeIntervalSince1970: 1_767_312_000.123_456),
      minutes: [1, 2, 3])
    try store.set(value, for: key)
    #expect(try store.value(for: key) == value)
    try store.removeValue(for: key)
    #expect(try store.value(for: key) == key.defaultValue)
  }

  @Test(
    "a stored value that does not decode throws instead of reading the default",
    arguments: StoreBackend.allCases)
  func undecodableValueThrows(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data("\"not a number\"".utf8), for: "count")
    let key = StoreKey("count", default: 0)
    #expect {
      _ = try store.value(for: key)
    } throws: { error in
      guard case .decoding(let name, let type, _) = error as? SharedStoreError else { return false }
      return name == "count" && type == "Int"
    }
    #expect(try store.read("count") == Data("\"not a number\"".utf8), "the bytes are untouched")
  }

  @Test(
    "a value that cannot be encoded throws encoding and writes nothing",
    arguments: StoreBackend.allCases)
  func unencodableValueThrows(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let key = StoreKey("ratio", default: 0.5)
    try store.set(0.25, for: key)
    #expect {
      try store.set(.nan, for: key)
    } throws: { error in
      guard case .encoding(let name, _, _) = error as? SharedStoreError else { return false }
      return name == "ratio"
    }
    #expect(try store.value(for: key) == 0.25)
  }

  // MARK: - Update

  @Test("update creates, changes and removes a value", arguments: StoreBackend.allCases)
  func updateCreatesChangesAndRemoves(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let seen = try store.update("k") { data -> Data? in
      let old = data
      data = Data([1])
      return old
    }
    #expect(seen == nil)
    try store.update("k") { data in data?.append(2) }
    #expect(try store.read("k") == Data([1, 2]))
    try store.update("k") { data in data = nil }
    #expect(try store.read("k") == nil)
    #expect(try store.keys().isEmpty)
  }

  @Test("an update whose body throws writes nothing", arguments: StoreBackend.allCases)
  func throwingUpdateWritesNothing(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data([7]), for: "k")
    let before = try store.changeToken(for: "k")
    struct Refused: Error {}
    #expect(throws: Refused.self) {
      try store.update("k") { data in
        data = Data([8])
        throw Refused()
      }
    }
    #expect(try store.read("k") == Data([7]))
    #expect(try store.changeToken(for: "k") == before)
  }

  @Test("an update that changes nothing writes nothing", arguments: StoreBackend.allCases)
  func unchangedUpdateWritesNothing(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let key = StoreKey("n", default: 0)
    try store.set(5, for: key)
    let before = try store.changeToken(for: "n")
    try store.update(key) { value in value = 5 }
    try store.update("n") { _ in }
    #expect(try store.changeToken(for: "n") == before)
  }

  @Test("a typed update returns the body's result", arguments: StoreBackend.allCases)
  func typedUpdateReturnsResult(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let key = StoreKey("counter", default: 0)
    var tickets: [Int] = []
    for _ in 0..<5 {
      tickets.append(
        try store.update(key) { value -> Int in
          value += 1
          return value
        })
    }
    #expect(tickets == [1, 2, 3, 4, 5])
    #expect(try store.value(for: key) == 5)
  }

  // MARK: - Change tokens

  @Test(
    "the change token is nil when absent and changes on every write",
    arguments: StoreBackend.allCases)
  func changeTokenChangesOnEveryWrite(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    #expect(try store.changeToken(for: "k") == nil)
    var tokens: Set<ChangeToken> = []
    for index in 0..<20 {
      try store.write(Data([UInt8(index % 2)]), for: "k")
      tokens.insert(try #require(try store.changeToken(for: "k")))
    }
    #expect(tokens.count == 20, "rewriting an equal value still yields a new token")
  }

  @Test("reading does not change the token", arguments: StoreBackend.allCases)
  func readingKeepsToken(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data([1]), for: "k")
    let token = try store.changeToken(for: "k")
    _ = try store.read("k")
    _ = try store.keys()
    #expect(try store.changeToken(for: "k") == token)
  }

  @Test(
    "removing and re-creating a key never brings an old token back",
    arguments: StoreBackend.allCases)
  func recreatedKeyGetsNewToken(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    var seen: Set<ChangeToken> = []
    for _ in 0..<10 {
      try store.write(Data([1]), for: "k")
      let token = try #require(try store.changeToken(for: "k"))
      #expect(seen.insert(token).inserted)
      try store.remove("k")
      #expect(try store.changeToken(for: "k") == nil)
    }
  }

  @Test("the change token encodes as a bare JSON number")
  func changeTokenJSONForm() throws {
    let token = ChangeToken(generation: 42)
    #expect(String(decoding: try JSONEncoder().encode(token), as: UTF8.self) == "42")
    #expect(try JSONDecoder().decode(ChangeToken.self, from: Data("42".utf8)) == token)
  }

  // MARK: - Quarantine

  @Test(
    "quarantine moves a value aside, keeps its bytes and frees the key",
    arguments: StoreBackend.allCases)
  func quarantineKeepsBytesAndFreesKey(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data("evidence".utf8), for: "log")
    let kept = try #require(try store.quarantine("log"))
    #expect(try store.read("log") == nil)
    #expect(try store.keys().isEmpty)
    #expect(try store.quarantine("log") == nil, "nothing left to quarantine")
    try store.write(Data("again".utf8), for: "log")
    let keptAgain = try #require(try store.quarantine("log"))
    #expect(kept != keptAgain, "a second quarantine never overwrites the first")
    switch (store.base as? ValueOnlyStore)?.base ?? store.base {
    case let memory as InMemoryStore:
      #expect(memory.quarantinedValues[kept] == Data("evidence".utf8))
      #expect(memory.quarantinedValues[keptAgain] == Data("again".utf8))
    case let file as FileStore:
      #expect(try file.quarantinedFiles() == [kept, keptAgain])
      let bytes = try Data(contentsOf: URL(fileURLWithPath: kept))
      #expect(bytes.suffix(8) == Data("evidence".utf8))
    default:
      Issue.record("unexpected backend \(type(of: store))")
    }
  }
}

/// A small Codable model for typed-key tests.
struct Sample: Codable, Equatable, Sendable {
  var name: String
  var when: Date
  var minutes: [Int]
}
