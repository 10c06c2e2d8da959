import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

@Suite("Sequenced outbox: overflow, resets and damage")
struct OutboxOverflowTests {
  /// An outbox of capacity 5 holding numbers 8 to 12 of one epoch.
  static func overflowedOutbox() throws -> (SequencedOutbox<Int>, SequenceEpoch) {
    let outbox = try SequencedOutbox<Int>(store: InMemoryStore(), key: "outbox", capacity: 5)
    var last: SequenceNumber?
    for value in 1...12 { last = try outbox.publish(value) { _ in } }
    return (outbox, try #require(last).epoch)
  }

  @Test(
    "a consumer behind a bounded outbox is told exactly which numbers it lost",
    arguments: [
      (nil, 1...7, 8...12), (3, 4...7, 8...12), (6, 7...7, 8...12), (7, nil, 8...12),
      (10, nil, 11...12),
    ] as [(UInt64?, ClosedRange<UInt64>?, ClosedRange<UInt64>)])
  func lostRangeIsExact(
    cursorValue: UInt64?, lost: ClosedRange<UInt64>?, delivered: ClosedRange<UInt64>
  ) throws {
    let (outbox, epoch) = try Self.overflowedOutbox()
    let cursor =
      cursorValue.map { OutboxCursor(after: SequenceNumber(epoch: epoch, value: $0)) } ?? .start
    let batch = try outbox.drain(after: cursor)
    #expect(batch.lost == lost.map { SequenceRange(epoch: epoch, values: $0) })
    #expect(batch.entries.map(\.number.value) == Array(delivered))
    #expect(batch.entries.map(\.payload) == delivered.map { Int($0) })
    #expect(batch.reset == nil)
    #expect(batch.cursor.last == SequenceNumber(epoch: epoch, value: 12))
  }

  @Test("a batch larger than the capacity keeps its newest entries and reports the rest lost")
  func batchLargerThanCapacity() throws {
    let outbox = try SequencedOutbox<Int>(store: InMemoryStore(), key: "outbox", capacity: 3)
    try outbox.publish(0) { _ in }
    let assigned = try #require(try outbox.publish(contentsOf: 1...5) { _ in })
    #expect(assigned.values == 2...6)
    let batch = try outbox.drain(after: .start)
    #expect(batch.lost?.values == 1...3)
    #expect(batch.entries.map(\.payload) == [3, 4, 5])
  }

  @Test("a publish with a smaller capacity trims the outbox to it")
  func smallerCapacityTrims() throws {
    let store = InMemoryStore()
    let wide = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 10)
    for value in 1...6 { try wide.publish(value) { _ in } }
    let narrow = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 2)
    try narrow.publish(7) { _ in }
    let batch = try wide.drain(after: .start)
    #expect(batch.entries.map(\.payload) == [6, 7])
    #expect(batch.lost?.values == 1...5)
  }

  @Test("an outbox created afresh is a reset by epoch, delivered from its first entry")
  func recreatedOutboxIsEpochReset() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 3)
    let old = try outbox.publish(1) { _ in }
    try store.remove("outbox")
    for value in 10...14 { try outbox.publish(value) { _ in } }
    let batch = try outbox.drain(after: OutboxCursor(after: old))
    let epoch = try #require(batch.head).epoch
    #expect(epoch != old.epoch)
    #expect(batch.reset == .epochChanged(from: old.epoch))
    #expect(batch.lost == SequenceRange(epoch: epoch, values: 1...2))
    #expect(batch.entries.map(\.payload) == [12, 13, 14])
    #expect(batch.entries.map(\.number.value) == [3, 4, 5])
  }

  @Test("an outbox that went back below the cursor delivers nothing twice and realigns")
  func rolledBackOutboxRealigns() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 10)
    for value in 1...3 { try outbox.publish(value) { _ in } }
    let backup = try #require(store.logBytes(for: "outbox"))
    for value in 4...6 { try outbox.publish(value) { _ in } }
    let applied = try outbox.drain(after: .start)
    #expect(applied.entries.count == 6)

    store.setLogBytes(backup, for: "outbox")  // restored from an older backup
    let afterRestore = try outbox.drain(after: applied.cursor)
    #expect(afterRestore.reset == .wentBackwards(from: 6))
    #expect(afterRestore.entries.isEmpty, "entries 1 to 3 were applied already")
    #expect(afterRestore.cursor.last?.value == 3)

    try outbox.publish(40) { _ in }
    let next = try outbox.drain(after: afterRestore.cursor)
    #expect(next.entries.map(\.payload) == [40])
    #expect(next.reset == nil)
  }

  /// Outboxes whose newest entry is not one: publish, head and drain each report it.
  static let damagedNewestEntries: [[Data]] = [
    [Data()],
    [Data([1]) + Data("1".utf8), Data()],
  ]

  @Test(
    "a damaged outbox is reported, left untouched, and nothing is notified",
    arguments: damagedNewestEntries)
  func damagedOutboxIsReported(records: [Data]) throws {
    let store = InMemoryStore()
    storeOutbox(in: store, records: records)
    let stored = store.logBytes(for: "outbox")
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
    var notified = false
    #expect {
      try outbox.publish(5) { _ in notified = true }
    } throws: { error in
      guard case .corruptedOutbox(let key, _) = error as? SequenceTrackingError else {
        return false
      }
      return key == "outbox"
    }
    #expect(!notified)
    #expect(throws: SequenceTrackingError.self) { try outbox.head() }
    #expect(throws: SequenceTrackingError.self) { try outbox.drain(after: .start) }
    #expect(store.logBytes(for: "outbox") == stored)
  }

  @Test("an older empty record is a vanished number, skipped and reported as such")
  func olderEmptyRecordIsVanished() throws {
    let store = InMemoryStore()
    storeOutbox(in: store, records: [Data(), Data([1]) + Data("2".utf8)])
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
    let batch = try outbox.drain(after: .start)
    #expect(batch.entries.map(\.payload) == [2])
    #expect(batch.vanished == [range(1...1)])
  }

  @Test("a damaged outbox log is reported by the store, and nothing is notified")
  func damagedLogIsReported() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
    try outbox.publish(1) { _ in }
    var damaged = try #require(store.logBytes(for: "outbox"))
    damaged[damaged.count - 3] ^= 0x40
    store.setLogBytes(damaged, for: "outbox")
    var notified = false
    #expect {
      try outbox.publish(2) { _ in notified = true }
    } throws: { error in
      guard case .store(.corrupted(let key, _, _)) = error as? SequenceTrackingError else {
        return false
      }
      return key == "outbox"
    }
    #expect(!notified)
    #expect(throws: SequenceTrackingError.self) { try outbox.drain(after: .start) }
    #expect(store.logBytes(for: "outbox") == damaged)
  }

  @Test("an outbox whose numbers are not consecutive is reported by a drain")
  func gapInNumbersIsReported() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
    for value in 1...3 { try outbox.publish(value) { _ in } }
    try store.compactLog("outbox") { $0.position != 2 }
    #expect {
      try outbox.drain(after: .start)
    } throws: { error in
      guard case .corruptedOutbox = error as? SequenceTrackingError else { return false }
      return true
    }
  }

  @Test("an outbox written in a newer layout is reported as such")
  func newerLayoutIsReported() throws {
    let store = InMemoryStore()
    storeOutbox(in: store, records: [Data([2]) + Data("new".utf8)])
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
    let expected = SequenceTrackingError.unsupportedOutboxFormat(
      key: "outbox", found: 2, supported: 1)
    #expect(throws: expected) { try outbox.publish(1) { _ in } }
    #expect(throws: expected) { try outbox.head() }
    #expect(throws: expected) { try outbox.drain(after: .start) }
  }

  @Test("a value under the outbox's key is reported, never replaced")
  func valueUnderTheKeyIsReported() throws {
    let store = InMemoryStore()
    try store.write(Data("not an outbox".utf8), for: "outbox")
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
    let expected = SequenceTrackingError.corruptedOutbox(
      key: "outbox", reason: "the key holds a value, not an outbox's log")
    #expect(throws: expected) { try outbox.publish(1) { _ in } }
    #expect(throws: expected) { try outbox.drain(after: .start) }
    #expect(try store.read("outbox") == Data("not an outbox".utf8))
  }

  @Test("an entry that does not decode stops the drain at its number; the cursor can pass it")
  func undecodableEntry() throws {
    let store = InMemoryStore()
    let strings = try SequencedOutbox<String>(store: store, key: "outbox", capacity: 4)
    let numbers = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
    let first = try numbers.publish(1) { _ in }
    let bad = try strings.publish("two") { _ in }
    try numbers.publish(3) { _ in }
    #expect {
      try numbers.drain(after: OutboxCursor(after: first))
    } throws: { error in
      guard
        case .payloadDecoding(let key, let number, let type, _) = error as? SequenceTrackingError
      else { return false }
      return key == "outbox" && number == bad && type == "Int"
    }
    let skipped = try numbers.drain(after: OutboxCursor(after: bad))
    #expect(skipped.entries.map(\.payload) == [3])
  }
}
