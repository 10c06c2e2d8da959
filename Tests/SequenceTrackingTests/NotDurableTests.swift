import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing

@Suite("Committed but not flushed: reported as done, never repeated")
struct NotDurableTests {
  /// A durable file store whose next flush after a change — of the directory after a rename, or
  /// of the outbox's file after an append — can be made to fail.
  struct Fixture {
    let directory: TemporaryDirectory
    let fileSystem = DirectoryFlushFailure()
    let store: FileStore

    init() throws {
      directory = try TemporaryDirectory(prefix: "stk-not-durable")
      store = try FileStore(directory: directory.url, durability: .durable, fileSystem: fileSystem)
    }

    /// Runs `body`, which must throw `notDurable`, and returns what it reports as committed.
    func committed(by body: () throws -> Void) throws -> CommittedChange {
      fileSystem.failNextFlushOfAChange()
      do {
        try body()
      } catch SequenceTrackingError.notDurable(let committed, _, let path, let code) {
        #expect(path.hasPrefix(directory.url.path) && code == .ioError)
        return committed
      }
      throw ProcessFailure("the operation did not report notDurable")
    }

    /// An outbox with a mark, holding 1…5 in one epoch, its newest frame's checksum damaged on
    /// disk; and that epoch.
    func damagedOutbox() throws -> (SequencedOutbox<Int>, SequenceEpoch) {
      let outbox = try SequencedOutbox<Int>(
        store: store, key: "outbox", capacity: 10, markStore: store)
      let epoch = try #require(try outbox.publish(contentsOf: [1, 2, 3, 4, 5]) { _ in }).epoch
      let file = directory.url.appendingPathComponent("outbox")
      var bytes = try Data(contentsOf: file)
      bytes[bytes.count - 3] ^= 0xFF
      try bytes.write(to: file)
      return (outbox, epoch)
    }
  }

