import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing
import TrackerSignals

/// The monitor extension runs unattended: an outbox it cannot read is moved aside, the callback
/// is recorded in a new epoch and reported once in the diagnostic log, and the next callbacks
/// record as usual.
@Suite("The extension never stays stuck on an outbox it cannot read")
struct ExtensionHealingTests {
  let start = Date(timeIntervalSince1970: 1_772_978_700)  // 2026-03-08T14:05:00Z

  /// How the tests make the outbox unreadable.
  enum Damage: String, CaseIterable, Sendable {
    case flippedChecksum
    case newerLayout
  }

  /// Replaces the outbox's bytes in `store` with a damaged copy.
  static func damage(_ store: InMemoryStore, key: String, _ damage: Damage) throws {
    var bytes = try #require(store.logBytes(for: key))
    switch damage {
    case .flippedChecksum:
      bytes[bytes.count - 3] ^= 0xFF  // the newest frame's checksum
    case .newerLayout:
      let log = try #require(try store.readLog(key))
      var records = log.records
      let newest = records.removeLast()
      records.append(
        LogRecord(position: newest.position, bytes: Data([2]) + newest.bytes.dropFirst()))
      bytes = LogFileFormat.file(
        header: LogFileFormat.Header(
          tokenBase: 1, identity: log.identity, capacity: log.capacity, evicted: 0,
          nextPosition: 1),
        records: records)
    }
    store.setLogBytes(bytes, for: key)
  }

  @Test(
    "the callback after the damage is recorded in a new epoch and logged once",
    arguments: Damage.allCases)
  func callbackAfterDamageIsRecorded(damage: Damage) throws {
    let store = InMemoryStore()
    let folder = try SharedFolder(store: store)
    let utc = try #require(TimeZone(identifier: "UTC"))
    let recorder = MonitorRecorder(folder: folder, timeZone: { utc })
    var numbers: [SequenceNumber] = []
    for minute in 0..<3 {
      let response = recorder.intervalDidStart(
        for: "daily", now: start.addingTimeInterval(Double(minute) * 60))
      numbers += [response.notification].compactMap { $0 }
    }
    let epoch = try #require(numbers.last).epoch
    try Self.damage(store, key: folder.layout.outboxKey, damage)

    let healed = recorder.intervalDidStart(for: "daily", now: start.addingTimeInterval(180))
    let number = try #require(healed.notification, "the fact is published")
    #expect(number.epoch != epoch && number.value == 1)
    guard case .outboxRecovered(let recovery)? = healed.failures.first else {
      Issue.record("no recovery reported: \(healed.failures)")
      return
    }
    #expect(healed.failures.count == 1)
    #expect(recovery.epoch == epoch && recovery.lastNumber == 3)
    #expect(store.quarantinedValues[try #require(recovery.quarantinedTo)] != nil, "bytes kept")
    let logged = try folder.diagnostics.entries()
    #expect(logged.count == 1)
    #expect(logged.first?.errorDescription?.contains("moved aside") == true)

    let next = recorder.intervalDidStart(for: "daily", now: start.addingTimeInterval(240))
    #expect(next.succeeded)
    #expect(next.notification == SequenceNumber(epoch: number.epoch, value: 2))
    #expect(try folder.diagnostics.entries().count == 1, "logged once")
    #expect(try folder.outbox.recoveries() == [recovery])
  }

  @Test("control: a recorder on an outbox without healing fails every callback")
  func controlWithoutHealingEveryCallbackFails() throws {
    let store = InMemoryStore()
    let folder = try SharedFolder(store: store)
    let recorder = MonitorRecorder(folder: folder, timeZone: { .gmt })
    _ = recorder.intervalDidStart(for: "daily", now: start)
    try Self.damage(store, key: folder.layout.outboxKey, .flippedChecksum)
    let plain = try SequencedOutbox<MonitorFact>(
      store: store, key: folder.layout.outboxKey, capacity: folder.layout.outboxCapacity)
    let fact = try MonitorFact(.intervalDidStart, activity: "daily", at: start, timeZone: .gmt)
    for _ in 0..<3 {
      #expect(throws: SequenceTrackingError.self) { try plain.publish(fact) }
    }
  }
}
