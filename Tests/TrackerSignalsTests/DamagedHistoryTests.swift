import Foundation
import GapDetection
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// A stored heartbeat history that is damaged or hostile is reported, never trapped on and
/// never written over; quarantining it lets recording start afresh.
@Suite("Damaged heartbeat histories")
struct DamagedHistoryTests {
  /// Ways a stored heartbeat record can be damaged, each written with ``HeartbeatLogBytes``.
  enum Damage: String, CaseIterable, CustomStringConvertible {
    case unknownVersion
    case unknownFlags
    case tooShort
    case fieldsMissing
    case markCut
    case trailingBytes
    case instantTooEarly
    case instantTooLate
    case damagedOlderRecord

    var description: String { rawValue }

    static let t0: Int64 = 1_772_960_400_000

    var history: HeartbeatLogBytes {
      var history = HeartbeatLogBytes(capacity: 4, instants: [Self.t0, Self.t0 + 30_000])
      let damaged = self == .damagedOlderRecord ? 0 : 1
      var record = history.records[damaged]
      switch self {
      case .unknownVersion: record.version = 2
      case .unknownFlags: record.flags = 0b1000
      case .tooShort: break  // written by store(in:key:)
      case .fieldsMissing: record.flags = 0b01
      // The outbox's mark is 16 bytes; half of it is there.
      case .markCut: (record.flags, record.trailing) = (0b100, Array(repeating: 1, count: 8))
      case .trailingBytes: record.trailing = [0]
      case .instantTooEarly: record.instant = Int64.min
      case .instantTooLate: record.instant = 253_402_128_000_000
      case .damagedOlderRecord: record.flags = 0xFF
      }
      history.records[damaged] = record
      return history
    }

    /// The stored bytes, for the cases the builder cannot express.
    func store(in store: InMemoryStore, key: String) {
      guard self == .tooShort else { return history.store(in: store, key: key) }
      let header = LogFileFormat.Header(
        tokenBase: 1, identity: 7, capacity: 4, evicted: 0, nextPosition: 3)
      let records = [
        LogRecord(position: 1, bytes: history.records[0].bytes),
        LogRecord(position: 2, bytes: Data([1])),
      ]
      store.setLogBytes(LogFileFormat.file(header: header, records: records), for: key)
    }

    /// Whether the newest record, which recording and ``HeartbeatRecorder/latest()`` read, is
    /// intact.
    var newestIsIntact: Bool { self == .damagedOlderRecord }
  }

  @Test("a damaged heartbeat is reported and never overwritten", arguments: Damage.allCases)
  func damagedHistoryIsReported(damage: Damage) throws {
    let store = InMemoryStore()
    let recorder = try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 4)
    damage.store(in: store, key: recorder.key)
    let stored = store.logBytes(for: recorder.key)
    #expect(throws: TrackerSignalsError.self) { try recorder.history() }
    if damage.newestIsIntact {
      // Recording reads the newest record only: it goes on, and the damage stays reported.
      #expect(try recorder.latest()?.at == Date(timeIntervalSince1970: 1_772_960_430))
      #expect(try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_460)) == .recorded)
      #expect(throws: TrackerSignalsError.self) { try recorder.history() }
      return
    }
    #expect(throws: TrackerSignalsError.self) { try recorder.latest() }
    do throws(TrackerSignalsError) {
      try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_460))
      Issue.record("recording on a damaged history succeeded")
    } catch {
      guard case .corruptedHeartbeatHistory(let key, _) = error else {
        Issue.record("expected corruptedHeartbeatHistory, got \(error)")
        return
      }
      #expect(key == recorder.key)
    }
    #expect(store.logBytes(for: recorder.key) == stored)
  }

  @Test("the control: the undamaged history of the damage cases reads and records")
  func undamagedHistoryReads() throws {
    let store = InMemoryStore()
    let recorder = try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 4)
    HeartbeatLogBytes(capacity: 4, instants: [Damage.t0, Damage.t0 + 30_000])
      .store(in: store, key: recorder.key)
    #expect(try recorder.history().heartbeats.count == 2)
    #expect(try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_460)) == .recorded)
  }

  @Test("an instant outside the supported range is damage, and judging health never traps")
  func hostileInstantDoesNotTrap() async {
    #if compiler(>=6.2)
    await #expect(processExitsWith: .success) {
      exit(DamagedHistoryTests.hostileInstantIsDamage() ? 0 : 3)
    }
    #else
    // Swift 6.0 and 6.1 have no exit tests: checked in this process, where a trap fails the run.
    #expect(Self.hostileInstantIsDamage())
    #endif
  }

  /// Whether a heartbeat at `Int64.min` milliseconds is reported as damage rather than read.
  static func hostileInstantIsDamage() -> Bool {
    var history = HeartbeatLogBytes(capacity: 4, instants: [0])
    history.records[0].instant = Int64.min
    let store = InMemoryStore()
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    history.store(in: store, key: recorder.key)
    do throws(TrackerSignalsError) {
      let latest = try recorder.latest()
      _ = HealthPolicy.standard.health(of: latest, at: Date(timeIntervalSince1970: 0))
      return false  // read as a heartbeat: not reported
    } catch {
      guard case .corruptedHeartbeatHistory = error else { return false }
      return true
    }
  }

  @Test("a history with no position left for another heartbeat is damage, not a trap")
  func exhaustedPositionsDoNotTrap() async {
    #if compiler(>=6.2)
    await #expect(processExitsWith: .success) {
      exit(DamagedHistoryTests.exhaustedPositionsAreDamage() ? 0 : 3)
    }
    #else
    // Swift 6.0 and 6.1 have no exit tests: checked in this process, where a trap fails the run.
    #expect(Self.exhaustedPositionsAreDamage())
    #endif
  }

  /// Whether recording on a history with no position left is refused as corrupted, the stored
  /// bytes untouched.
  static func exhaustedPositionsAreDamage() -> Bool {
    var history = HeartbeatLogBytes(capacity: 2_880, instants: [1_772_960_400_000])
    history.first = UInt64.max - 1
    let store = InMemoryStore()
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    history.store(in: store, key: recorder.key)
    let stored = store.logBytes(for: recorder.key)
    do throws(TrackerSignalsError) {
      try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_430))
      return false  // recorded past the last position
    } catch {
      guard case .store(.corrupted) = error else { return false }
      return store.logBytes(for: recorder.key) == stored
    }
  }

  @Test("a history that is not a log can be quarantined, and recording starts afresh")
  func quarantineStartsAfresh() throws {
    let store = InMemoryStore()
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    let garbage = Data("not a heartbeat history at all".utf8)
    try store.write(garbage, for: recorder.key)
    #expect(throws: TrackerSignalsError.self) { try recorder.latest() }
    let kept = try #require(try recorder.quarantine())
    #expect(store.quarantinedValues[kept] == garbage)
    #expect(try recorder.latest() == nil)
    try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_400))
    #expect(try recorder.history().heartbeats.count == 1)
    #expect(try recorder.quarantine() != nil)
    #expect(try recorder.quarantine() == nil, "nothing left to move aside")
  }
}
