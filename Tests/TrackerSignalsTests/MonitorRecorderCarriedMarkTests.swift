import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// On a ``SharedFolder``, the monitor extension's heartbeat carries the outbox's high-water
/// mark: a callback appends the fact and the heartbeat, and the outbox still never hands a
/// number out twice when it goes back.
@Suite("The heartbeat carries the outbox's mark")
struct MonitorRecorderCarriedMarkTests {
  static let start = Date(timeIntervalSince1970: 1_776_211_200)

  /// A folder in a temporary directory, with a recorder on it and the files that matter.
  struct Fixture {
    let directory: TemporaryDirectory
    let folder: SharedFolder
    let recorder: MonitorRecorder
    var outboxFile: URL { directory.url.appendingPathComponent("stk.monitor.facts") }
    var heartbeatFile: URL { directory.url.appendingPathComponent("stk.heartbeats.monitor") }

    init() throws {
      directory = try TemporaryDirectory(prefix: "stk-carried", preferringMemory: true)
      folder = try SharedFolder(directory: directory.url)
      recorder = MonitorRecorder(folder: folder, timeZone: { .gmt })
    }

    /// Makes the threshold callbacks of `minutes` and returns the numbers they notified.
    @discardableResult
    func callbacks(_ minutes: ClosedRange<Int>) -> [SequenceNumber?] {
      minutes.map { minute in
        recorder.eventDidReachThreshold(
          "stk:\(minute)m:app", activity: "daily",
          now: MonitorRecorderCarriedMarkTests.start + Double(minute * 60)
        ).notification
      }
    }

    /// The mark log's newest record, read as the outbox reads it: `nil` when there is none.
    func markLog() throws -> LogSnapshot? {
      try folder.heartbeatStore.readLog(try #require(folder.outbox.markKey), newest: 1)
    }
  }

  @Test("a callback writes no mark log: its heartbeat carries the number it handed out")
  func heartbeatCarriesTheMark() throws {
    let fixture = try Fixture()
    let numbers = fixture.callbacks(1...5)
    let last = try #require(numbers.last ?? nil)
    #expect(last.value == 5)
    #expect(try fixture.markLog() == nil)
    #expect(fixture.folder.heartbeats().carriedMark() == last)
    #expect(try fixture.folder.outbox.lastHandedOut() == last)
    #expect(try fixture.folder.heartbeats().latest()?.sequence == 5)
  }

  @Test("a heartbeat without a fact carries the mark forward")
  func tickCarriesTheMarkForward() throws {
    let fixture = try Fixture()
    let last = try #require(fixture.callbacks(1...3).last ?? nil)
    for minute in 4...6 {
      let response = fixture.recorder.heartbeat(now: Self.start + Double(minute * 60))
      #expect(response.succeeded && response.notification == nil)
    }
    let latest = try #require(try fixture.folder.heartbeats().latest())
    #expect(latest.sequence == nil && latest.at == Self.start + 360)
    #expect(fixture.folder.heartbeats().carriedMark() == last)
  }

  /// The control: restored with its heartbeats, the outbox has nothing that remembers.
  @Test(
    "an outbox restored from an older copy numbers on after the heartbeat's mark",
    arguments: [false, true])
  func rolledBackOutboxNumbersOn(heartbeatsToo: Bool) throws {
    let fixture = try Fixture()
    fixture.callbacks(1...3)
    let outboxCopy = try Data(contentsOf: fixture.outboxFile)
    let heartbeatCopy = try Data(contentsOf: fixture.heartbeatFile)
    let handedOut = try #require(fixture.callbacks(4...6).last ?? nil)
    try outboxCopy.write(to: fixture.outboxFile)
    if heartbeatsToo { try heartbeatCopy.write(to: fixture.heartbeatFile) }

    let next = try #require(fixture.callbacks(7...7).last ?? nil)
    let batch = try fixture.folder.outbox.drain(after: .start)
    if heartbeatsToo {
      // The outbox and its mark went back together: only a consumer can tell
      // (`markHandedOut(through:)`), and number 4 is handed out again.
      #expect(next.value == 4)
      #expect(batch.vanished.isEmpty)
    } else {
      #expect(next == SequenceNumber(epoch: handedOut.epoch, value: 7))
      #expect(batch.vanished == [SequenceRange(epoch: handedOut.epoch, values: 4...6)])
      #expect(batch.entries.map(\.number.value) == [1, 2, 3, 7])
    }
  }

