import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

@Suite("Outbox consumer: rewritten outboxes and the largest revision")
struct OutboxRecoveryTests {
  /// Publishes an entry that does not decode as `Int` (a string) and returns its number.
  static func publishUndecodable(to store: any SharedStore, key: String) throws -> SequenceNumber {
    try SequencedOutbox<String>(store: store, key: key, capacity: 100).publish("x") { _ in }
  }

  /// An outbox and its consumer after 1…5 were applied and the outbox was restored to a backup
  /// taken at 3, then written again with `republished` (numbered 4 onwards).
  static func rewritten(republishing republished: [Int]) throws -> (
    SequencedOutbox<Int>, OutboxConsumer<Int, Applied>
  ) {
    let store = InMemoryStore()
    let (outbox, consumer) = try OutboxConsumerTests.setUp(store)
    for value in 1...3 { try outbox.publish(value) { _ in } }
    let backup = try #require(store.logBytes(for: "outbox"))
    for value in 4...5 { try outbox.publish(value) { _ in } }
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    store.setLogBytes(backup, for: "outbox")  // restored from a backup
    for value in republished { try outbox.publish(value) { _ in } }
    return (outbox, consumer)
  }

  @Test("an outbox rolled back within its epoch and written past the cursor is a reset")
  func rewrittenOutboxIsReported() throws {
    let (_, consumer) = try Self.rewritten(republishing: [40, 50, 60])
    let batch = try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(batch.reset == .rewritten(at: 5))
    #expect(batch.entries.map(\.number.value) == [5, 6], "from the rewritten number on")
    #expect(batch.entries.map(\.payload) == [50, 60])
    #expect(try consumer.record().state.values == [1, 2, 3, 4, 5, 50, 60])
    #expect(try consumer.drain { _, _ in Issue.record("nothing new") }.reset == nil)
  }

  @Test("an outbox rewritten exactly up to the cursor is a reset too")
  func outboxRewrittenUpToTheCursorIsReported() throws {
    let (_, consumer) = try Self.rewritten(republishing: [40, 50])
    let batch = try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(batch.reset == .rewritten(at: 5))
    #expect(batch.entries.map(\.payload) == [50])
  }

  @Test("a drain after a cursor of its own notices a rewritten outbox")
  func plainDrainNoticesRewrite() throws {
    let (outbox, consumer) = try Self.rewritten(republishing: [40, 50, 60])
    let batch = try outbox.drain(after: try consumer.record().cursor)
    #expect(batch.reset == .rewritten(at: 5))
    #expect(batch.entries.map(\.payload) == [50, 60])
  }

  @Test("control: a cursor without a checksum passes a rewritten outbox by silently")
  func controlCursorWithoutChecksumMissesRewrite() throws {
    let (outbox, consumer) = try Self.rewritten(republishing: [40, 50, 60])
    let last = try #require(try consumer.record().cursor.last)
    let batch = try outbox.drain(after: OutboxCursor(after: last))
    #expect(batch.reset == nil, "without the checksum nothing tells the rewrite")
    #expect(batch.entries.map(\.payload) == [60], "40 and 50 pass by unseen")
  }

  @Test("a record stored before cursors had checksums still decodes and drains")
  func recordWithoutChecksumDrains() throws {
    let store = InMemoryStore()
    storeOutbox(in: store, payloads: ["7", "8"])
    try store.plantRecord(
      Data(
        (#"{"cursor":{"last":{"epoch":"000000000000000a","value":1}},"revision":4,"#
          + #""state":{"values":[7]}}"#).utf8),
      for: "consumer")
    let (_, consumer) = try OutboxConsumerTests.setUp(store)
    let batch = try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(batch.reset == nil)
    #expect(try consumer.record().state.values == [7, 8])
    #expect(try consumer.record().cursor.checksum != nil, "the next cursor has one")
  }

  @Test("the revision wraps from the largest value to 0")
  func revisionWraps() throws {
    let store = InMemoryStore()
    try store.plantRecord(
      Data(#"{"cursor":{},"revision":18446744073709551615,"state":{"values":[]}}"#.utf8),
      for: "consumer")
    let (outbox, consumer) = try OutboxConsumerTests.setUp(store)
    try outbox.publish(1) { _ in }
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(try consumer.record().revision == 0)
  }

  @Test("a record at the largest revision still tells a stale reading of the outbox")
  func largestRevisionStillDetectsStaleReading() throws {
    let base = InMemoryStore()
    try base.plantRecord(
      Data(#"{"cursor":{},"revision":18446744073709551615,"state":{"values":[]}}"#.utf8),
      for: "consumer")
    let (outbox, rival) = try OutboxConsumerTests.setUp(base)
    for value in 1...3 { try outbox.publish(value) { _ in } }
    try rival.drain { state, entry in state.values.append(entry.payload) }  // revision wraps to 0
    try outbox.publish(4) { _ in }
    // Between this drain's reading (1 to 4, old epoch) and its update, the outbox starts a new
    // epoch and the rival drains it, writing the record again.
    let store = InterleavingStore(base, beforeUpdateOf: "consumer") {
      try base.remove("outbox")
      try outbox.publish(10) { _ in }
      try rival.drain { state, entry in state.values.append(entry.payload) }
    }
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: Applied())
    try consumer.drain { state, entry in state.values.append(entry.payload) }
    #expect(try consumer.record().state.values == [1, 2, 3, 10])
  }
}
