import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

@Suite("Sequence counter")
struct SequenceCounterTests {
  @Test("numbers start at 1 in a fresh epoch and grow by one", arguments: Backend.allCases)
  func countsFromOne(backend: Backend) throws {
    let (store, directory) = try backend.makeStore()
    _ = directory
    let counter = try SequenceCounter(store: store, key: "sequence")
    #expect(try counter.current() == nil)
    let first = try counter.next()
    #expect(first.value == 1)
    #expect(try counter.next() == SequenceNumber(epoch: first.epoch, value: 2))
    #expect(try counter.next() == SequenceNumber(epoch: first.epoch, value: 3))
    #expect(try counter.current() == SequenceNumber(epoch: first.epoch, value: 3))
  }

  @Test("the stored form is the epoch and the last value handed out")
  func storedForm() throws {
    let store = InMemoryStore()
    try store.write(Data(#"{"epoch":"000000000000000a","last":41}"#.utf8), for: "sequence")
    let counter = try SequenceCounter(store: store, key: "sequence")
    #expect(try counter.next() == number(42))
    #expect(
      try store.read("sequence") == Data(#"{"epoch":"000000000000000a","last":42}"#.utf8))
  }

  @Test("removing the key starts a new epoch from 1")
  func removedKeyStartsNewEpoch() throws {
    let store = InMemoryStore()
    let counter = try SequenceCounter(store: store, key: "sequence")
    let before = try counter.next()
    try store.remove("sequence")
    let after = try counter.next()
    #expect(after.value == 1)
    #expect(after.epoch != before.epoch)
  }

  @Test("two counters on different keys number independently")
  func keysAreIndependent() throws {
    let store = InMemoryStore()
    let first = try SequenceCounter(store: store, key: "one")
    let second = try SequenceCounter(store: store, key: "two")
    #expect(try first.next().value == 1)
    #expect(try first.next().value == 2)
    #expect(try second.next().value == 1)
  }

  @Test("a counter at the largest value throws and hands out nothing")
  func exhaustedCounterThrows() throws {
    let store = InMemoryStore()
    let stored = Data(#"{"epoch":"000000000000000a","last":18446744073709551615}"#.utf8)
    try store.write(stored, for: "sequence")
    let counter = try SequenceCounter(store: store, key: "sequence")
    #expect(throws: SequenceTrackingError.exhausted(key: "sequence")) { try counter.next() }
    #expect(try store.read("sequence") == stored)
  }

  @Test("a stored value that does not decode throws and is left untouched")
  func undecodableCounterThrows() throws {
    let store = InMemoryStore()
    try store.write(Data(#"{"epoch":"nope","last":3}"#.utf8), for: "sequence")
    let counter = try SequenceCounter(store: store, key: "sequence")
    #expect {
      try counter.next()
    } throws: { error in
      guard case .store(.decoding(let key, _, _)) = error as? SequenceTrackingError else {
        return false
      }
      return key == "sequence"
    }
    #expect(try store.read("sequence") == Data(#"{"epoch":"nope","last":3}"#.utf8))
  }

  @Test("an invalid key is rejected when the counter is created")
  func invalidKeyIsRejected() {
    #expect(
      throws: SequenceTrackingError.store(.invalidKey(key: "../x", reason: .leadingDot))
    ) {
      try SequenceCounter(store: InMemoryStore(), key: "../x")
    }
  }

  @Test("many threads calling next never receive the same number", arguments: Backend.allCases)
  func threadsNeverShareANumber(backend: Backend) async throws {
    let (store, directory) = try backend.makeStore()
    _ = directory
    let counter = try SequenceCounter(store: store, key: "sequence")
    let tasks = 8
    let perTask = 50
    let numbers = try await withThrowingTaskGroup(of: [SequenceNumber].self) { group in
      for _ in 0..<tasks {
        group.addTask {
          try (0..<perTask).map { _ in try counter.next() }
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(Set(numbers.map(\.epoch)).count == 1)
    #expect(numbers.map(\.value).sorted() == Array(1...UInt64(tasks * perTask)))
  }
}
