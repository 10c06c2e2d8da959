import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing

/// An outbox that went back, was damaged or vanished: a publish never hands a number out twice
/// in an epoch, never stays stuck, and says exactly which numbers were lost.
@Suite("Outbox healing: truncated, rolled back, damaged and removed outboxes")
struct OutboxHealingTests {
  /// An outbox with a mark on one in-memory store, holding 40 entries (1…40).
  static func filled(count: Int = 40, capacity: Int = 100) throws -> (
    InMemoryStore, SequencedOutbox<Int>
  ) {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(
      store: store, key: "outbox", capacity: capacity, markStore: store)
    for value in 1...count { try outbox.publish(value) }
    return (store, outbox)
  }

  /// The log bytes of `store`'s outbox cut to the first `count` entries' worth, as a truncated
  /// file or an older copy is: the same header, fewer frames.
  static func rollBack(_ store: InMemoryStore, keeping count: Int) throws {
    let bytes = try #require(store.logBytes(for: "outbox"))
    let log = try #require(try store.readLog("outbox"))
    let header = LogFileFormat.Header(
      tokenBase: 1, identity: log.identity, capacity: log.capacity, evicted: 0, nextPosition: 1)
    let kept = Array(log.records.prefix(count))
    store.setLogBytes(LogFileFormat.file(header: header, records: kept), for: "outbox")
    #expect(bytes.count > (store.logBytes(for: "outbox")?.count ?? 0) || count == log.count)
  }

  @Test("the mark is one 16-byte record: the epoch, then the value, each little-endian")
  func markRecordLayout() throws {
    let (store, outbox) = try Self.filled(count: 3)
    let number = try #require(try outbox.lastHandedOut())
    #expect(number.value == 3)
    let record = try #require(try store.readLog("outbox.mark", newest: 1)?.records.last)
    var expected: [UInt8] = []
    for field in [number.epoch.rawValue, number.value] {
      expected += (0..<8).map { UInt8(truncatingIfNeeded: field >> (8 * $0)) }
    }
    #expect(Array(record.bytes) == expected)
  }

  @Test("reading the whole outbox again reports its damage, and not an entry that does not decode")
  func checkWholeReportsDamageOnly() throws {
    let store = InMemoryStore()
    let words = try SequencedOutbox<String>(
      store: store, key: "outbox", capacity: 10, markStore: store)
    try words.publish("not a number")
    let numbers = try SequencedOutbox<Int>(
      store: store, key: "outbox", capacity: 10, markStore: store)
    #expect(
      thrownError { () throws(SequenceTrackingError) in
        _ = try numbers.drain(after: OutboxCursor())
      }.map(numbers.isUnreadable)
        == false,
      "an entry that does not decode")
    try numbers.checkWhole()

