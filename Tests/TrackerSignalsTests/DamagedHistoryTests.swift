import Foundation
import GapDetection
import SharedStore
import TestSupport
import Testing
import TrackerSignals

/// A stored heartbeat history that is damaged or hostile is reported, never trapped on and
/// never written over; quarantining it lets recording start afresh.
@Suite("Damaged heartbeat histories")
struct DamagedHistoryTests {
  /// Ways a stored history can be damaged, each written with ``RingBytes``.
  enum Damage: String, CaseIterable, CustomStringConvertible {
    case notARing
    case truncatedHeader
    case unknownVersion
    case wrongRecordSize
    case zeroCapacity
    case countAboveCapacity
    case nextOutOfRange
    case nextNotAfterNewest
    case countAboveRecorded
    case reservedNotZero
    case trailingBytes
    case unknownFlags
    case nonZeroPadding
    case instantTooEarly
    case instantTooLate
    case damagedOldestOfFullRing

    var description: String { rawValue }

    static let t0: Int64 = 1_772_960_400_000

    var ring: RingBytes {
      var ring = RingBytes(capacity: 4, instants: [Self.t0, Self.t0 + 30_000])
      switch self {
      case .notARing, .truncatedHeader: break
      case .unknownVersion: ring.version = 2
      case .wrongRecordSize: ring.recordSize = 16
      case .zeroCapacity:
        ring = RingBytes(capacity: 1, instants: [])
        ring.capacity = 0
      case .countAboveCapacity: ring.capacity = 1
      case .nextOutOfRange: ring.next = 4
      case .nextNotAfterNewest: ring.next = 1
      case .countAboveRecorded: ring.totalRecorded = 1
      case .reservedNotZero: ring.reserved = 7
      case .trailingBytes: ring.trailing = [0]
      case .unknownFlags: ring.records[1].flags = 0b100
      case .nonZeroPadding: ring.records[1].padding = 1
      case .instantTooEarly: ring.records[1].instant = Int64.min
      case .instantTooLate: ring.records[1].instant = 253_402_128_000_000
      case .damagedOldestOfFullRing:
        ring = RingBytes(capacity: 2, instants: [Self.t0, Self.t0 + 30_000])
        ring.records[0].flags = 0xFF
      }
      return ring
    }

    var data: Data {
      switch self {
      case .notARing: return Data("not a ring at all, but long enough for a header".utf8)
      case .truncatedHeader: return ring.data.prefix(20)
      default: return ring.data
      }
    }

    /// The recorder's capacity: the ring's, so that recording takes the ordinary path.
    var capacity: Int { self == .damagedOldestOfFullRing ? 2 : 4 }
    /// Whether the newest record, which ``HeartbeatRecorder/latest()`` reads alone, is intact.
    var newestIsIntact: Bool { self == .damagedOldestOfFullRing }
  }

  @Test("a damaged history is reported and never overwritten", arguments: Damage.allCases)
  func damagedHistoryIsReported(damage: Damage) throws {
    let store = InMemoryStore()
    let recorder = try HeartbeatRecorder(
      store: store, source: .monitorExtension, capacity: damage.capacity)
    try store.write(damage.data, for: recorder.key)
    if damage.newestIsIntact {
      #expect(try recorder.latest()?.at == Date(timeIntervalSince1970: 1_772_960_430))
    } else {
      #expect(throws: TrackerSignalsError.self) { try recorder.latest() }
    }
    #expect(throws: TrackerSignalsError.self) { try recorder.history() }
    let error = #expect(throws: TrackerSignalsError.self) {
      try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_460))
    }
    guard case .corruptedHeartbeatHistory(let key, _) = error else {
      Issue.record("expected corruptedHeartbeatHistory, got \(String(describing: error))")
      return
    }
    #expect(key == recorder.key)
    #expect(try store.read(recorder.key) == damage.data)
  }

  @Test("the control: the undamaged ring of the damage cases reads and records")
  func undamagedRingReads() throws {
    let store = InMemoryStore()
    let recorder = try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 4)
    let ring = RingBytes(capacity: 4, instants: [Damage.t0, Damage.t0 + 30_000])
    try store.write(ring.data, for: recorder.key)
    #expect(try recorder.history().heartbeats.count == 2)
    #expect(try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_460)) == .recorded)
  }

  @Test("an instant outside the supported range is damage, and judging health never traps")
  func hostileInstantDoesNotTrap() async {
    await #expect(processExitsWith: .success) {
      var ring = RingBytes(capacity: 4, instants: [0])
      ring.records[0].instant = Int64.min
      let store = InMemoryStore()
      let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
      try store.write(ring.data, for: recorder.key)
      do {
        let latest = try recorder.latest()
        _ = HealthPolicy.standard.health(of: latest, at: Date(timeIntervalSince1970: 0))
        exit(3)  // read as a heartbeat: not reported
      } catch TrackerSignalsError.corruptedHeartbeatHistory {
        exit(0)
      }
    }
  }

  @Test("a saturated count of heartbeats recorded is damage, not a trap")
  func saturatedCounterDoesNotTrap() async {
    await #expect(processExitsWith: .success) {
      var ring = RingBytes(capacity: 2_880, instants: [1_772_960_400_000])
      ring.totalRecorded = UInt64.max
      let store = InMemoryStore()
      let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
      try store.write(ring.data, for: recorder.key)
      do {
        try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_430))
        exit(3)  // recorded past the limit
      } catch TrackerSignalsError.corruptedHeartbeatHistory {
        exit(try store.read(recorder.key) == ring.data ? 0 : 4)
      }
    }
  }

  @Test("a damaged history can be quarantined, and recording starts afresh")
  func quarantineStartsAfresh() throws {
    let store = InMemoryStore()
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    try store.write(Damage.notARing.data, for: recorder.key)
    #expect(throws: TrackerSignalsError.self) { try recorder.latest() }
    let kept = try #require(try recorder.quarantine())
    #expect(store.quarantinedValues[kept] == Damage.notARing.data)
    #expect(try recorder.latest() == nil)
    try recorder.record(at: Date(timeIntervalSince1970: 1_772_960_400))
    #expect(try recorder.history().heartbeats.count == 1)
    #expect(try recorder.quarantine() != nil)
    #expect(try recorder.quarantine() == nil, "nothing left to move aside")
  }
}
