import AppPipeline
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The extension and the app open one shared folder through one layout, on disk or in memory.
@Suite("The pipeline on a shared folder")
struct SharedFolderPipelineTests {
  @Test("the pipeline works unchanged on an in-memory folder")
  func inMemoryFolderRunsThePipeline() throws {
    let folder = try SharedFolder.inMemory()
    let zone = try TestSupport.zone("Europe/Paris")
    let recorder = MonitorRecorder(folder: folder, timeZone: { zone })
    var pipeline = try UsagePipeline(
      folder: folder, configuration: PipelineConfiguration(userId: "preview", timeZone: zone))
    let day = try LocalDay(parsing: "2026-04-15")
    let start = pipeline.configuration.boundary.start(of: day)
    #expect(recorder.intervalDidStart(for: "daily", now: start).succeeded)
    for minute in [5, 10, 15] {
      let response = recorder.eventDidReachThreshold(
        "stk:\(minute)m:com.example", activity: "daily",
        now: start.addingTimeInterval(Double(3_600 + minute * 60)))
      #expect(response.notification != nil)
    }
    let now = start.addingTimeInterval(7_200)
    #expect(try pipeline.wake(.notification, now: now).applied == 4)
    let dashboard = try pipeline.dashboard(for: day, now: now)
    #expect(dashboard.usage.total == .seconds(900))
    #expect(dashboard.health.status == .stale(age: .seconds(2_700)))
  }

  @Test("a layout's outbox capacity holds on both sides: evictions past it are reported lost")
  func oneLayoutOneCapacity() throws {
    let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 3))
    let recorder = MonitorRecorder(folder: folder, timeZone: { .gmt })
    var pipeline = try UsagePipeline(
      folder: folder, configuration: PipelineConfiguration(userId: "u", timeZone: .gmt))
    let start = Date(timeIntervalSince1970: 1_776_211_200)
    for minute in 0..<5 {
      _ = recorder.intervalWillEndWarning(
        for: "daily", now: start.addingTimeInterval(Double(minute * 60)))
    }
    let drain = try pipeline.wake(.foreground, now: start.addingTimeInterval(600))
    #expect(drain.applied == 3)
    #expect(drain.lost?.values == 1...2)
  }
}
