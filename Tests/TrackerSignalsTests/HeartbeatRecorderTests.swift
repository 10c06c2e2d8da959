import Foundation
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// The recorder keeps the latest heartbeat and a bounded history in a compact binary ring.
@Suite("Heartbeat recorder")
struct HeartbeatRecorderTests {
  enum Backend: String, CaseIterable, CustomStringConvertible {
    case memory
    case file

    var description: String { rawValue }
  }

  /// A store of the backend; the directory, when any, lives as long as the returned value.
  func store(_ backend: Backend) throws -> (any SharedStore, TemporaryDirectory?) {
    switch backend {
    case .memory: return (InMemoryStore(), nil)
    case .file:
      let directory = try TemporaryDirectory(prefix: "stk-gap")
      return (try FileStore(directory: directory.url, durability: .processCrashSafe), directory)
    }
  }

  @Test("a heartbeat's JSON form is the documented one")
  func heartbeatJSON() throws {
    let beat = try Heartbeat(
      at: instant("2026-03-08T10:30:00.250Z"), source: .monitorExtension, sequence: 42,
      memoryBytes: 3_400_000)
    let text =
      #"{"at":"2026-03-08T10:30:00.250Z","memoryBytes":3400000,"sequence":42,"source":"monitor"}"#
    #expect(try json(beat) == text)
    #expect(try decode(Heartbeat.self, text) == beat)
    let bare = try Heartbeat(at: instant("2026-03-08T10:30:00Z"), source: .app)
    #expect(try json(bare) == #"{"at":"2026-03-08T10:30:00Z","source":"app"}"#)
  }

  @Test(
    "nothing recorded reads as no latest heartbeat and an empty history",
    arguments: Backend.allCases)
  func emptyRecorder(backend: Backend) throws {
    let (store, directory) = try store(backend)
    defer { withExtendedLifetime(directory) {} }
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    #expect(try recorder.latest() == nil)
    #expect(try recorder.history().heartbeats.isEmpty)
    #expect(try store.keys().isEmpty, "reading writes nothing")
  }

  @Test("recorded heartbeats read back in order, the latest last", arguments: Backend.allCases)
  func recordsInOrder(backend: Backend) throws {
    let (store, directory) = try store(backend)
    defer { withExtendedLifetime(directory) {} }
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    let start = try instant("2026-03-08T10:00:00Z")
    var beats: [Heartbeat] = []
    for index in 0..<10 {
      let beat = try Heartbeat(
        at: start.addingTimeInterval(Double(index) * 30.001), source: .monitorExtension,
        sequence: index % 2 == 0 ? UInt64(index) : nil,
        memoryBytes: index % 3 == 0 ? UInt64(4_000_000 + index) : nil)
      #expect(try recorder.record(beat) == .recorded)
      beats.append(beat)
    }
    #expect(try recorder.latest() == beats.last)
    let history = try recorder.history()
    #expect(history.heartbeats == beats)
    #expect(history.evictedCount == 0)
    #expect(try store.keys() == ["stk.heartbeats.monitor"])
  }

  @Test(
    "the same heartbeat recorded twice is stored once and writes nothing",
    arguments: Backend.allCases)
  func duplicateIsStoredOnce(backend: Backend) throws {
    let (store, directory) = try store(backend)
    defer { withExtendedLifetime(directory) {} }
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    let beat = try Heartbeat(at: instant("2026-03-08T10:00:00Z"), source: .monitorExtension)
    try recorder.record(beat)
    let token = try store.changeToken(for: recorder.key)
    #expect(try recorder.record(beat) == .duplicate)
    #expect(try store.changeToken(for: recorder.key) == token)
    #expect(try recorder.history().heartbeats == [beat])
  }

