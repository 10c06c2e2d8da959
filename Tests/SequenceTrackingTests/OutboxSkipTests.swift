import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

@Suite("Outbox consumer: passing over an entry that never decodes")
struct OutboxSkipTests {
  /// An outbox holding 1, 2, an undecodable entry (3) and 4, and its consumer.
  static func blocked(_ store: any SharedStore = InMemoryStore()) throws -> (
    SequencedOutbox<Int>, OutboxConsumer<Int, Applied>, SequenceNumber
  ) {
    let (outbox, consumer) = try OutboxConsumerTests.setUp(store)
    for value in 1...2 { try outbox.publish(value) { _ in } }
    let bad = try OutboxRecoveryTests.publishUndecodable(to: store, key: "outbox")
    try outbox.publish(4) { _ in }
    return (outbox, consumer, bad)
  }

  static func isDecodingError(_ error: any Error, at number: SequenceNumber) -> Bool {
    guard case .payloadDecoding(_, let failed, _, _) = error as? SequenceTrackingError else {
      return false
    }
    return failed == number
  }

  @Test("an undecodable entry stops every drain with nothing applied")
  func undecodableEntryBlocksDrains() throws {
    let (_, consumer, bad) = try Self.blocked()
    for _ in 0..<2 {
      #expect {
        try consumer.drain { state, entry in state.values.append(entry.payload) }
      } throws: { Self.isDecodingError($0, at: bad) }
    }
    #expect(try consumer.record() == OutboxConsumerRecord(cursor: .start, state: Applied()))
  }

  @Test("skipping it applies the entries before it and passes over it alone")
  func skipPassesOverOnlyTheBadEntry() throws {
    let (_, consumer, bad) = try Self.blocked()
    let skipped = try consumer.skip(through: bad) { state, entry in
      state.values.append(entry.payload)
    }
    #expect(skipped.entries.map(\.payload) == [1, 2])
    #expect(skipped.cursor.last == bad)
    #expect(try consumer.record().revision == 1, "a skip is a write other drains can see")
    let rest = try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(rest.entries.map(\.payload) == [4])
    #expect(try consumer.record().state.values == [1, 2, 4])
  }

  @Test("skipping an entry that is no longer after the cursor writes nothing")
  func skipOfPassedEntryChangesNothing() throws {
    let (outbox, consumer, bad) = try Self.blocked()
    try consumer.skip(through: bad) { state, entry in state.values.append(entry.payload) }
    let before = try consumer.record()
    let again = try consumer.skip(through: bad) { _, _ in Issue.record("applied already") }
    #expect(again.entries.isEmpty && again.cursor == before.cursor)
    let beyondHead = SequenceNumber(epoch: bad.epoch, value: 99)
    #expect(try consumer.skip(through: beyondHead) { _, _ in }.entries.isEmpty)
    #expect(try consumer.record() == before)
    #expect(try outbox.head()?.number.value == 4)
  }

  @Test("a skip stops at an earlier undecodable entry and writes nothing")
  func skipStopsAtEarlierBadEntry() throws {
    let store = InMemoryStore()
    let (_, consumer) = try OutboxConsumerTests.setUp(store)
    let first = try OutboxRecoveryTests.publishUndecodable(to: store, key: "outbox")
    let second = try OutboxRecoveryTests.publishUndecodable(to: store, key: "outbox")
    #expect {
      try consumer.skip(through: second) { _, _ in }
    } throws: { Self.isDecodingError($0, at: first) }
    #expect(try consumer.record().cursor == .start)
  }

  @Test("a skip that loses the race to another consumer applies nothing twice")
  func skipRacingAnotherSkipAndDrain() throws {
    let base = InMemoryStore()
    let (outbox, rival, bad) = try Self.blocked(base)
    // Between this skip's reading and its update, another process skips the same entry and
    // drains the rest.
    let store = InterleavingStore(base, beforeUpdateOf: "consumer") {
      try rival.skip(through: bad) { state, entry in state.values.append(entry.payload) }
      try rival.drain { state, entry in state.values.append(entry.payload) }
    }
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: Applied())
    let batch = try consumer.skip(through: bad) { state, entry in
      state.values.append(entry.payload)
    }
    #expect(batch.entries.isEmpty)
    #expect(try consumer.record().state.values == [1, 2, 4])
  }

  /// Drains, or passes over the entry that stops the drain.
  static func drainPassingOver(_ consumer: OutboxConsumer<Int, Applied>)
    throws(SequenceTrackingError)
  {
    do {
      try consumer.drain { state, entry in state.values.append(entry.payload) }
    } catch .payloadDecoding(_, let number, _, _) {
      try consumer.skip(through: number) { state, entry in state.values.append(entry.payload) }
    }
  }

  @Test("threads draining and skipping at once apply every decodable entry exactly once")
  func concurrentDrainsAndSkips() async throws {
    let (store, directory) = try Backend.file.makeStore()
    _ = directory
    let (outbox, consumer) = try OutboxConsumerTests.setUp(store, capacity: 1000)
    let strings = try SequencedOutbox<String>(store: store, key: "outbox", capacity: 1000)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 1...120 {
          // Every tenth entry can never be decoded as an Int.
          if value % 10 == 0 {
            try strings.publish("bad \(value)") { _ in }
          } else {
            try outbox.publish(value) { _ in }
          }
        }
      }
      for _ in 0..<3 {
        group.addTask {
          for _ in 0..<80 {
            try Self.drainPassingOver(consumer)
          }
        }
      }
      try await group.waitForAll()
    }
    var rounds = 0
    while try consumer.record().cursor.last?.value != 120 {
      rounds += 1
      guard rounds < 50 else { throw ProcessFailure("the consumer never caught up") }
      try Self.drainPassingOver(consumer)
    }
    #expect(try consumer.record().state.values == (1...120).filter { $0 % 10 != 0 })
  }

  @Test("a consumer with its own cursor passes over the entry with drain(after:passingOver:)")
  func plainDrainPassingOver() throws {
    let (outbox, _, bad) = try Self.blocked()
    #expect {
      try outbox.drain(after: .start)
    } throws: { Self.isDecodingError($0, at: bad) }
    let before = try outbox.drain(after: .start, passingOver: bad)
    #expect(before.entries.map(\.payload) == [1, 2])
    #expect(before.cursor.last == bad)
    #expect(try outbox.drain(after: before.cursor).entries.map(\.payload) == [4])
    let passed = try outbox.drain(after: before.cursor, passingOver: bad)
    #expect(passed.entries.isEmpty && passed.cursor == before.cursor)
  }
}