  @Test("a number a consumer marks in the mark log counts when it is higher in the epoch")
  func loggedMarkStillCounts() throws {
    let fixture = try Fixture()
    let last = try #require(fixture.callbacks(1...3).last ?? nil)
    fixture.folder.outbox.markHandedOut(through: SequenceNumber(epoch: last.epoch, value: 8))
    let next = try #require(fixture.callbacks(4...4).last ?? nil)
    #expect(next == SequenceNumber(epoch: last.epoch, value: 9))
    #expect(
      try fixture.folder.outbox.drain(after: .start).vanished == [
        SequenceRange(epoch: last.epoch, values: 4...8)
      ])
  }

  /// The control: the outbox removed, the log's epoch and the outbox's are both recorded as
  /// ended before the next epoch's first entry.
  @Test("a mark log of another epoch than the outbox's, which holds entries, names an epoch ended")
  func staleLoggedMarkIsMovedOnce() throws {
    let fixture = try Fixture()
    let last = try #require(fixture.callbacks(1...3).last ?? nil)
    let other = SequenceEpoch(rawValue: last.epoch.rawValue &+ 1)
    fixture.folder.outbox.markHandedOut(through: SequenceNumber(epoch: other, value: 50))
    let numbers = fixture.callbacks(4...6)
    #expect(numbers.map { $0?.value } == [4, 5, 6])
    // The log's epoch is not the outbox's, which holds entries: it ended, recorded once.
    let recorded = try fixture.folder.outbox.recoveries()
    #expect(recorded.map(\.epoch) == [other] && recorded.first?.lastNumber == 50)
    // The log names the outbox's epoch now, written once by the first publish that found it.
    #expect(try fixture.folder.outbox.loggedMark() == SequenceNumber(epoch: last.epoch, value: 4))
    #expect(try fixture.folder.outbox.lastHandedOut()?.value == 6)

    // Control: the outbox removed, the log names an epoch that is not the new one.
    fixture.folder.outbox.markHandedOut(through: SequenceNumber(epoch: other, value: 50))
    try FileManager.default.removeItem(at: fixture.outboxFile)
    let next = try #require(fixture.callbacks(7...7).last ?? nil)
    #expect(next.value == 1)
    let ended = try fixture.folder.outbox.recoveries()
    #expect(Set(ended.map(\.epoch)) == [last.epoch, other])
    #expect(ended.first { $0.epoch == last.epoch }?.lastNumber == 6)
  }

