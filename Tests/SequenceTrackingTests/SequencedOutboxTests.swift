import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

@Suite("Sequenced outbox: publishing and draining")
struct SequencedOutboxTests {
  static func events(_ count: Int, from start: Int = 1) -> [Event] {
    (start..<(start + count)).map { Event(app: "app\($0)", seconds: $0) }
  }

  @Test("entries are numbered from 1 and drained in order", arguments: Backend.allCases)
  func publishAndDrainInOrder(backend: Backend) throws {
    let (store, directory) = try backend.makeStore()
    _ = directory
    let outbox = try SequencedOutbox<Event>(store: store, key: "outbox", capacity: 10)
    var numbers: [SequenceNumber] = []
    for event in Self.events(3) {
      numbers.append(try outbox.publish(event) { _ in })
    }
    let epoch = numbers[0].epoch
    #expect(numbers == (1...3).map { SequenceNumber(epoch: epoch, value: $0) })

    let batch = try outbox.drain(after: .start)
    #expect(batch.entries.map(\.payload) == Self.events(3))
    #expect(batch.entries.map(\.number) == numbers)
    #expect(batch.lost == nil)
    #expect(batch.reset == nil)
    #expect(batch.cursor.last == numbers[2])
    #expect(
      batch.cursor.checksum == CRC32C.checksum(ofBytes: Array(#"{"app":"app3","seconds":3}"#.utf8)))
    #expect(batch.head == numbers[2])

    try outbox.publish(Event(app: "late", seconds: 9)) { _ in }
    let next = try outbox.drain(after: batch.cursor)
    #expect(next.entries.map(\.payload) == [Event(app: "late", seconds: 9)])
    #expect(next.entries.map(\.number.value) == [4])
  }

  @Test("a consumer that is up to date drains nothing and keeps its cursor")
  func upToDateDrainsNothing() throws {
    let outbox = try SequencedOutbox<Event>(store: InMemoryStore(), key: "outbox", capacity: 4)
    let last = try outbox.publish(Event(app: "a", seconds: 1)) { _ in }
    let cursor = OutboxCursor(after: last)
    let batch = try outbox.drain(after: cursor)
    #expect(batch == OutboxBatch(entries: [], lost: nil, reset: nil, cursor: cursor, head: last))
  }

  @Test("draining an outbox nothing was published to returns nothing")
  func emptyOutboxDrainsNothing() throws {
    let outbox = try SequencedOutbox<Event>(store: InMemoryStore(), key: "outbox", capacity: 4)
    let cursor = OutboxCursor(after: number(7))
    #expect(
      try outbox.drain(after: cursor)
        == OutboxBatch(entries: [], lost: nil, reset: nil, cursor: cursor, head: nil))
    #expect(try outbox.head() == nil)
  }

  @Test("the stored layout is a log of the entries: the byte 1, then the payload's JSON")
  func storedLayout() throws {
    let store = InMemoryStore()
    storeOutbox(in: store, payloads: [#"{"app":"a","seconds":1}"#, #"{"app":"b","seconds":2}"#])
    let outbox = try SequencedOutbox<Event>(store: store, key: "outbox", capacity: 2)
    #expect(try outbox.publish(Event(app: "c/d", seconds: 3)) { _ in } == number(3))
    let log = try #require(try store.readLog("outbox"))
    #expect(log.identity == SequenceEpoch.a.rawValue)
    #expect(log.records.map(\.position) == [2, 3])
    #expect(
      log.records.map(\.bytes) == [
        Data([1]) + Data(#"{"app":"b","seconds":2}"#.utf8),
        Data([1]) + Data(#"{"app":"c/d","seconds":3}"#.utf8),
      ])
    #expect(log.evictedCount == 1)
  }

  @Test("notify runs once per publish, after the entry can be drained", arguments: Backend.allCases)
  func notifyRunsAfterTheWrite(backend: Backend) throws {
    let (store, directory) = try backend.makeStore()
    _ = directory
    let outbox = try SequencedOutbox<Event>(store: store, key: "outbox", capacity: 10)
    var seenInNotify: [Result<[Event], SequenceTrackingError>] = []
    var notified: [SequenceNumber] = []
    for event in Self.events(3) {
      let returned = try outbox.publish(event) { number in
        notified.append(number)
        // The store is unlocked and the entry is stored: a woken consumer finds it.
        seenInNotify.append(
          Result { () throws(SequenceTrackingError) in
            try outbox.drain(after: .start).entries.map(\.payload)
          })
      }
      #expect(notified.last == returned)
    }
    #expect(notified.map(\.value) == [1, 2, 3])
    #expect(
      try seenInNotify.map { try $0.get() } == [Self.events(1), Self.events(2), Self.events(3)])
  }

  @Test("a payload that cannot be encoded publishes nothing and does not notify")
  func unencodablePayloadPublishesNothing() throws {
    let store = CountingStore()
    let outbox = try SequencedOutbox<Double>(store: store, key: "outbox", capacity: 4)
    var notified = false
    #expect {
      try outbox.publish(.nan) { _ in notified = true }
    } throws: { error in
      guard case .payloadEncoding(let key, let type, _) = error as? SequenceTrackingError else {
        return false
      }
      return key == "outbox" && type == "Double"
    }
    #expect(!notified)
    #expect(store.calls.updates == 0)
    #expect(try store.keys().isEmpty)
  }

  @Test("publishing several entries assigns consecutive numbers and notifies once")
  func batchPublish() throws {
    let outbox = try SequencedOutbox<Event>(store: InMemoryStore(), key: "outbox", capacity: 10)
    try outbox.publish(Event(app: "first", seconds: 1)) { _ in }
    var notifications: [SequenceRange] = []
    let assigned = try #require(
      try outbox.publish(contentsOf: Self.events(3, from: 2)) { notifications.append($0) })
    #expect(assigned.values == 2...4)
    #expect(notifications == [assigned])
    #expect(try outbox.drain(after: .start).entries.map(\.number.value) == [1, 2, 3, 4])
  }

  @Test("publishing no entries writes nothing and does not notify")
  func emptyBatchPublishesNothing() throws {
    let store = CountingStore()
    let outbox = try SequencedOutbox<Event>(store: store, key: "outbox", capacity: 10)
    var notified = false
    #expect(try outbox.publish(contentsOf: [Event]()) { _ in notified = true } == nil)
    #expect(!notified)
    #expect(store.calls.updates == 0)
  }

  @Test("an invalid key or capacity is rejected when the outbox is created")
  func invalidConfigurationIsRejected() {
    #expect(throws: SequenceTrackingError.invalidCapacity(key: "outbox", capacity: 0)) {
      try SequencedOutbox<Event>(store: InMemoryStore(), key: "outbox", capacity: 0)
    }
    #expect(throws: SequenceTrackingError.store(.invalidKey(key: "", reason: .empty))) {
      try SequencedOutbox<Event>(store: InMemoryStore(), key: "", capacity: 1)
    }
  }

  @Test("threads publishing at once never share a number and lose no entry")
  func concurrentPublishers() async throws {
    let (store, directory) = try Backend.file.makeStore()
    _ = directory
    let outbox = try SequencedOutbox<Event>(store: store, key: "outbox", capacity: 1000)
    let numbers = try await withThrowingTaskGroup(of: [SequenceNumber].self) { group in
      for task in 0..<4 {
        group.addTask {
          try (0..<25).map { index in
            try outbox.publish(Event(app: "task\(task)", seconds: index)) { _ in }
          }
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(numbers.map(\.value).sorted() == Array(1...100))
    let drained = try outbox.drain(after: .start).entries
    #expect(drained.map(\.number.value) == Array(1...100))
    for task in 0..<4 {
      let mine = drained.map(\.payload).filter { $0.app == "task\(task)" }.map(\.seconds)
      #expect(mine == Array(0..<25), "each publisher's entries stay in its order")
    }
  }
}
