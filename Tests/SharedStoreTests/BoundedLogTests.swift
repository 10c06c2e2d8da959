import Foundation
import SharedStore
import TestSupport
import Testing

@Suite("BoundedLog")
struct BoundedLogTests {
  struct Event: Codable, Equatable, Sendable {
    var at: Date
    var note: String
  }

  static func event(_ second: Int) -> Event {
    Event(at: Date(timeIntervalSince1970: TimeInterval(second)), note: "event \(second)")
  }

  @Test(
    "appending beyond the capacity keeps exactly the newest entries",
    arguments: StoreBackend.allCases)
  func keepsNewestEntries(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let log = try BoundedLog<Event>(store: store, key: "log", capacity: 5)
    var evicted = 0
    for second in 0..<12 { evicted += try log.append(Self.event(second)) }
    #expect(try log.entries() == (7..<12).map(Self.event))
    #expect(evicted == 7)
    #expect(try log.snapshot().evictedCount == 7)
  }

  @Test(
    "appending several entries keeps their order and counts evictions",
    arguments: StoreBackend.allCases)
  func appendContentsOfKeepsOrder(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let log = try BoundedLog<Int>(store: store, key: "log", capacity: 4)
    #expect(try log.append(contentsOf: [1, 2, 3]) == 0)
    #expect(try log.append(contentsOf: [4, 5, 6]) == 2)
    #expect(try log.append(contentsOf: []) == 0)
    #expect(try log.entries() == [3, 4, 5, 6])
  }

  @Test("a new log reads as empty and writes nothing", arguments: StoreBackend.allCases)
  func newLogIsEmpty(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let log = try BoundedLog<Int>(store: store, key: "log", capacity: 3)
    #expect(try log.entries().isEmpty)
    #expect(try store.keys().isEmpty)
  }

  @Test("clear removes every entry and the eviction count", arguments: StoreBackend.allCases)
  func clearRemovesEverything(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let log = try BoundedLog<Int>(store: store, key: "log", capacity: 2)
    try log.append(contentsOf: [1, 2, 3])
    try log.clear()
    #expect(try log.snapshot() == BoundedLogContents())
  }

  @Test(
    "prune removes entries strictly before the cutoff, wherever they are",
    arguments: StoreBackend.allCases)
  func pruneRemovesOlderEntries(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let log = try BoundedLog<Event>(store: store, key: "log", capacity: 10)
    try log.append(contentsOf: [30, 10, 20, 5, 40].map(Self.event))
    let removed = try log.prune(before: Date(timeIntervalSince1970: 20)) { $0.at }
    #expect(removed == 2)
    #expect(try log.entries() == [30, 20, 40].map(Self.event), "an entry at the cutoff is kept")
    #expect(try log.snapshot().evictedCount == 0, "pruning is not eviction")
  }

  @Test("a capacity below one is rejected", arguments: [0, -1, Int.min])
  func invalidCapacityIsRejected(capacity: Int) {
    #expect(throws: SharedStoreError.invalidCapacity(key: "log", capacity: capacity)) {
      _ = try BoundedLog<Int>(store: InMemoryStore(), key: "log", capacity: capacity)
    }
  }

  @Test("a log that does not decode throws and is never reset", arguments: StoreBackend.allCases)
  func undecodableLogIsNeverReset(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let garbage = Data(#"{"entries":"oops"}"#.utf8)
    try store.write(garbage, for: "log")
    let log = try BoundedLog<Int>(store: store, key: "log", capacity: 3)
    #expect(throws: SharedStoreError.self) { try log.append(1) }
    #expect(throws: SharedStoreError.self) { _ = try log.entries() }
    #expect(throws: SharedStoreError.self) {
      _ = try log.prune(before: .distantFuture) { _ in .distantPast }
    }
    #expect(try store.read("log") == garbage, "the evidence is untouched")
  }

  @Test("the stored form is an append-only log of the entries' JSON, oldest first")
  func storedForm() throws {
    let store = InMemoryStore()
    let log = try BoundedLog<Int>(store: store, key: "log", capacity: 2)
    try log.append(contentsOf: [1, 2, 3])
    let stored = try #require(try store.readLog("log"))
    #expect(stored.records.map { String(decoding: $0.bytes, as: UTF8.self) } == ["2", "3"])
    #expect(stored.capacity == 2)
    #expect(stored.evictedCount == 1)
    #expect(throws: SharedStoreError.kindMismatch(key: "log", holds: .log)) {
      try store.read("log")
    }
  }

  @Test(
    "an entry that does not decode throws, and the log is never reset",
    arguments: StoreBackend.allCases)
  func undecodableEntryIsNeverReset(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let log = try BoundedLog<Int>(store: store, key: "log", capacity: 3)
    try log.append(1)
    try store.append([Data("\"two\"".utf8)], toLog: "log", capacity: 3)
    #expect {
      try log.entries()
    } throws: { error in
      guard case .decoding(let key, let type, _) = error as? SharedStoreError else { return false }
      return key == "log" && type == "Int"
    }
    let token = try store.changeToken(for: "log")
    #expect(throws: SharedStoreError.self) {
      _ = try log.prune(before: .distantFuture) { _ in .distantPast }
    }
    #expect(try store.changeToken(for: "log") == token, "nothing was pruned")
    try log.append(3)
    #expect(try store.readLog("log")?.records.count == 3)
  }

  @Test(
    "an append at capacity writes one entry, whatever the log holds",
    arguments: [10, 1_000])
  func appendCostsTheEntry(capacity: Int) throws {
    let directory = try TemporaryDirectory()
    let store = try FileStore(directory: directory.url, durability: .processCrashSafe)
    let log = try BoundedLog<Int>(store: store, key: "log", capacity: capacity)
    try log.append(contentsOf: Array(0..<capacity))
    let path = directory.url.appendingPathComponent("log").path
    func size() throws -> Int {
      try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }
    let before = try size()
    #expect(try log.append(123_456) == 1)
    #expect(try size() - before < 20, "the entry and its frame")
    #expect(try log.entries().last == 123_456)
  }

  @Test("many threads appending at once lose no entry", arguments: StoreBackend.allCases)
  func concurrentAppendsLoseNothing(backend: StoreBackend) async throws {
    let store = try backend.makeStore()
    let log = try BoundedLog<Int>(store: store, key: "log", capacity: 1000)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<50 { try log.append(task * 1000 + index) }
        }
      }
      try await group.waitForAll()
    }
    let entries = try log.entries()
    #expect(entries.count == 400)
    #expect(Set(entries).count == 400)
  }
}
