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

  /// The reference: the kept heartbeats from the last one before `instant` on, or all of them.
  static func suffix(of history: [Heartbeat], since instant: Date) -> [Heartbeat] {
    guard let last = history.lastIndex(where: { $0.at < instant }) else { return history }
    return Array(history[last...])
  }

  @Test(
    "a history read back to an instant is the kept heartbeats from the last one before it on, and stays so as it is updated",
    arguments: [false, true])
  func historySinceIsTheSuffix(fileBacked: Bool) throws {
    let directory = try TemporaryDirectory(prefix: "stk-hb-since")
    let store: any SharedStore =
      fileBacked
      ? try FileStore(directory: directory.url, durability: .processCrashSafe) : InMemoryStore()
    let recorder = try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 500)
    var random = SplitMix64(seed: fileBacked ? 4 : 3)
    let start = Date(timeIntervalSince1970: 1_775_000_000)
    var second = start
    var partialReads = 0
    for _ in 0..<30 {
      for _ in 0..<Int(random.next() % 120) {
        second += 30
        try recorder.record(at: second)
      }
      let whole = try recorder.history().heartbeats
      // Any instant from before the first kept heartbeat to after the last.
      let instant =
        start + Double(random.next() % UInt64(max(1, second.timeIntervalSince(start) + 60)))
      let since = try recorder.history(
        since: Int64((instant.timeIntervalSince1970 * 1000).rounded()))
      #expect(since.heartbeats == Self.suffix(of: whole, since: instant))
      if !since.holdsAllKept { partialReads += 1 }
      // Updated after more heartbeats, the suffix grows by exactly those.
      for _ in 0..<Int(random.next() % 40) {
        second += 30
        try recorder.record(at: second)
      }
      let updated = try recorder.history(updating: since)
      #expect(
        try updated.heartbeats == Self.suffix(of: recorder.history().heartbeats, since: instant))
    }
    // The control: most reads stopped before the start of the history.
    #expect(partialReads > 10)
  }
}
