import Foundation
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// A reader that asks again and again reads only what was recorded since it last asked, and
/// sees what a full read sees.
@Suite("Heartbeat history, updated")
struct HeartbeatHistoryUpdateTests {
  @Test(
    "a history updated after any appends and evictions equals the history read whole",
    arguments: [false, true])
  func updatedEqualsWhole(fileBacked: Bool) throws {
    let directory = try TemporaryDirectory(prefix: "stk-hb-update")
    let store: any SharedStore =
      fileBacked
      ? try FileStore(directory: directory.url, durability: .processCrashSafe) : InMemoryStore()
    let recorder = try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 16)
    var random = SplitMix64(seed: fileBacked ? 2 : 1)
    var cached: HeartbeatHistory?
    var second = Date(timeIntervalSince1970: 1_775_000_000)
    // Steps of 0 to 20 heartbeats: none, a few, and more than the capacity at once.
    for _ in 0..<40 {
      for _ in 0..<Int(random.next() % 21) {
        second += 30
        try recorder.record(at: second, sequence: random.next() % 1_000)
      }
      let updated = try recorder.history(updating: cached)
      #expect(try updated == recorder.history())
      cached = updated
    }
    #expect(cached?.heartbeats.count == 16)
  }

  @Test("a history of another log, or made by hand, is read whole")
  func otherLogsAreReadWhole() throws {
    let store = InMemoryStore()
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    let start = Date(timeIntervalSince1970: 1_775_000_000)
    for offset in 0..<3 { try recorder.record(at: start + Double(offset) * 30) }
    let cached = try recorder.history(updating: nil)
    try recorder.clear()
    try recorder.record(at: start + 600)
    #expect(try recorder.history(updating: cached).heartbeats.count == 1)
    let handMade = HeartbeatHistory(
      source: .monitorExtension, capacity: 2_880, evictedCount: 0, heartbeats: [])
    #expect(try recorder.history(updating: handMade) == recorder.history())
  }
}
