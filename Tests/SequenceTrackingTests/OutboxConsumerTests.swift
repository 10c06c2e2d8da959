import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

/// The consumer state of these tests: every payload applied, in order.
struct Applied: Codable, Sendable, Equatable {
  var values: [Int] = []
}

/// Why a simulated crash stopped a drain.
struct SimulatedCrash: Error {}

@Suite("Outbox consumer: exactly once")
struct OutboxConsumerTests {
  static func setUp(_ store: any SharedStore, capacity: Int = 100) throws -> (
    SequencedOutbox<Int>, OutboxConsumer<Int, Applied>
  ) {
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: capacity)
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: Applied())
    return (outbox, consumer)
  }

  @Test(
    "each entry is applied once and the cursor moves with the state", arguments: Backend.allCases)
  func appliesEachEntryOnce(backend: Backend) throws {
    let (store, directory) = try backend.makeStore()
    _ = directory
    let (outbox, consumer) = try Self.setUp(store)
    #expect(try consumer.record() == OutboxConsumerRecord(cursor: .start, state: Applied()))
    for value in 1...3 { try outbox.publish(value) { _ in } }
    let batch = try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(batch.entries.map(\.payload) == [1, 2, 3])
    #expect(try consumer.drain { state, entry in state.values.append(entry.payload) }.entries == [])
    try outbox.publish(4) { _ in }
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    let record = try consumer.record()
    #expect(record.state.values == [1, 2, 3, 4])
    #expect(record.cursor.last?.value == 4)
  }

  @Test("the record's JSON form is the cursor and the state")
  func recordJSONForm() throws {
    let store = InMemoryStore()
    storeOutbox(in: store, payloads: ["7"])
    let (_, consumer) = try Self.setUp(store)
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    let expected =
      #"{"cursor":{"checksum":3058990603,"last":{"epoch":"000000000000000a","value":1}},"#
      + #""revision":1,"#
      + #""state":{"values":[7]}}"#
    #expect(
      String(decoding: try #require(try store.recordBytes("consumer")), as: UTF8.self) == expected)
  }

  @Test("the record cannot live under the outbox's own key")
  func recordKeyMustDifferFromOutboxKey() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
    #expect(throws: SequenceTrackingError.sameKeyAsOutbox(key: "outbox")) {
      try OutboxConsumer(outbox: outbox, store: store, key: "outbox", initialState: Applied())
    }
    #expect(
      throws: SequenceTrackingError.store(.invalidKey(key: ".x", reason: .leadingDot))
    ) {
      try OutboxConsumer(outbox: outbox, store: store, key: ".x", initialState: Applied())
    }
  }

  @Test("a drain with nothing new takes no lock and writes nothing")
  func idleDrainWritesNothing() throws {
    let store = CountingStore()
    let (outbox, consumer) = try Self.setUp(store)
    try consumer.drain { _, _ in Issue.record("nothing to apply") }
    #expect(try store.keys().isEmpty)
    try outbox.publish(1) { _ in }
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    let before = store.calls
    try consumer.drain { _, _ in Issue.record("nothing new to apply") }
    #expect(store.calls.updates == before.updates)
  }

  @Test("updateState changes the state and leaves the cursor where it is")
  func updateStateLeavesTheCursor() throws {
    let store = InMemoryStore()
    let (outbox, consumer) = try Self.setUp(store)
    for value in 1...3 { try outbox.publish(value) }
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    let cursor = try consumer.record().cursor
    let count = try consumer.updateState { state in
      state.values.append(100)
      return state.values.count
    }.get()
    #expect(count == 4)
    #expect(try consumer.record().cursor == cursor)
    #expect(try consumer.record().state.values == [1, 2, 3, 100])
    try outbox.publish(4)
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(try consumer.record().state.values == [1, 2, 3, 100, 4])
  }

  @Test("when updateState's change throws, nothing is written and its error comes back")
  func failedUpdateStateWritesNothing() throws {
    let store = InMemoryStore()
    let (outbox, consumer) = try Self.setUp(store)
    try outbox.publish(1)
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    let before = try consumer.record()
    let outcome = try consumer.updateState { (state: inout Applied) throws(SimulatedCrash) in
      state.values.removeAll()
      throw SimulatedCrash()
    }
    #expect(throws: SimulatedCrash.self) { try outcome.get() }
    #expect(try consumer.record() == before)
  }

  @Test("concurrent drains and state updates lose neither's change")
  func concurrentDrainsAndUpdates() async throws {
    let (store, directory) = try Backend.file.makeStore()
    _ = directory
    let (outbox, consumer) = try Self.setUp(store, capacity: 1000)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 1...200 {
          try outbox.publish(value)
          try consumer.drain { state, entry in state.values.append(entry.payload) }
        }
      }
      group.addTask {
        for value in 1...200 {
          _ = try consumer.updateState { state in state.values.append(-value) }
        }
      }
      try await group.waitForAll()
    }
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    let values = try consumer.record().state.values
    #expect(values.filter { $0 > 0 } == Array(1...200))
    #expect(values.filter { $0 < 0 } == (1...200).map { -$0 })
  }

  @Test("lost entries are reported and the state holds only what was there")
  func lostEntriesAreReported() throws {
    let (outbox, consumer) = try Self.setUp(InMemoryStore(), capacity: 3)
    for value in 1...7 { try outbox.publish(value) { _ in } }
    let batch = try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(batch.lost?.values == 1...4)
    #expect(try consumer.record().state.values == [5, 6, 7])
  }

  @Test("concurrent drains and publishes apply every entry exactly once, in order")
  func concurrentDrainsApplyOnce() async throws {
    let (store, directory) = try Backend.file.makeStore()
    _ = directory
    let (outbox, consumer) = try Self.setUp(store, capacity: 1000)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 1...200 { try outbox.publish(value) { _ in } }
      }
      for _ in 0..<3 {
        group.addTask {
          for _ in 0..<60 {
            try consumer.drain { state, entry in state.values.append(entry.payload) }
          }
        }
      }
      try await group.waitForAll()
    }
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(try consumer.record().state.values == Array(1...200))
  }

  @Test(
    "a drain that read the outbox before another drain wrote reads again instead of going back")
  func staleReadingIsRetried() throws {
    let base = InMemoryStore()
    let (outbox, rival) = try Self.setUp(base)
    for value in 1...3 { try outbox.publish(value) { _ in } }
    // Between this drain's reading of the outbox (1 to 3) and its update, another process
    // publishes 4 and 5 and drains all five.
    let store = InterleavingStore(base, beforeUpdateOf: "consumer") {
      for value in 4...5 { try outbox.publish(value) { _ in } }
      try rival.drain { state, entry in state.values.append(entry.payload) }
    }
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: Applied())
    let batch = try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(batch.reset == nil, "the outbox did not go back; the first reading was stale")
    #expect(batch.entries.isEmpty)
    try outbox.publish(6) { _ in }
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(try consumer.record().state.values == [1, 2, 3, 4, 5, 6])
  }

  @Test("a drain that read an outbox since re-created reads again instead of re-applying it")
  func staleEpochIsRetried() throws {
    let base = InMemoryStore()
    let (outbox, rival) = try Self.setUp(base)
    for value in 1...3 { try outbox.publish(value) { _ in } }
    try rival.drain { state, entry in state.values.append(entry.payload) }
    try outbox.publish(4) { _ in }
    // Between this drain's reading (1 to 4, old epoch) and its update, the container is wiped,
    // the outbox starts a new epoch, and another process drains it.
    let store = InterleavingStore(base, beforeUpdateOf: "consumer") {
      try base.remove("outbox")
      try outbox.publish(10) { _ in }
      try rival.drain { state, entry in state.values.append(entry.payload) }
    }
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: Applied())
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(try consumer.record().state.values == [1, 2, 3, 10], "4 was lost with the old epoch")
  }

  @Test("a drain that keeps losing the race to other drains gives up with an empty batch")
  func endlessRaceGivesUp() throws {
    let base = InMemoryStore()
    let (outbox, rival) = try Self.setUp(base)
    try outbox.publish(0) { _ in }
    // Before each of this drain's updates, a rival publishes, drains everything, and publishes
    // once more, so there is always something new and the record has always moved on.
    let next = LockedValue(1)
    let store = InterleavingStore(base, beforeUpdateOf: "consumer", times: 100) {
      let value = next.withLock { value in
        defer { value += 2 }
        return value
      }
      try outbox.publish(value) { _ in }
      try rival.drain { state, entry in state.values.append(entry.payload) }
      try outbox.publish(value + 1) { _ in }
    }
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: Applied())
    let batch = try consumer.drain { _, _ in Issue.record("the rival applies everything") }
    let record = try consumer.record()
    #expect(batch.entries.isEmpty)
    #expect(batch.cursor == record.cursor, "the batch does not claim progress it did not make")
    #expect(record.state.values == Array(0..<(next.withLock { $0 } - 1)))
  }

  /// Drains like a consumer that is killed at `crashes` points and relaunched, and returns what
  /// it applied.
  ///
  /// `exactlyOnce` drains through `OutboxConsumer`; otherwise the consumer applies to its state
  /// key and saves its cursor in a second step (at-least-once), and each crash falls between the
  /// two steps — the window the single update closes.
  static func crashingConsumer(exactlyOnce: Bool, crashes: Set<Int>) throws -> [Int] {
    let store = InMemoryStore()
    let (outbox, consumer) = try setUp(store)
    let stateKey = StoreKey("state", default: Applied())
    let cursorKey = StoreKey("cursor", default: OutboxCursor.start)
    for round in 0..<10 {
      for value in (round * 5 + 1)...(round * 5 + 5) { try outbox.publish(value) { _ in } }
      let crash = crashes.contains(round)
      if exactlyOnce {
        // A crash inside the drain, before its one write, leaves the record as it was.
        if !crash { try consumer.drain { state, entry in state.values.append(entry.payload) } }
      } else {
        let batch = try outbox.drain(after: try store.value(for: cursorKey))
        try store.update(stateKey) { state in state.values += batch.entries.map(\.payload) }
        if !crash { try store.set(batch.cursor, for: cursorKey) }
      }
    }
    if exactlyOnce {
      try consumer.drain { state, entry in state.values.append(entry.payload) }
      return try consumer.record().state.values
    }
    let batch = try outbox.drain(after: try store.value(for: cursorKey))
    try store.update(stateKey) { state in state.values += batch.entries.map(\.payload) }
    return try store.value(for: stateKey).values
  }

  @Test("a consumer killed between apply and advance applies nothing twice")
  func crashesApplyNothingTwice() throws {
    let applied = try Self.crashingConsumer(exactlyOnce: true, crashes: [1, 4, 5, 8])
    #expect(applied == Array(1...50))
  }

  @Test("control: saving the cursor after applying applies entries twice after a crash")
  func controlAtLeastOnceDuplicates() throws {
    let applied = try Self.crashingConsumer(exactlyOnce: false, crashes: [1, 4, 5, 8])
    #expect(applied != Array(1...50), "the check must catch the duplicates")
    #expect(Set(applied) == Set(1...50), "nothing is lost, but some entries came twice")
    #expect(applied.count > 50)
  }
}