    var bytes = try #require(store.logBytes(for: "outbox"))
    for offset in 20..<24 { bytes[offset] ^= 0x5A }
    store.setLogBytes(bytes, for: "outbox")
    #expect(
      thrownError { () throws(SequenceTrackingError) in try numbers.checkWhole() }.map(
        numbers.isUnreadable) == true,
      "the damage a drain finds")
  }

  @Test("an outbox cut to half numbers on after the last number handed out", arguments: [0, 20])
  func truncatedOutboxNumbersOn(kept: Int) throws {
    let (store, outbox) = try Self.filled()
    let epoch = try #require(try outbox.head()).number.epoch
    try Self.rollBack(store, keeping: kept)
    let next = try outbox.publish(41)
    #expect(next == SequenceNumber(epoch: epoch, value: 41), "no number is handed out twice")
    let batch = try outbox.drain(after: OutboxCursor())
    #expect(batch.entries.map(\.payload) == (0..<kept).map { $0 + 1 } + [41])
    #expect(batch.vanished == [SequenceRange(epoch: epoch, values: UInt64(kept + 1)...40)])
    #expect(batch.reset == nil)
  }

  @Test("control: without a mark, a truncated outbox hands its numbers out again")
  func controlWithoutMarkNumbersAreReused() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 100)
    for value in 1...40 { try outbox.publish(value) }
    try Self.rollBack(store, keeping: 20)
    #expect(try outbox.publish(41).value == 21, "number 21 is handed out a second time")
    #expect(try outbox.drain(after: OutboxCursor()).vanished.isEmpty)
  }

  @Test("a consumer past the truncated head is told exactly which numbers it never received")
  func consumerPastTheHeadLearnsTheExactLoss() throws {
    let (store, outbox) = try Self.filled()
    let drained = try outbox.drain(after: OutboxCursor())
    let cursor = try outbox.drain(after: OutboxCursor(), passingOver: drained.entries[29].number)
      .cursor  // past 30
    try Self.rollBack(store, keeping: 20)
    let behind = try outbox.drain(after: cursor)
    #expect(behind.reset == .wentBackwards(from: 30))
    #expect(behind.entries.isEmpty)
    try outbox.publish(41)
    var tracker = SequenceTracker()
    _ = tracker.observe(SequenceNumber(epoch: cursor.last!.epoch, value: 30))
    let batch = try outbox.drain(after: behind.cursor)
    #expect(batch.entries.map(\.payload) == [41])
    let observed = batch.entries.map { tracker.observe($0.number) }
    #expect(
      observed.compactMap(\.missing) == [SequenceRange(epoch: cursor.last!.epoch, values: 31...40)])
  }

  @Test("an outbox that went back further than a capacity is refused, then healed in a new epoch")
  func rolledBackBeyondCapacityStartsANewEpoch() throws {
    let (store, outbox) = try Self.filled(count: 40, capacity: 10)
    let epoch = try #require(try outbox.head()).number.epoch
    try Self.rollBack(store, keeping: 0)
    #expect(
      throws: SequenceTrackingError.rolledBack(
        key: "outbox", epoch: epoch, newest: 0, handedOut: 40)
    ) {
      try outbox.publish(41)
    }
    let publication = try outbox.publishHealing(41)
    #expect(publication.number.epoch != epoch)
    #expect(publication.number.value == 1)
    let recovery = try #require(publication.recovery)
    #expect(recovery.epoch == epoch && recovery.lastNumber == 40)
    #expect(
      recovery.lost(after: SequenceNumber(epoch: epoch, value: 25))
        == SequenceRange(
          epoch: epoch, values: 26...40))
    #expect(try outbox.recoveries() == [recovery])
  }

  @Test(
    "a damaged or newer outbox is moved aside with its bytes and publishing goes on",
    arguments: ["damaged", "newer"])
  func unreadableOutboxIsQuarantined(damage: String) throws {
    let (store, outbox) = try Self.filled(count: 5)
    let epoch = try #require(try outbox.head()).number.epoch
    let before = try #require(store.logBytes(for: "outbox"))
    let log = try #require(try store.readLog("outbox"))
    if damage == "damaged" {
      var bytes = before
      bytes[bytes.count - 3] ^= 0xFF  // the newest frame's checksum
      store.setLogBytes(bytes, for: "outbox")
    } else {
      var records = log.records
      let last = records.removeLast()
      records.append(LogRecord(position: last.position, bytes: Data([2]) + last.bytes.dropFirst()))
      let header = LogFileFormat.Header(
        tokenBase: 1, identity: log.identity, capacity: log.capacity, evicted: 0, nextPosition: 1)
      store.setLogBytes(LogFileFormat.file(header: header, records: records), for: "outbox")
    }
    #expect(throws: SequenceTrackingError.self) { try outbox.publish(6) }
    let publication = try outbox.publishHealing(6)
    let recovery = try #require(publication.recovery)
    #expect(recovery.epoch == epoch && recovery.lastNumber == 5)
    #expect(store.quarantinedValues[try #require(recovery.quarantinedTo)] != nil, "bytes kept")
    #expect(publication.number.epoch != epoch && publication.number.value == 1)
    let next = try outbox.publishHealing(7)
    #expect(next.recovery == nil, "healed once")
    #expect(next.number.value == 2)
    #expect(try outbox.recoveries() == [recovery], "one record of the ended epoch")
  }

  @Test("control: a plain publish on a damaged outbox stays stuck")
  func controlPlainPublishStaysStuck() throws {
    let (store, outbox) = try Self.filled(count: 5)
    var bytes = try #require(store.logBytes(for: "outbox"))
    bytes[bytes.count - 3] ^= 0xFF
    store.setLogBytes(bytes, for: "outbox")
    for value in 6...8 {
      #expect(throws: SequenceTrackingError.self) { try outbox.publish(value) }
    }
  }

  @Test("a removed outbox's epoch is recorded before the first entry of the next one")
  func removedOutboxIsRecorded() throws {
    let (store, outbox) = try Self.filled(count: 12)
    let epoch = try #require(try outbox.head()).number.epoch
    try store.remove("outbox")
    let next = try outbox.publish(13)
    #expect(next.epoch != epoch && next.value == 1)
    let recoveries = try outbox.recoveries()
    #expect(recoveries.count == 1)
    #expect(recoveries.first?.epoch == epoch && recoveries.first?.lastNumber == 12)
    #expect(recoveries.first?.quarantinedTo == nil)
    try outbox.publish(14)
    #expect(try outbox.recoveries().count == 1, "recorded once")
  }

  /// The control is the plain publish: it refuses the outbox and changes nothing.
  @Test("an outbox restored to an epoch whose end is recorded starts a new epoch")
  func restoredToAnEndedEpoch() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(
      store: store, key: "outbox", capacity: 100, markStore: store)
    try outbox.publish(1)
    let old = try outbox.publish(2)
    let copy = try #require(store.logBytes(for: "outbox"))
    try outbox.publish(3)
    try store.remove("outbox")
    try outbox.publish(4)
    let newer = try outbox.publish(5)
    store.setLogBytes(copy, for: "outbox")

    #expect(
      throws: SequenceTrackingError.rolledBack(
        key: "outbox", epoch: old.epoch, newest: 2, handedOut: 3)
    ) { try outbox.publish(6) }
    // Refused, but the epoch the copy replaced is recorded as ended already.
    #expect(try outbox.recoveries().map(\.epoch) == [old.epoch, newer.epoch])
    let healed = try outbox.publishHealing(6)
    #expect(healed.recovery?.epoch == old.epoch && healed.number.value == 1)
    #expect(![old.epoch, newer.epoch].contains(healed.number.epoch))
    let ends = try outbox.recoveries()
    #expect(ends.first { $0.epoch == newer.epoch }?.lastNumber == 2)
  }

  @Test("an outbox without a mark records no recovery")
  func withoutMarkNothingIsRecorded() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 10)
    try outbox.publish(1)
    try store.remove("outbox")
    try outbox.publish(2)
    #expect(try outbox.recoveries().isEmpty)
    #expect(outbox.markKey == nil && outbox.recoveriesKey == nil)
  }

  @Test(
    "a consumer past the head of a folder restored as a whole has the producer number on after it",
    arguments: [true, false])
  func restoredFolderNumbersOnAfterTheConsumer(marking: Bool) throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(
      store: store, key: "outbox", capacity: 100, markStore: store)
    for value in 1...20 { try outbox.publish(value) }
    let backup = (
      try #require(store.logBytes(for: "outbox")), try #require(store.logBytes(for: "outbox.mark"))
    )
    for value in 21...40 { try outbox.publish(value) }
    let all = try outbox.drain(after: OutboxCursor())
    let cursor = try outbox.drain(after: OutboxCursor(), passingOver: all.entries[29].number).cursor
    store.setLogBytes(backup.0, for: "outbox")
    store.setLogBytes(backup.1, for: "outbox.mark")
    let applied = try #require(cursor.last)
    #expect(try outbox.drain(after: cursor).reset == .wentBackwards(from: 30))
    if marking { outbox.markHandedOut(through: applied) }
    let next = try outbox.publish(41)
    if marking {
      #expect(next.value == 31, "no number the consumer applied is handed out again")
      #expect(try outbox.drain(after: cursor).entries.map(\.payload) == [41])
    } else {
      // Control: the producer hands out 21 again, and the consumer never receives it.
      #expect(next.value == 21)
      #expect(try outbox.drain(after: cursor).entries.isEmpty)
    }
  }

  @Test("a damaged mark protects nothing, stops nothing, and is written anew")
  func damagedMarkIsRewritten() throws {
    let (store, outbox) = try Self.filled(count: 3)
    let epoch = try #require(try outbox.head()).number.epoch
    #expect(try outbox.lastHandedOut() == SequenceNumber(epoch: epoch, value: 3))
    store.setLogBytes(Data("not a log".utf8), for: "outbox.mark")
    #expect(throws: SequenceTrackingError.self) { try outbox.lastHandedOut() }
    #expect(try outbox.publish(4) == SequenceNumber(epoch: epoch, value: 4))
    #expect(try outbox.lastHandedOut() == SequenceNumber(epoch: epoch, value: 4))
    #expect(store.quarantinedValues.keys.contains { $0.hasPrefix("outbox.mark") }, "bytes kept")
    try store.append([Data([1, 2, 3])], toLog: "outbox.mark", capacity: 16)
    #expect(throws: SequenceTrackingError.self) { try outbox.lastHandedOut() }
    #expect(try outbox.publish(5).value == 5)
    #expect(try outbox.lastHandedOut()?.value == 5)
  }

  @Test("only what cannot be read or numbered is healed by a quarantine")
  func onlyUnreadableIsHealed() throws {
    let (_, outbox) = try Self.filled(count: 1)
    let unreadable: [SequenceTrackingError] = [
      .corruptedOutbox(key: "outbox", reason: "x"),
      .unsupportedOutboxFormat(key: "outbox", found: 2, supported: 1),
      .rolledBack(key: "outbox", epoch: .a, newest: 1, handedOut: 500),
      .store(.corrupted(key: "outbox", path: "/p", reason: "x")),
      .store(.unsupportedFormatVersion(key: "outbox", path: "/p", found: 2, supported: 1)),
    ]
    for error in unreadable { #expect(outbox.isUnreadable(error), "\(error)") }
    let other: [SequenceTrackingError] = [
      .corruptedOutbox(key: "other", reason: "x"),
      .store(.corrupted(key: "consumer", path: "/p", reason: "x")),
      .store(.io(operation: "open", path: "/p", errno: .noSpace)),
      .exhausted(key: "outbox"),
      .payloadDecoding(key: "outbox", number: number(1), type: "Int", description: "x"),
    ]
    for error in other { #expect(!outbox.isUnreadable(error), "\(error)") }
  }

  @Test("a batch is published healing in one write, in a new epoch after a damaged outbox")
  func batchIsPublishedHealing() throws {
    let (store, outbox) = try Self.filled(count: 5)
    let epoch = try #require(try outbox.head()).number.epoch
    #expect(try outbox.publishHealing(contentsOf: [Int]()) == nil)
    var bytes = try #require(store.logBytes(for: "outbox"))
    bytes[bytes.count - 3] ^= 0xFF
    store.setLogBytes(bytes, for: "outbox")
    let publication = try #require(try outbox.publishHealing(contentsOf: [6, 7, 8]))
    #expect(publication.numbers.epoch != epoch && publication.numbers.values == 1...3)
    #expect(publication.number.value == 3)
    #expect(publication.recovery?.epoch == epoch && publication.recovery?.lastNumber == 5)
    let next = try #require(try outbox.publishHealing(contentsOf: [9]))
    #expect(next.recovery == nil && next.number.value == 4)
  }

  @Test("the recovery's JSON form is the documented one")
  func recoveryJSON() throws {
    let recovery = OutboxRecovery(
      epoch: .a, lastNumber: 40, quarantinedTo: "/q/1", reason: "damaged")
    #expect(
      try storedJSON(recovery)
        == #"{"epoch":"000000000000000a","lastNumber":40,"quarantinedTo":"/q/1","#
        + #""reason":"damaged"}"#
    )
    #expect(try decode(OutboxRecovery.self, #"{"reason":"gone"}"#).lost(after: nil) == nil)
    #expect(recovery.lost(after: nil) == range(1...40))
    #expect(recovery.lost(after: number(40)) == nil)
    #expect(recovery.lost(after: number(3, .b)) == range(1...40))
  }
}