  @Test("a carrying publish moves a mark log it cannot read aside, and goes on")
  func damagedMarkLogIsMovedAside() throws {
    let fixture = try Fixture()
    fixture.callbacks(1...2)
    let markFile = fixture.directory.url.appendingPathComponent("stk.monitor.facts.mark")
    try Data(repeating: 0xA5, count: 64).write(to: markFile)
    #expect(throws: SequenceTrackingError.self) { try fixture.folder.outbox.loggedMark() }
    let next = try #require(fixture.callbacks(3...3).last ?? nil)
    #expect(next.value == 3)
    #expect(!FileManager.default.fileExists(atPath: markFile.path))
    let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path)
    #expect(names.contains { $0.hasPrefix(".quarantined.stk.monitor.facts.mark") })
    #expect(try fixture.folder.outbox.lastHandedOut() == next)
  }

  @Test("the end of a removed epoch is the higher of its two records")
  func endedEpochTakesTheHigherRecord() throws {
    let fixture = try Fixture()
    let last = try #require(fixture.callbacks(1...3).last ?? nil)
    fixture.folder.outbox.markHandedOut(through: SequenceNumber(epoch: last.epoch, value: 8))
    try FileManager.default.removeItem(at: fixture.outboxFile)
    let next = try #require(fixture.callbacks(4...4).last ?? nil)
    #expect(next.epoch != last.epoch && next.value == 1)
    let recoveries = try fixture.folder.outbox.recoveries()
    #expect(recoveries.count == 1)
    #expect(recoveries.first?.epoch == last.epoch && recoveries.first?.lastNumber == 8)
  }

  @Test("with the records in two epochs, a quarantine records the one whose end is not recorded")
  func quarantineTakesTheEpochNotEnded() throws {
    let fixture = try Fixture()
    let first = try #require(fixture.callbacks(1...2).last ?? nil)
    try FileManager.default.removeItem(at: fixture.outboxFile)
    // A publish that does not carry the mark begins the next epoch: the heartbeat still names
    // the first, the mark log the second.
    let fact = try MonitorFact(
      .eventDidReachThreshold, activity: "daily", event: "stk:9m:app", at: Self.start + 600)
    let second = try fixture.folder.outbox.publish(fact)
    #expect(second.epoch != first.epoch && second.value == 1)
    #expect(fixture.folder.heartbeats().carriedMark() == first)
    let recovery = try fixture.folder.outbox.quarantine(
      because: .corruptedOutbox(
        key: fixture.folder.outbox.key, reason: "a test"))
    #expect(recovery.epoch == second.epoch && recovery.lastNumber == 1)
    #expect(try fixture.folder.outbox.recoveries().map(\.epoch) == [first.epoch, second.epoch])
  }

  /// The control restores the copy before its epoch ends.
  ///
  /// Numbering on in it, after the number it lost, is then right. The consumer's case marks
  /// the number it applied before the next callback, as `UsagePipeline` does after
  /// `wentBackwards`: the outbox is then behind a mark of its own epoch, which still ended.
  @Test(
    "an outbox restored to an epoch that ended is moved aside, and the epoch it replaced ends",
    arguments: ["ended", "ended, then marked by a consumer", "control: not ended"])
  func outboxRestoredToAnEndedEpoch(_ case: String) throws {
    let fixture = try Fixture()
    let old = try #require(fixture.callbacks(1...2).last ?? nil)
    let copy = try Data(contentsOf: fixture.outboxFile)
    fixture.callbacks(3...3)
    if `case`.hasPrefix("control") {
      try copy.write(to: fixture.outboxFile)
      let next = try #require(fixture.callbacks(4...4).last ?? nil)
      #expect(next == SequenceNumber(epoch: old.epoch, value: 4))
      #expect(
        try fixture.folder.outbox.drain(after: .start).vanished == [
          SequenceRange(epoch: old.epoch, values: 3...3)
        ])
      #expect(try fixture.folder.outbox.recoveries().isEmpty)
      return
    }
    // The outbox removed: the next epoch begins, and the old one is recorded as ended at 3.
    try FileManager.default.removeItem(at: fixture.outboxFile)
    let newer = try #require(fixture.callbacks(4...6).last ?? nil)
    #expect(newer.epoch != old.epoch && newer.value == 3)
    try copy.write(to: fixture.outboxFile)
    if `case`.contains("consumer") {
      fixture.folder.outbox.markHandedOut(through: SequenceNumber(epoch: old.epoch, value: 3))
    }

    let response = fixture.recorder.eventDidReachThreshold(
      "stk:7m:app", activity: "daily", now: Self.start + 420)
    let next = try #require(response.notification)
    // Not number 3 of the old epoch again: a new epoch, and the consumer is told where both
    // ended.
    #expect(next.epoch != old.epoch && next.epoch != newer.epoch && next.value == 1)
    #expect(response.failures.contains { if case .outboxRecovered = $0 { true } else { false } })
    let ends = try fixture.folder.outbox.recoveries()
    #expect(ends.first { $0.epoch == old.epoch }?.lastNumber == 3)
    #expect(ends.first { $0.epoch == newer.epoch }?.lastNumber == 3)
    #expect(try fixture.folder.outbox.drain(after: .start).entries.map(\.number) == [next])
  }

  @Test("an outbox under another key keeps its mark in its log, and carries the standard one's")
  func secondPipelineKeepsItsOwnLog() throws {
    let fixture = try Fixture()
    var layout = SharedFolderLayout.standard
    layout.outboxKey = "other.facts"
    layout.appStateKey = "other.state"
    layout.diagnosticsKey = "other.diagnostics"
    let other = try SharedFolder(directory: fixture.directory.url, layout: layout)
    let second = MonitorRecorder(folder: other, timeZone: { .gmt })
    let standard = try #require(fixture.callbacks(1...2).last ?? nil)
    let response = second.eventDidReachThreshold(
      "stk:3m:app", activity: "daily", now: Self.start + 180)
    let theirs = try #require(response.notification)
    #expect(response.failures.isEmpty)
    #expect(try other.outbox.loggedMark() == theirs)
    #expect(fixture.folder.heartbeats().carriedMark() == standard)
    let next = try #require(fixture.callbacks(4...4).last ?? nil)
    #expect(next == SequenceNumber(epoch: standard.epoch, value: 3))
    #expect(try fixture.folder.outbox.recoveries().isEmpty && other.outbox.recoveries().isEmpty)
  }

  /// The control is every other test here: `SharedFolder(directory:)` opens stores that share
  /// one lock, and the heartbeat carries the mark.
  @Test("on stores that do not share a lock, the mark log keeps the number, not the heartbeat")
  func storesWithoutOneLockWriteTheMarkLog() throws {
    let directory = try TemporaryDirectory(prefix: "stk-unshared", preferringMemory: true)
    let folder = try SharedFolder(
      store: try FileStore(directory: directory.url),
      heartbeatStore: try FileStore(directory: directory.url, durability: .processCrashSafe))
    let recorder = MonitorRecorder(folder: folder, timeZone: { .gmt })
    let response = recorder.eventDidReachThreshold(
      "stk:1m:app", activity: "daily", now: Self.start)
    let number = try #require(response.notification)
    #expect(response.failures.isEmpty)
    #expect(try folder.outbox.loggedMark() == number)
    #expect(folder.heartbeats().carriedMark() == nil)
    #expect(try folder.outbox.lastHandedOut() == number)
  }

  /// The control: a recorder made from parts does not carry the mark, and writes the log.
  @Test("when the heartbeat cannot be written, the mark log keeps the number")
  func failedHeartbeatFallsBackToTheMarkLog() throws {
    let fixture = try Fixture()
    fixture.callbacks(1...2)
    // A newest record that is not a heartbeat (format version 9): recording refuses to write
    // over it.
    try fixture.folder.heartbeatStore.appendToLog(
      "stk.heartbeats.monitor", capacity: 2_880, examiningNewest: 0
    ) { _ in [Data([9, 0])] }
    let response = fixture.recorder.eventDidReachThreshold(
      "stk:3m:app", activity: "daily", now: Self.start + 180)
    let number = try #require(response.notification)
    #expect(response.failures.contains { if case .heartbeat = $0 { true } else { false } })
    let logged = try #require(try fixture.markLog()?.records.last)
    #expect(logged.bytes.count == 16 && number.value == 3)
    #expect(try fixture.folder.outbox.lastHandedOut() == number)

    let control = try Fixture()
    let parts = MonitorRecorder(
      outbox: control.folder.outbox, heartbeats: control.folder.heartbeats(),
      diagnostics: control.folder.diagnostics, timeZone: { .gmt })
    _ = parts.eventDidReachThreshold("stk:1m:app", activity: "daily", now: Self.start)
    #expect(try control.markLog() != nil)
    #expect(control.folder.heartbeats().carriedMark() == nil)
  }
}

