import Foundation
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// The restart advice a callback returns after the platform was silent for longer than the
/// restart policy's interval.
@Suite("Restart advice from a callback")
struct RestartAdviceTests {
  @Test(
    "rule: after a silence, a callback advises a restart unless it signals use (a threshold or its warning)",
    arguments: [
      (MonitorCallback.intervalDidStart, true), (.intervalDidEnd, true),
      (.intervalWillStartWarning, true), (.intervalWillEndWarning, true),
      (.eventDidReachThreshold, false), (.eventWillReachThresholdWarning, false),
    ])
  func restartNeverInterruptsUse(callback: MonitorCallback, isDue: Bool) throws {
    let directory = try TemporaryDirectory(prefix: "stk-restart")
    let recorder = MonitorRecorder(
      folder: try SharedFolder(directory: directory.url), timeZone: { .gmt })
    let start = try instant("2026-03-08T12:00:00Z")
    _ = recorder.heartbeat(now: start)
    // Ten minutes of silence: twice the 300 s the standard policy waits in the background.
    let response = recorder.record(
      callback, activity: "daily", event: callback.concernsEvent ? "stk:5m:com.a" : nil,
      now: start.addingTimeInterval(600))
    #expect(response.succeeded)
    #expect(response.restart.isDue == isDue)
  }
}
