import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

@Suite("Sequenced outbox: reading the head cheaply")
struct OutboxHeadTests {
  @Test("the head names the newest and the oldest kept number", arguments: Backend.allCases)
  func headNamesNewestAndOldest(backend: Backend) throws {
    let (store, directory) = try backend.makeStore()
    _ = directory
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 3)
    #expect(try outbox.head() == nil)
    var last: SequenceNumber?
    for value in 1...5 { last = try outbox.publish(value) { _ in } }
    let head = try #require(try outbox.head())
    #expect(head.number == last)
    #expect(head.oldest == 3)
    #expect(try head.token == store.changeToken(for: "outbox"))
  }

  @Test("an unchanged outbox is answered from the change token alone")
  func unchangedHeadReadsOnlyTheToken() throws {
    let store = CountingStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 8)
    try outbox.publish(1) { _ in }
    let first = try #require(try outbox.head())
    let before = store.calls
    #expect(try outbox.head(reusing: first) == first)
    #expect(try outbox.head(reusing: first) == first)
    #expect(store.calls.reads == before.reads, "no value was read")
    #expect(store.calls.tokens == before.tokens + 2)
  }

  @Test("a changed outbox is read again, even when the cached head is reused")
  func changedHeadIsReadAgain() throws {
    let store = CountingStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 8)
    try outbox.publish(1) { _ in }
    let first = try #require(try outbox.head())
    let second = try outbox.publish(2) { _ in }
    let before = store.calls.reads
    let fresh = try #require(try outbox.head(reusing: first))
    #expect(fresh.number == second)
    #expect(fresh.token != first.token)
    #expect(store.calls.reads == before + 1)
  }

  @Test("a removed outbox has no head, whatever was cached")
  func removedOutboxHasNoHead() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 8)
    try outbox.publish(1) { _ in }
    let cached = try outbox.head()
    try store.remove("outbox")
    #expect(try outbox.head(reusing: cached) == nil)
  }

  @Test("the head's JSON form is stable")
  func headJSONForm() throws {
    let head = OutboxHead(number: number(1042), oldest: 1001, token: ChangeToken(generation: 7))
    let json = #"{"number":{"epoch":"000000000000000a","value":1042},"oldest":1001,"token":7}"#
    #expect(try storedJSON(head) == json)
    #expect(try decode(OutboxHead.self, json) == head)
  }

  @Test("the cursor's JSON form is stable")
  func cursorJSONForm() throws {
    #expect(try storedJSON(OutboxCursor.start) == "{}")
    #expect(try decode(OutboxCursor.self, "{}") == .start)
    let json = #"{"last":{"epoch":"000000000000000a","value":42}}"#
    #expect(try storedJSON(OutboxCursor(after: number(42))) == json)
    #expect(try decode(OutboxCursor.self, json) == OutboxCursor(after: number(42)))
    #expect(OutboxCursor(after: number(42)).description == "after 42@000000000000000a")
    #expect(OutboxCursor.start.description == "at start")
  }

  @Test("a drained cursor's JSON form adds the CRC-32C of its entry's stored payload")
  func drainedCursorJSONForm() throws {
    let store = InMemoryStore()
    storeOutbox(in: store, first: 42, payloads: ["42"])
    let cursor = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 4)
      .drain(after: .start).cursor
    #expect(cursor.checksum == CRC32C.checksum(ofBytes: Array("42".utf8)))
    let json = #"{"checksum":779959755,"last":{"epoch":"000000000000000a","value":42}}"#
    #expect(try storedJSON(cursor) == json)
    #expect(try decode(OutboxCursor.self, json) == cursor)
    #expect(cursor != OutboxCursor(after: number(42)), "the checksum is part of the cursor")
    #expect(throws: DecodingError.self) { try decode(OutboxCursor.self, #"{"checksum":1}"#) }
  }

  @Test("an entry's JSON form is its number and its payload")
  func entryJSONForm() throws {
    let entry = SequencedEntry(number: number(3), payload: Event(app: "a", seconds: 60))
    let json =
      #"{"number":{"epoch":"000000000000000a","value":3},"payload":{"app":"a","seconds":60}}"#
    #expect(try storedJSON(entry) == json)
    #expect(try decode(SequencedEntry<Event>.self, json) == entry)
  }
}