/// The record format's mark: written in the documented layout and read back.
@Suite("A heartbeat record's mark")
struct HeartbeatRecordMarkTests {
  @Test("a heartbeat with a mark is stored as 42 bytes: the mark's epoch and value last")
  func markIsStoredLast() throws {
    let store = InMemoryStore()
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    let mark = SequenceNumber(epoch: SequenceEpoch(rawValue: 0x0102_0304_0506_0708), value: 9)
    let heartbeat = try Heartbeat(
      at: Date(timeIntervalSince1970: 1_772_960_400), source: .monitorExtension, sequence: 9,
      memoryBytes: 3_000_000)
    _ = try recorder.recordReturningPrevious(heartbeat, mark: mark)
    let record = try #require(try store.readLog(recorder.key, newest: 1)?.records.last)
    var expected: [UInt8] = [1, 0b111]
    for field in [UInt64(1_772_960_400_000), 9, 3_000_000, 0x0102_0304_0506_0708, 9] {
      withUnsafeBytes(of: field.littleEndian) { expected.append(contentsOf: $0) }
    }
    #expect([UInt8](record.bytes) == expected)
    #expect(recorder.carriedMark() == mark)
    #expect(try recorder.latest() == heartbeat)
  }

  @Test(
    "the mark carried is the higher in one epoch, the newer across epochs",
    arguments: [
      (latest: 5, latestEpoch: 1, earlier: 3, earlierEpoch: 1, expected: (5, 1)),
      (latest: 3, latestEpoch: 1, earlier: 5, earlierEpoch: 1, expected: (5, 1)),
      (latest: 1, latestEpoch: 2, earlier: 5, earlierEpoch: 1, expected: (1, 2)),
    ])
  func highWaterMark(
    latest: Int, latestEpoch: UInt64, earlier: Int, earlierEpoch: UInt64,
    expected: (Int, UInt64)
  ) {
    func number(_ value: Int, _ epoch: UInt64) -> SequenceNumber {
      SequenceNumber(epoch: SequenceEpoch(rawValue: epoch), value: UInt64(value))
    }
    let mark = SequenceNumber.highWaterMark(
      recording: number(latest, latestEpoch), over: number(earlier, earlierEpoch))
    #expect(mark == number(expected.0, expected.1))
    #expect(SequenceNumber.highWaterMark(recording: nil, over: mark) == mark)
    #expect(SequenceNumber.highWaterMark(recording: mark, over: nil) == mark)
  }
}
