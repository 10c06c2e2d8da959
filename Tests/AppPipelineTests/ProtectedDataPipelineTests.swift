import AppPipeline
import Foundation
import SequenceTracking
import SharedStore
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// Data protection end to end: while the device keeps the folder closed, the app is told so by
/// name and never shown less usage than was recorded; once it opens, every held fact counts.
@Suite("The pipeline while protected data is unavailable")
struct ProtectedDataPipelineTests {
  /// Runs one day's callbacks — the 10 and 15 minute thresholds while `locked` says so — and
  /// returns the usage the app shows after the folder opens again.
  static func usageAfterUnlock(lockingDuringUse locks: Bool) throws -> Duration {
    let locked = try LockedFolder()
    let recorder = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
    var pipeline = try UsagePipeline(
      folder: locked.folder, configuration: PipelineConfiguration(userId: "u", timeZone: .gmt))
    let day = try LocalDay(parsing: "2026-04-15")
    let start = pipeline.configuration.boundary.start(of: day)
    func at(_ minutes: Int) -> Date { start.addingTimeInterval(Double(minutes * 60)) }

    _ = recorder.intervalDidStart(for: "daily", now: at(0))
    _ = recorder.eventDidReachThreshold("stk:5m:com.example", activity: "daily", now: at(65))
    _ = try pipeline.wake(.notification, now: at(66))
    let before = try pipeline.dashboard(for: day, now: at(66)).usage.total
    #expect(before == .seconds(300))

    if locks { locked.device.lock() }
    for minutes in [10, 15] {
      _ = recorder.eventDidReachThreshold(
        "stk:\(minutes)m:com.example", activity: "daily", now: at(60 + 10 + minutes))
    }
    if locks {
      // The app, woken while the device is still locked, is told why it cannot read.
      for attempt in [DrainTrigger.foreground, .notification] {
        do throws(PipelineError) {
          _ = try pipeline.wake(attempt, now: at(90))
          Issue.record("a wake on a closed folder must throw")
        } catch {
          #expect(Self.isProtected(error.storeError), "named, not \(error)")
        }
      }
      do throws(PipelineError) {
        let dashboard = try pipeline.dashboard(for: day, now: at(90))
        #expect(dashboard.usage.total >= before, "never less usage than was recorded")
      } catch {
        #expect(Self.isProtected(error.storeError), "named, not \(error)")
      }
      locked.device.unlock()
    }
    _ = recorder.intervalWillEndWarning(for: "daily", now: at(120))
    _ = try pipeline.wake(.notification, now: at(121))
    return try pipeline.dashboard(for: day, now: at(121)).usage.total
  }

  static func isProtected(_ error: SharedStoreError?) -> Bool {
    if case .protectedDataUnavailable? = error { return true }
    return false
  }

  @Test("the facts held while the device was locked count in full once it is unlocked")
  func heldFactsCountInFull() throws {
    let unlocked = try Self.usageAfterUnlock(lockingDuringUse: false)
    #expect(unlocked == .seconds(900), "the reference: a device never locked")
    #expect(try Self.usageAfterUnlock(lockingDuringUse: true) == unlocked)
  }
}
