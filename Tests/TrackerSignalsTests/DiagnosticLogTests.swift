import Foundation
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The extension's diagnostic log: its entries' JSON form, the bounded log, and today's failures.
@Suite("Diagnostic log")
struct DiagnosticLogTests {
  func entry(_ at: Date, success: Bool, id: Int, description: String? = nil) throws
    -> DiagnosticEntry
  {
    try DiagnosticEntry(
      id: UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", id))") ?? UUID(),
      at: at, eventName: "stk:15m:com.duolingo", action: .recordUsage, success: success,
      errorDescription: description, memoryBytes: 3_000_000)
  }

  @Test("an entry's JSON form is the documented one")
  func entryJSON() throws {
    let value = try entry(
      instant("2026-03-08T10:30:00Z"), success: false, id: 1, description: "disk full")
    let text =
      #"{"action":"record_usage","at":"2026-03-08T10:30:00Z","errorDescription":"disk full","#
      + #""eventName":"stk:15m:com.duolingo","id":"00000000-0000-0000-0000-000000000001","#
      + #""memoryBytes":3000000,"success":false}"#
    #expect(try json(value) == text)
    #expect(try decode(DiagnosticEntry.self, text) == value)
  }

  @Test("the log keeps the last 100, counts evictions and reports a duplicate once")
  func logKeepsLastHundred() throws {
    let log = try SharedFolder.inMemory().diagnostics
    let t0 = try instant("2026-03-08T10:00:00Z")
    for index in 0..<130 {
      try log.append(try entry(t0.addingTimeInterval(Double(index)), success: true, id: index))
    }
    try log.append(try entry(t0.addingTimeInterval(129), success: true, id: 129))
    let (entries, evicted) = try log.snapshot()
    #expect(entries.count == 100)
    #expect(entries.first?.at == t0.addingTimeInterval(30))
    #expect(evicted == 30)
  }

  @Test("today's failures follow the local day, not UTC")
  func todaysFailures() throws {
    let log = try SharedFolder.inMemory().diagnostics
    let tokyo = DayBoundary(timeZone: try zone("Asia/Tokyo"))
    // 23:59:59 on the 7th in Tokyo, then midnight on the 8th.
    try log.append(try entry(instant("2026-03-07T14:59:59Z"), success: false, id: 1))
    try log.append(try entry(instant("2026-03-07T15:00:00Z"), success: false, id: 2))
    try log.append(try entry(instant("2026-03-08T03:00:00Z"), success: true, id: 3))
    try log.append(try entry(instant("2026-03-08T14:59:59Z"), success: false, id: 4))
    let failures = try log.failures(on: LocalDay(parsing: "2026-03-08"), boundary: tokyo)
    #expect(failures.map { String($0.id.uuidString.suffix(1)) } == ["2", "4"])
    let today = try log.todaysFailures(now: instant("2026-03-08T12:00:00+09:00"), boundary: tokyo)
    #expect(today == failures)
  }

  @Test("a damaged log throws instead of starting afresh")
  func damagedLogThrows() throws {
    let store = InMemoryStore()
    try store.write(Data("{oops".utf8), for: SharedFolderLayout.standard.diagnosticsKey)
    let log = try SharedFolder(store: store).diagnostics
    #expect(throws: TrackerSignalsError.self) { try log.entries() }
    #expect(throws: TrackerSignalsError.self) {
      try log.append(try entry(Date(timeIntervalSince1970: 0), success: true, id: 1))
    }
    #expect(try store.read(SharedFolderLayout.standard.diagnosticsKey) == Data("{oops".utf8))
  }
}

/// The calls that cannot fail do not throw, and use the documented defaults.
@Suite("TrackerSignals defaults")
struct TrackerSignalsDefaultsTests {
  @Test("a log on a store alone uses the default key and keeps the default 100 entries")
  func defaultLog() throws {
    let store = InMemoryStore()
    let log = try SharedFolder(store: store).diagnostics
    for index in 0..<101 {
      try log.append(
        DiagnosticEntry(
          id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", index)) ?? UUID(),
          at: Date(timeIntervalSince1970: Double(index)), eventName: "e", action: .heartbeat,
          success: true))
    }
    #expect(try log.snapshot().entries.count == DiagnosticLog.defaultCapacity)
    #expect(try store.readLog(SharedFolderLayout.standard.diagnosticsKey) != nil)
  }

  @Test("a recorder on a store alone keeps the default capacity under its source's key")
  func defaultRecorder() {
    let recorder = HeartbeatRecorder(store: InMemoryStore(), source: .reportExtension)
    #expect(recorder.capacity == HeartbeatRecorder.defaultCapacity)
    #expect(recorder.key == "stk.heartbeats.report")
  }
}
