import AppPipeline
import Foundation
import GapDetection
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
    var recorder = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
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

    if locks {
      // The phone restarts: a new extension process is called before the first unlock.
      locked.device.lock()
      recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
    }
    for minutes in [10, 15] {
      let response = recorder.eventDidReachThreshold(
        "stk:\(minutes)m:com.example", activity: "daily", now: at(60 + 10 + minutes))
      #expect(response.backlog.held == (locks ? minutes / 5 - 1 : 0))
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

  /// Runs a day in which the extension holds two thresholds while the device is locked and,
  /// when `dies`, is ended before the unlock; returns the app's tracker-down gaps.
  static func trackerDownGaps(extensionDies dies: Bool) throws -> (gaps: [Gap], usage: Duration) {
    let locked = try LockedFolder()
    var pipeline = try UsagePipeline(
      folder: locked.folder, configuration: PipelineConfiguration(userId: "u", timeZone: .gmt))
    let day = try LocalDay(parsing: "2026-04-15")
    let start = pipeline.configuration.boundary.start(of: day)
    func at(_ minutes: Int) -> Date { start.addingTimeInterval(Double(minutes * 60)) }

    var recorder = MonitorRecorder(folder: locked.folder, timeZone: { .gmt })
    _ = recorder.intervalDidStart(for: "daily", now: at(0))
    _ = recorder.eventDidReachThreshold("stk:5m:com.example", activity: "daily", now: at(65))
    // The phone restarts: a new extension process is called before the first unlock.
    locked.device.lock()
    recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
    _ = recorder.eventDidReachThreshold("stk:10m:com.example", activity: "daily", now: at(75))
    _ = recorder.eventDidReachThreshold("stk:15m:com.example", activity: "daily", now: at(80))
    // The system ends that process, and starts another for the next callback.
    if dies {
      recorder = MonitorRecorder(folder: try locked.openedByANewProcess(), timeZone: { .gmt })
    }
    locked.device.unlock()
    _ = recorder.intervalWillEndWarning(for: "daily", now: at(180))
    _ = try pipeline.wake(.notification, now: at(181))
    let dashboard = try pipeline.dashboard(for: day, now: at(181))
    return (dashboard.gaps.gaps.filter { $0.classification == .trackerDown }, dashboard.usage.total)
  }

  @Test("a backlog lost with its process is a tracker-down gap in the app's report, not silence")
  func lostBacklogIsAGap() throws {
    let window = (Date(timeIntervalSince1970: 1_776_211_200 + 70 * 60), 15.0 * 60)
    func covers(_ gap: Gap) -> Bool {
      gap.start <= window.0 && gap.end >= window.0.addingTimeInterval(window.1)
    }
    let lost = try Self.trackerDownGaps(extensionDies: true)
    #expect(lost.usage == .seconds(300), "the held thresholds never arrived")
    #expect(lost.gaps.contains(where: covers), "the time they cover is tracker-down time")
    let kept = try Self.trackerDownGaps(extensionDies: false)
    #expect(kept.usage == .seconds(900))
    #expect(!kept.gaps.contains(where: covers), "control: delivered facts are signs of life")
  }

  @Test("the facts held while the device was locked count in full once it is unlocked")
  func heldFactsCountInFull() throws {
    let unlocked = try Self.usageAfterUnlock(lockingDuringUse: false)
    #expect(unlocked == .seconds(900), "the reference: a device never locked")
    #expect(try Self.usageAfterUnlock(lockingDuringUse: true) == unlocked)
  }
}
