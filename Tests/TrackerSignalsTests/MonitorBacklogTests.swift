import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// While data protection keeps the shared folder closed, the recorder holds its facts in memory
/// and publishes them, in order and with their times, at the first callback that can open it.
@Suite("The monitor recorder while protected data is unavailable")
struct MonitorBacklogTests {
  static let start = Date(timeIntervalSince1970: 1_776_211_200)

  static func at(_ minutes: Int) -> Date { start.addingTimeInterval(Double(minutes * 60)) }

  /// The facts in the outbox, as (callback, event, minutes after `start`), in outbox order.
  static func published(_ folder: SharedFolder) throws -> [String] {
    try folder.outbox.drain(after: .start).entries.map { entry in
      let minutes = Int(entry.payload.at.timeIntervalSince(start)) / 60
      return
        "\(entry.number.value) \(entry.payload.event ?? entry.payload.callback.rawValue) @\(minutes)"
    }
  }

  static func isProtected(_ error: SharedStoreError?) -> Bool {
    if case .protectedDataUnavailable? = error { return true }
    return false
  }

  @Test(
    "facts recorded while the folder is closed land in order, with their times, at the next callback"
  )
  func heldFactsLandInOrder() throws {
    let locked = try LockedFolder()
    let before = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
    #expect(before.intervalDidStart(for: "daily", now: Self.at(0)).notification?.value == 1)

    // The phone restarts: a new extension process is called before the first unlock.
    locked.device.lock()
    let recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
    for (index, minutes) in [5, 10, 15].enumerated() {
      let response = recorder.eventDidReachThreshold(
        "stk:\(minutes)m:app", activity: "daily", now: Self.at(minutes))
      #expect(response.notification == nil, "nothing published: nothing to notify")
      #expect(response.fact != nil)
      #expect(
        response.backlog
          == MonitorBacklogStatus(
            held: index + 1, written: 0, dropped: 0, oldestHeldAt: Self.at(5)))
      // The condition is named in every module error that carries the store's.
      var named: [String] = []
      for failure in response.failures {
        switch failure {
        case .fact(let error) where Self.isProtected(error.storeError): named.append("fact")
        case .heartbeat(let error) where Self.isProtected(error.storeError):
          named.append("heartbeat")
        case .diagnostic(let error) where Self.isProtected(error.storeError):
          named.append("diagnostic")
        default: Issue.record("unexpected failure \(failure)")
        }
      }
      #expect(named == ["fact", "heartbeat", "diagnostic"])
    }
    #expect(locked.device.refusedOpens > 0, "the device did refuse (control)")

