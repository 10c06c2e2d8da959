import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// A callback writes its fact, the outbox's mark and its heartbeat in one hold of the folder's
/// lock when the folder's stores share it, as `SharedFolder(directory:)` opens them.
@Suite("A monitor callback holds the folder's lock once")
struct MonitorRecorderLockTests {
  /// The real file system, counting the `flock`s taken.
  final class LockCounter: ForwardingFileSystem, @unchecked Sendable {
    let base: any FileSystem = POSIXFileSystem()
    private let taken = LockedValue(0)
    var locks: Int { taken.withLock { $0 } }

    func lockExclusively(_ descriptor: Int32) throws(SystemCallError) {
      taken.withLock { $0 += 1 }
      try base.lockExclusively(descriptor)
    }
  }

  static let start = Date(timeIntervalSince1970: 1_776_211_200)

  /// A recorder that has made its first callback, on a folder whose heartbeats and mark are
  /// kept by a sibling of its durable store or — the control — by a store opened separately on
  /// the same directory; its file system counts the `flock`s taken.
  struct Fixture {
    let directory: TemporaryDirectory
    let counter = LockCounter()
    let folder: SharedFolder
    let recorder: MonitorRecorder

    init(siblings: Bool) throws {
      directory = try TemporaryDirectory(prefix: "stk-hold", preferringMemory: true)
      let store = try FileStore(
        directory: directory.url, durability: .durable, fileSystem: counter)
      let unflushed =
        siblings
        ? store.withDurability(.processCrashSafe)
        : try FileStore(
          directory: directory.url, durability: .processCrashSafe, fileSystem: counter)
      folder = try SharedFolder(store: store, heartbeatStore: unflushed)
      recorder = MonitorRecorder(folder: folder, timeZone: { .gmt })
      _ = recorder.intervalDidStart(for: "daily", now: MonitorRecorderLockTests.start)
    }
  }

  @Test(
    "a callback takes the folder's lock once when its stores share it, once per write otherwise",
    arguments: [true, false])
  func oneHoldPerCallback(siblings: Bool) throws {
    let fixture = try Fixture(siblings: siblings)
    let before = fixture.counter.locks
    for minutes in 1...10 {
      let response = fixture.recorder.eventDidReachThreshold(
        "stk:\(minutes)m:app", activity: "daily", now: Self.start + Double(minutes * 60))
      #expect(response.succeeded)
      #expect(response.notification?.value == UInt64(minutes + 1))
    }
    // In one hold, the fact and the heartbeat, which carries the outbox's mark; without one,
    // the fact, the mark's log (the mark is carried only in a hold) and the heartbeat.
    #expect(fixture.counter.locks - before == (siblings ? 10 : 30))
    let facts = try fixture.folder.outbox.drain(after: .start).entries
    #expect(facts.map(\.number.value) == Array(1...11))
    let beats = try fixture.folder.heartbeats().history().heartbeats
    #expect(beats.count == 11)
    #expect(beats.last?.sequence == 11)
    #expect(try fixture.folder.outbox.lastHandedOut()?.value == 11)
  }

  @Test("a heartbeat without a callback takes the folder's lock once too")
  func heartbeatTakesOneHold() throws {
    let fixture = try Fixture(siblings: true)
    let before = fixture.counter.locks
    #expect(fixture.recorder.heartbeat(now: Self.start + 30).succeeded)
    #expect(fixture.counter.locks - before == 1)
  }

  @Test("two callbacks at once, one before the first unlock and one after, both return")
  func callbacksAcrossTheFirstUnlockBothReturn() throws {
    // A callback that cannot take the folder's lock (the device still locked) publishes without
    // it; one that can holds it. Copies of one recorder share the backlog: without one order
    // for the backlog's lock and the folder's, the two could wait for each other forever.
    let locked = try LockedFolder()
    var stuck = 0
    for round in 0..<200 {
      locked.device.lock()
      let recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
      let done = DispatchSemaphore(value: 0)
      for thread in 0..<2 {
        Thread {
          for step in 0..<5 {
            let minutes = round * 10 + thread * 5 + step
            _ = recorder.eventDidReachThreshold(
              "stk:\(minutes)m:app", activity: "daily", now: Self.start + Double(minutes * 60))
          }
          done.signal()
        }.start()
      }
      Thread.sleep(forTimeInterval: Double(round % 5) / 10_000)
      locked.device.unlock()
      for _ in 0..<2 where done.wait(timeout: .now() + 10) == .timedOut { stuck += 1 }
      if stuck > 0 { break }
    }
    #expect(stuck == 0, "callbacks waited for each other")
  }
}