  @Test("a full ring evicts the oldest and counts every eviction", arguments: Backend.allCases)
  func fullRingEvictsOldest(backend: Backend) throws {
    let (store, directory) = try store(backend)
    defer { withExtendedLifetime(directory) {} }
    let recorder = try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 5)
    let start = try instant("2026-03-08T10:00:00Z")
    for index in 0..<13 { try recorder.record(at: start.addingTimeInterval(Double(index))) }
    let history = try recorder.history()
    #expect(history.heartbeats.map(\.at) == (8..<13).map { start.addingTimeInterval(Double($0)) })
    #expect(history.evictedCount == 8)
    #expect(history.capacity == 5)
    #expect(try store.readLog(recorder.key)?.count == 5)
  }

  @Test("a changed capacity keeps the newest heartbeats", arguments: [3, 8, 20])
  func capacityChangeKeepsNewest(capacity: Int) throws {
    let store = InMemoryStore()
    let start = try instant("2026-03-08T10:00:00Z")
    let small = try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 6)
    for index in 0..<10 { try small.record(at: start.addingTimeInterval(Double(index))) }
    let resized = try HeartbeatRecorder(
      store: store, source: .monitorExtension, capacity: capacity)
    try resized.record(at: start.addingTimeInterval(10))
    let history = try resized.history()
    let kept = min(capacity, 7)
    #expect(
      history.heartbeats.map(\.at) == (11 - kept..<11).map { start.addingTimeInterval(Double($0)) })
    #expect(history.evictedCount == UInt64(11 - kept))
    #expect(history.capacity == capacity)
  }

  @Test("the ring matches a reference list over random recordings")
  func ringMatchesReference() throws {
    var random = SeededGenerator(seed: 0x5EED_0005)
    for round in 0..<20 {
      let store = InMemoryStore()
      let capacity = Int.random(in: 1...12, using: &random)
      let recorder = try HeartbeatRecorder(store: store, source: .app, capacity: capacity)
      var reference: [Heartbeat] = []
      var recorded: UInt64 = 0
      var time = try instant("2026-03-08T10:00:00Z")
      for _ in 0..<Int.random(in: 0...40, using: &random) {
        time = time.addingTimeInterval(Double(Int.random(in: -5...60, using: &random)))
        let beat = try Heartbeat(
          at: time, source: .app,
          sequence: Bool.random(using: &random) ? random.next() : nil,
          memoryBytes: Bool.random(using: &random) ? random.next() : nil)
        let repeatLast = Int.random(in: 0..<5, using: &random) == 0 && !reference.isEmpty
        let next = repeatLast ? try #require(reference.last) : beat
        let outcome = try recorder.record(next)
        if reference.last == next {
          #expect(outcome == .duplicate)
        } else {
          #expect(outcome == .recorded)
          reference.append(next)
          recorded += 1
        }
      }
      let history = try recorder.history()
      #expect(history.heartbeats == Array(reference.suffix(capacity)), "round \(round)")
      #expect(history.evictedCount == recorded - UInt64(min(reference.count, capacity)))
      #expect(try recorder.latest() == reference.last)
    }
  }

  @Test("each heartbeat is stored as one record in the documented binary layout")
  func binaryLayout() throws {
    let store = InMemoryStore()
    let recorder = try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 2)
    try recorder.record(
      Heartbeat(
        at: Date(timeIntervalSince1970: 1.5), source: .monitorExtension, sequence: 7,
        memoryBytes: 0x0102))
    try recorder.record(Heartbeat(at: Date(timeIntervalSince1970: 2), source: .monitorExtension))
    let log = try #require(try store.readLog(recorder.key))
    #expect(log.capacity == 2)
    let full: [UInt8] =
      [1, 0b11] + [0xDC, 0x05, 0, 0, 0, 0, 0, 0] + [7, 0, 0, 0, 0, 0, 0, 0]
      + [2, 1, 0, 0, 0, 0, 0, 0]
    let bare: [UInt8] = [1, 0] + [0xD0, 0x07, 0, 0, 0, 0, 0, 0]
    #expect(log.records.map { Array($0.bytes) } == [full, bare])
    #expect(log.records.map(\.position) == [1, 2])
  }

  @Test(
    "heartbeats recorded concurrently are all kept",
    arguments: ["one in-memory store", "one file store", "two file stores on one directory"])
  func concurrentRecordsAreAllKept(setup: String) async throws {
    let directory = try TemporaryDirectory(prefix: "stk-gap")
    let stores: [any SharedStore]
    switch setup {
    case "one in-memory store": stores = [InMemoryStore()]
    case "one file store":
      stores = [try FileStore(directory: directory.url, durability: .processCrashSafe)]
    default:
      stores = [
        try FileStore(directory: directory.url, durability: .processCrashSafe),
        try FileStore(directory: directory.url, durability: .processCrashSafe),
      ]
    }
    let recorders = stores.map { HeartbeatRecorder(store: $0, source: .monitorExtension) }
    let writers = 4
    let perWriter = 25
    let failures = await withTaskGroup(of: Int.self) { group in
      for writer in 0..<writers {
        let recorder = recorders[writer % recorders.count]
        group.addTask {
          var failures = 0
          for index in 0..<perWriter {
            let at = Date(timeIntervalSince1970: 1_772_960_400 + Double(index * writers + writer))
            do {
              try recorder.record(at: at)
            } catch {
              failures += 1
            }
          }
          return failures
        }
      }
      return await group.reduce(0, +)
    }
    #expect(failures == 0)
    let kept = try recorders[0].history()
    #expect(kept.heartbeats.count == writers * perWriter)
    #expect(
      Set(kept.heartbeats.map(\.at))
        == Set(
          (0..<writers * perWriter).map { Date(timeIntervalSince1970: 1_772_960_400 + Double($0)) })
    )
    withExtendedLifetime(directory) {}
  }

  @Test("a heartbeat of another source is refused")
  func otherSourceIsRefused() throws {
    let recorder = HeartbeatRecorder(store: InMemoryStore(), source: .monitorExtension)
    #expect(throws: TrackerSignalsError.sourceMismatch(recorder: "monitor", heartbeat: "app")) {
      try recorder.record(Heartbeat(at: Date(timeIntervalSince1970: 0), source: .app))
    }
  }

  @Test("invalid capacities are refused", arguments: [0, -1, 20_161])
  func invalidCapacity(capacity: Int) {
    #expect(throws: TrackerSignalsError.self) {
      try HeartbeatRecorder(store: InMemoryStore(), source: .app, capacity: capacity)
    }
  }

  @Test(
    "source names use a safe alphabet",
    arguments: ["", "a b", "../x", "é", String(repeating: "a", count: 41)])
  func invalidSourceNames(name: String) {
    #expect(throws: SignalValuesError.self) { try HeartbeatSource(name) }
    #expect(HeartbeatSource(rawValue: name) == nil)
  }

  @Test("the directory initialiser opens its own store and shares the directory")
  func directoryInitialiser() throws {
    let directory = try TemporaryDirectory(prefix: "stk-gap")
    let recorder = try HeartbeatRecorder(directory: directory.url, source: .monitorExtension)
    try recorder.record(at: Date(timeIntervalSince1970: 1_000))
    let appStore = try FileStore(directory: directory.url)
    let reader = HeartbeatRecorder(store: appStore, source: .monitorExtension)
    #expect(try reader.latest()?.at == Date(timeIntervalSince1970: 1_000))
  }
}