    locked.device.unlock()
    let response = recorder.intervalWillEndWarning(for: "daily", now: Self.at(20))
    #expect(response.succeeded)
    #expect(response.notification?.value == 5, "one notification for the held facts and this one")
    #expect(
      response.backlog == MonitorBacklogStatus(held: 0, written: 3, dropped: 0, oldestHeldAt: nil))
    #expect(
      try Self.published(locked.folder) == [
        "1 intervalDidStart @0", "2 stk:5m:app @5", "3 stk:10m:app @10", "4 stk:15m:app @15",
        "5 intervalWillEndWarning @20",
      ])
    let report = try #require(try locked.folder.diagnostics.entries().last)
    #expect(report.eventName == "backlog")
    #expect(report.success)
    #expect(report.errorDescription?.contains("3 facts held in memory") == true)

    let next = recorder.intervalDidEnd(for: "daily", now: Self.at(30))
    #expect(next.backlog == .empty, "nothing is published twice")
    #expect(next.notification?.value == 6)
  }

  @Test("past its capacity the backlog drops the oldest held facts, counts them and reports them")
  func overflowIsCountedAndReported() throws {
    let locked = try LockedFolder()
    let recorder = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
    let capacity = MonitorRecorder.backlogCapacity
    locked.device.lock()
    var last: MonitorResponse?
    for minute in 1...(capacity + 3) {
      last = recorder.eventDidReachThreshold(
        "stk:\(minute)m:app", activity: "daily", now: Self.at(minute))
    }
    #expect(
      last?.backlog
        == MonitorBacklogStatus(held: capacity, written: 0, dropped: 3, oldestHeldAt: Self.at(4)))

    locked.device.unlock()
    let response = recorder.heartbeat(now: Self.at(capacity + 10))
    #expect(response.notification?.value == UInt64(capacity), "a tick notifies for held facts")
    #expect(
      response.backlog
        == MonitorBacklogStatus(held: 0, written: capacity, dropped: 0, oldestHeldAt: nil))
    let published = try Self.published(locked.folder)
    #expect(published.first == "1 stk:4m:app @4", "the three oldest were dropped")
    #expect(published.last == "\(capacity) stk:\(capacity + 3)m:app @\(capacity + 3)")
    let report = try #require(try locked.folder.diagnostics.entries().last)
    #expect(!report.success, "a loss is a failure in the log")
    #expect(report.errorDescription?.contains("3 facts recorded from") == true)
    #expect(report.errorDescription?.contains("were lost") == true)
  }

  @Test(
    "a refusal other than data protection holds nothing: the fact is reported lost, as before",
    arguments: [EACCES, EIO])
  func otherRefusalsHoldNothing(code: Int32) throws {
    let locked = try LockedFolder()
    let recorder = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
    locked.device.lock(refusingWith: code)
    let response = recorder.eventDidReachThreshold("stk:5m:app", activity: "daily", now: Self.at(5))
    #expect(response.backlog == .empty)
    guard case .fact(let error)? = response.failures.first, case .io? = error.storeError else {
      Issue.record("expected an io failure, got \(response.failures)")
      return
    }
    locked.device.unlock()
    _ = recorder.intervalDidEnd(for: "daily", now: Self.at(10))
    #expect(try Self.published(locked.folder) == ["1 intervalDidEnd @10"])
  }

  @Test("copies of a recorder share one backlog: the extension's callbacks run on copies")
  func copiesShareTheBacklog() throws {
    let locked = try LockedFolder()
    let recorder = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
    let copy = recorder
    locked.device.lock()
    _ = recorder.intervalDidStart(for: "daily", now: Self.at(1))
    #expect(copy.intervalWillEndWarning(for: "daily", now: Self.at(2)).backlog.held == 2)
    let other = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
    #expect(
      other.intervalDidEnd(for: "daily", now: Self.at(3)).backlog.held == 1,
      "a recorder made afresh starts with an empty backlog (control)")
  }

  @Test("the held facts are lost with the process: the app sees no facts and no heartbeats then")
  func backlogDiesWithTheProcess() throws {
    let locked = try LockedFolder()
    do {
      _ = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
        .intervalDidStart(for: "daily", now: Self.at(0))
      // The phone restarts; the extension process called before the first unlock holds a fact.
      locked.device.lock()
      let recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
      #expect(recorder.intervalWillEndWarning(for: "daily", now: Self.at(5)).backlog.held == 1)
    }
    // That process was ended; the system starts a new one after the unlock.
    locked.device.unlock()
    let recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
    _ = recorder.intervalDidEnd(for: "daily", now: Self.at(60))
    #expect(try Self.published(locked.folder) == ["1 intervalDidStart @0", "2 intervalDidEnd @60"])
    let heartbeats = try locked.folder.heartbeats().history().heartbeats.map(\.at)
    #expect(heartbeats == [Self.at(0), Self.at(60)], "silence from 0 to 60: a gap the app sees")
  }

  @Test("the backlog's status has the documented JSON form and equals its round trip")
  func statusJSON() throws {
    let status = MonitorBacklogStatus(
      held: 2, written: 0, dropped: 1, oldestHeldAt: Self.at(5).addingTimeInterval(0.0004))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(status), as: UTF8.self)
    #expect(json == #"{"dropped":1,"held":2,"oldestHeldAt":"2026-04-15T00:05:00Z","written":0}"#)
    #expect(try JSONDecoder().decode(MonitorBacklogStatus.self, from: Data(json.utf8)) == status)
    let empty = String(decoding: try encoder.encode(MonitorBacklogStatus.empty), as: UTF8.self)
    #expect(empty == #"{"dropped":0,"held":0,"written":0}"#, "no instant when nothing is held")
  }

  @Test(
    "a status with a negative count or a bad instant does not decode",
    arguments: [
      #"{"held":-1,"written":0,"dropped":0}"#, #"{"held":0,"written":0}"#,
      #"{"held":1,"written":0,"dropped":0,"oldestHeldAt":"yesterday"}"#,
    ])
  func invalidStatusJSON(json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(MonitorBacklogStatus.self, from: Data(json.utf8))
    }
  }

  /// What a run of callbacks must leave in the outbox, computed without a store: every fact in
  /// the order of its callback, except the oldest of a locked stretch past the capacity and
  /// those of a process that ended while it held them.
  struct Reference {
    var published: [String] = []
    var held: [String] = []
    var dropped = 0

    mutating func callback(_ name: String, locked: Bool) {
      if locked {
        held.append(name)
        if held.count > MonitorRecorder.backlogCapacity {
          held.removeFirst()
          dropped += 1
        }
      } else {
        published += held + [name]
        held = []
      }
    }
  }

  @Test(
    "random runs of locks, restarts and callbacks publish what the reference model says",
    arguments: [(1, 5), (2, 20), (3, 100), (4, 300)] as [(UInt64, UInt64)])
  func randomRunsMatchTheReference(seed: UInt64, unlockOneIn: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let locked = try LockedFolder()
    var recorder = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
    var reference = Reference()
    var isLocked = false
    for step in 0..<400 {
      let roll = random.next()
      if !isLocked, roll % 20 == 0 {
        // A restart: the device locks, a process that still held facts is gone with them, and
        // a new one is called before the first unlock.
        locked.device.lock()
        isLocked = true
        recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
        reference.held = []
      } else if isLocked, roll % (2 * unlockOneIn) == 0 {
        // The process holding the backlog is ended; the next one starts with nothing held.
        recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
        reference.held = []
      } else if isLocked, roll % unlockOneIn == 1 {
        locked.device.unlock()
        isLocked = false
      } else {
        let name = "stk:\(step)m:app"
        let response = recorder.eventDidReachThreshold(name, activity: "daily", now: Self.at(step))
        reference.callback(name, locked: isLocked)
        #expect(response.backlog.held == reference.held.count, "step \(step)")
      }
    }
    locked.device.unlock()
    _ = recorder.heartbeat(now: Self.at(500))
    reference.callback("", locked: false)
    let events = try locked.folder.outbox.drain(after: .start).entries.compactMap(\.payload.event)
    #expect(events == reference.published.filter { !$0.isEmpty })
    if unlockOneIn >= 300 { #expect(reference.dropped > 0, "long locks overflow the backlog") }
  }
}