  @Test("control: the injected fault makes the store itself report a change in place")
  func injectedFaultIsNotDurable() throws {
    let fixture = try Fixture()
    fixture.fileSystem.failNextFlushOfAChange()
    #expect(
      throws: SharedStoreError.notDurable(
        key: "k", path: fixture.directory.url.path, errno: .ioError)
    ) {
      try fixture.store.write(Data("1".utf8), for: "k")
    }
    #expect(try fixture.store.read("k") == Data("1".utf8))
  }

  @Test("a publish whose flush fails has published the entry, notifies, and says which")
  func unflushedPublishIsPublished() throws {
    let fixture = try Fixture()
    let outbox = try SequencedOutbox<Int>(store: fixture.store, key: "outbox", capacity: 10)
    let first = try outbox.publish(1) { _ in }
    var notified: [SequenceNumber] = []
    let committed = try fixture.committed { try outbox.publish(2) { notified.append($0) } }
    let second = SequenceNumber(epoch: first.epoch, value: 2)
    #expect(committed == .published(SequenceRange(epoch: first.epoch, values: 2...2)))
    #expect(notified == [second], "readers can see the entry, so they are woken")
    // The caller does not retry, as the error says; the entry is there once.
    try outbox.publish(3) { _ in }
    #expect(try outbox.drain(after: .start).entries.map(\.payload) == [1, 2, 3])
  }

  @Test("a batch publish whose flush fails has published every entry and notified once")
  func unflushedBatchPublishIsPublished() throws {
    let fixture = try Fixture()
    let outbox = try SequencedOutbox<Int>(store: fixture.store, key: "outbox", capacity: 10)
    var notified: [SequenceRange] = []
    let committed = try fixture.committed {
      try outbox.publish(contentsOf: [1, 2, 3]) { notified.append($0) }
    }
    guard case .published(let range) = committed else {
      Issue.record("\(committed)")
      return
    }
    #expect(range.values == 1...3)
    #expect(notified == [range])
    #expect(try outbox.drain(after: .start).entries.map(\.payload) == [1, 2, 3])
  }

  @Test("a next() whose flush fails has handed out its number, which is never handed out again")
  func unflushedNextIsIssued() throws {
    let fixture = try Fixture()
    let counter = try SequenceCounter(store: fixture.store, key: "counter")
    let first = try counter.next()
    let committed = try fixture.committed { _ = try counter.next() }
    #expect(committed == .issued(SequenceNumber(epoch: first.epoch, value: 2)))
    #expect(try counter.next() == SequenceNumber(epoch: first.epoch, value: 3))
  }

  @Test("a drain whose flush fails has applied its batch and stored its cursor")
  func unflushedDrainIsApplied() throws {
    let fixture = try Fixture()
    let outbox = try SequencedOutbox<Int>(store: fixture.store, key: "outbox", capacity: 2)
    let consumer = try OutboxConsumer(
      outbox: outbox, store: fixture.store, key: "consumer", initialState: Applied())
    for value in 1...3 { try outbox.publish(value) { _ in } }
    let committed = try fixture.committed {
      try consumer.drain { state, entry in state.values.append(entry.payload) }
    }
    let record = try consumer.record()
    let epoch = try #require(record.cursor.last).epoch
    #expect(
      committed
        == .drained(
          applied: SequenceRange(epoch: epoch, values: 2...3),
          lost: SequenceRange(epoch: epoch, values: 1...1), reset: nil, cursor: record.cursor))
    #expect(record.state.values == [2, 3])
    #expect(try consumer.drain { _, _ in Issue.record("applied already") }.entries.isEmpty)
  }

  @Test("a skip whose flush fails has applied the entries before and passed over the entry")
  func unflushedSkipIsApplied() throws {
    let fixture = try Fixture()
    let (outbox, consumer) = try OutboxConsumerTests.setUp(fixture.store)
    try outbox.publish(1) { _ in }
    let bad = try OutboxRecoveryTests.publishUndecodable(to: fixture.store, key: "outbox")
    let committed = try fixture.committed {
      try consumer.skip(through: bad) { state, entry in state.values.append(entry.payload) }
    }
    let record = try consumer.record()
    #expect(record.cursor.last == bad)
    #expect(
      committed
        == .drained(
          applied: SequenceRange(epoch: bad.epoch, values: 1...1), lost: nil, reset: nil,
          cursor: record.cursor))
    #expect(record.state.values == [1])
  }

  @Test("an outbox moved aside without a flush has its ended epoch recorded before notDurable")
  func unflushedQuarantineRecordsTheEndedEpoch() throws {
    let fixture = try Fixture()
    let (outbox, epoch) = try fixture.damagedOutbox()
    let damage = try #require(
      thrownError { () throws(SequenceTrackingError) in _ = try outbox.head() })
    #expect(outbox.isUnreadable(damage))
    #expect(try outbox.recoveries().isEmpty, "the control: nothing recorded before the move")

    fixture.fileSystem.failNextFlushOfAChange()
    let thrown = thrownError { () throws(SequenceTrackingError) in
      try outbox.quarantine(because: damage)
    }
    guard case .notDurable(.movedAside(let moved), "outbox", let keptAt, .ioError)? = thrown else {
      Issue.record("expected the move's notDurable, got \(String(describing: thrown))")
      return
    }
    #expect(URL(fileURLWithPath: keptAt).lastPathComponent == ".quarantined.outbox.1")
    #expect(FileManager.default.fileExists(atPath: keptAt), "the error names the kept file")
    let recoveries = try outbox.recoveries()
    #expect(recoveries == [moved], "what the error says was done")
    #expect(recoveries.map(\.quarantinedTo) == [keptAt])
    #expect(recoveries.first?.epoch == epoch && recoveries.first?.lastNumber == 5)
    #expect(try outbox.publish(6).epoch != epoch, "publishing goes on in a new epoch")
  }

  @Test("a healing publish whose move aside is not flushed publishes in a new epoch")
  func unflushedQuarantineOfAHealingPublishPublishes() throws {
    let fixture = try Fixture()
    let (outbox, epoch) = try fixture.damagedOutbox()

    // The first flush of a change is the directory's after the move: the publish before it
    // fails on the damage without writing.
    fixture.fileSystem.failNextFlushOfAChange()
    let publication = try outbox.publishHealing(6)
    #expect(publication.number.epoch != epoch && publication.number.value == 1)
    let recovery = try #require(publication.recovery)
    #expect(recovery.epoch == epoch && recovery.lastNumber == 5)
    #expect(
      recovery.quarantinedTo.map { URL(fileURLWithPath: $0).lastPathComponent }
        == ".quarantined.outbox.1")
    #expect(try outbox.recoveries() == [recovery])
    #expect(try outbox.drain(after: .start).entries.map(\.payload) == [6])
  }

  @Test("a healing publish whose every flush fails has published in a new epoch, and says so")
  func healingPublishWhoseFlushesAllFailPublishes() throws {
    let fixture = try Fixture()
    let (outbox, epoch) = try fixture.damagedOutbox()
    // The move's directory flush fails, the record's, and the new outbox's: none stops the
    // publish, and the last is what it throws.
    fixture.fileSystem.failEveryFlushOfAChange()
    let thrown = thrownError { () throws(SequenceTrackingError) in _ = try outbox.publishHealing(6)
    }
    guard case .notDurable(.published(let numbers), _, _, .ioError)? = thrown else {
      Issue.record("expected the publish's notDurable, got \(String(describing: thrown))")
      return
    }
    #expect(numbers.epoch != epoch && numbers.values == 1...1)
    #expect(try outbox.recoveries().map(\.epoch) == [epoch], "the ended epoch is recorded")
    #expect(try outbox.drain(after: .start).entries.map(\.payload) == [6])
  }

  @Test("a healing publish whose recovery record is not flushed publishes, then says so")
  func healingPublishWhoseRecordIsNotFlushedPublishes() throws {
    let fixture = try Fixture()
    let (outbox, epoch) = try fixture.damagedOutbox()
    // The move's directory flush passes; the recovery log's, after its creation, fails.
    fixture.fileSystem.failNextFlushOfAChange(skipping: 1)
    let thrown = thrownError { () throws(SequenceTrackingError) in _ = try outbox.publishHealing(6)
    }
    guard case .notDurable(.published(let numbers), let key, _, .ioError)? = thrown else {
      Issue.record("expected the record's notDurable, got \(String(describing: thrown))")
      return
    }
    #expect(key != "outbox", "what was not flushed is the record, not the publish")
    #expect(numbers.epoch != epoch && numbers.values == 1...1)
    #expect(try outbox.recoveries().map(\.epoch) == [epoch], "the record is in place")
    #expect(try outbox.drain(after: .start).entries.map(\.payload) == [6])
  }
}
