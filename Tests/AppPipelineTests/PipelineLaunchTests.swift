import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// What opening the pipeline at the app's launch does to the shared folder.
@Suite("Opening the pipeline")
struct PipelineLaunchTests {
  @Test("opening the pipeline on a folder reclaims the temporary files of writers killed mid-write")
  func openingReclaimsKilledWritersLeftovers() throws {
    let directory = try TemporaryDirectory(prefix: "stk-pipeline")
    let recorder = MonitorRecorder(
      folder: try SharedFolder(directory: directory.url), timeZone: { .gmt })
    let now = try instant("2026-04-15T14:00:00Z")
    #expect(recorder.intervalDidStart(for: "daily", now: now).succeeded)
    // What an extension killed between creating its temporary file and renaming it leaves
    // behind: readers ignore it, and nothing else would ever remove it.
    let leftovers = ["stk.monitor.facts", "stk.heartbeats.monitor"].map {
      directory.url.appendingPathComponent(".tmp.\($0).0123abcd")
    }
    for leftover in leftovers { try Data("half a value".utf8).write(to: leftover) }

    var pipeline = try UsagePipeline(
      folder: try SharedFolder(directory: directory.url),
      configuration: PipelineConfiguration(userId: "user-123", timeZone: try zone("UTC")))
    #expect(try directory.contents().filter { $0.hasPrefix(".tmp.") } == [])
    // Nothing else was touched: the fact is still there to drain.
    #expect(try pipeline.wake(.foreground, now: now).applied == 1)
    #expect(try pipeline.facts().map(\.callback) == [.intervalDidStart])
  }
}
