import AppPipeline
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The kill test's comparison without the kills: for any part of the script the extension
/// recorded, the pipeline places each second of use where ``ReferenceUsage`` places it.
///
/// Which callbacks a kill loses depends on timing, so the kill test meets a given loss only now
/// and then; here, chosen losses are recorded in process, on one in-memory folder, and compared
/// second by second, not only in totals.
@Suite("Whatever part of the script was recorded, the pipeline lays use out as the reference")
struct RecordedSubsetTests {
  /// Callbacks of the script (indices of its entries) that were not recorded.
  struct Loss: Sendable, CustomTestStringConvertible {
    let name: String
    let lost: @Sendable (PipelineScript) -> Set<Int>

    var testDescription: String { name }

    /// About `percent` % of the callbacks, drawn with `seed`.
    static func random(_ percent: UInt64, seed: UInt64) -> Loss {
      Loss(name: "\(percent) % of the callbacks, seed \(seed)") { script in
        var random = SplitMix64(seed: seed)
        return Set(
          script.entries.indices.filter {
            script.entries[$0].isCallback && random.next() % 100 < percent
          })
      }
    }
  }

  static let losses: [Loss] =
    [
      Loss(name: "nothing") { _ in [] },
      // YouTube's 95- and 100-minute reports of 2026-03-08: alone, the layout of each app puts
      // Duolingo's use in YouTube's seconds; one foreground app at a time, it goes earlier.
      Loss(name: "the reports that keep two apps apart") { _ in [1_515, 1_524] },
    ] + (1...6).map { Loss.random(6, seed: $0) }

  @Test(
    "the pipeline places every second of use where the reference does, whatever was lost",
    arguments: losses)
  func placesEverySecondAsTheReference(_ loss: Loss) throws {
    let script = try PipelineScript(seed: PipelineKillTests.seed)
    let lost = loss.lost(script)
    let recorded = script.entries.indices.filter { script.entries[$0].isCallback }
      .filter { !lost.contains($0) }
    let deviceZone = try zone(PipelineScript.timeZoneIdentifier)
    let folder = try SharedFolder(
      store: InMemoryStore(), layout: .standard(outboxCapacity: script.callbackCount + 16))
    let recorder = MonitorRecorder(folder: folder, timeZone: { deviceZone })
    for index in recorded {
      guard case .callback(let callback, let activity, let event) = script.entries[index].kind
      else { continue }
      let response = recorder.record(
        callback, activity: activity, event: event, now: script.entries[index].at)
      #expect(response.succeeded)
    }
    var pipeline = try UsagePipeline(
      folder: folder, configuration: try KillScenarios.configuration())
    let end = Date(timeIntervalSince1970: TimeInterval(script.end))
    try pipeline.wake(.foreground, now: end)

    let reference = try ReferenceUsage(recorded.map { script.entries[$0] }, of: script)
    var placed: [String: Set<Int64>] = [:]
    for record in try pipeline.usageRecords() {
      let start = Int64(record.start.timeIntervalSince1970)
      let end = Int64(record.end.timeIntervalSince1970)
      placed[record.app.rawValue, default: []].formUnion(start..<end)
    }
    for app in Set(placed.keys).union(reference.seconds.keys).sorted() {
      let mine = placed[app] ?? []
      let theirs = reference.seconds[app] ?? []
      #expect(
        mine.symmetricDifference(theirs).isEmpty,
        """
        \(app): \(mine.subtracting(theirs).count) s placed that the reference does not place, \
        \(theirs.subtracting(mine).count) s not placed that it does
        """)
    }
    var totals: [LocalDay: [String: Int64]] = [:]
    var device: [LocalDay: Int64] = [:]
    for day in script.days {
      let usage = try pipeline.dashboard(for: day, now: end).usage
      device[day] = usage.total.components.seconds
      for app in usage.apps {
        totals[day, default: [:]][app.app.rawValue] = app.total.components.seconds
      }
    }
    #expect(reference.mismatches(totals, device: device) == [])
  }
}
