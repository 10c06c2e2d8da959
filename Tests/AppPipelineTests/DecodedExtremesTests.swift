import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// Every number the pipeline decodes and later computes with, at the ends of its type.
///
/// Decoding rejects it with a `DecodingError` naming the field, or a drain and a dashboard give
/// a defined result or a typed error. A trap would stop the test process.
@Suite("Decoded numbers are checked before they take part in arithmetic")
struct DecodedExtremesTests {
  @Test("a configuration with the longest retention, tolerance and thresholds drains and reports")
  func extremeConfiguration() throws {
    let valid = try json(try InMemoryPipeline().configuration)
    let planted =
      valid
      .replacingOccurrences(
        of: #""retentionDays":40"#, with: #""retentionDays":9223372036854775807"#
      )
      .replacingOccurrences(
        of: #""thresholdToleranceMs":0"#, with: #""thresholdToleranceMs":9223372036854775807"#
      )
      .replacingOccurrences(of: #""gapAfterMs":300000"#, with: #""gapAfterMs":9223372036854775807"#)
      .replacingOccurrences(
        of: #""alertAfterMs":900000"#, with: #""alertAfterMs":9223372036854775807"#)
    #expect(planted != valid)
    let configuration = try decode(PipelineConfiguration.self, planted)
    #expect(configuration.retentionDays == .max)
    var fixture = try InMemoryPipeline { $0 = configuration }
    // The retention in milliseconds overflowed Int64 on every drain.
    try fixture.pipeline.wake(.foreground, now: fixture.now.addingTimeInterval(86_400 * 400))
    let dashboard = try fixture.pipeline.dashboard(
      for: fixture.day, now: fixture.now)
    // Within a tolerance that long the 7-day threshold is plausible and counts.
    #expect(dashboard.facts.thresholds.implausible == 0)
    #expect(try fixture.pipeline.facts().count == 11)
    #expect(dashboard.alerts.trackerDown.isEmpty)
  }

  @Test("a stored state's losses and skipped entries are checked when decoded")
  func storedState() throws {
    let fixture = try InMemoryPipeline()
    let valid = String(
      decoding: try #require(
        try fixture.store.readLog(SharedFolderLayout.standard.appStateKey, newest: 1)?.records
          .last?.bytes),
      as: UTF8.self)
    let number = #"{"epoch":"000000000000000a","value":1}"#
    let tooMany =
      "["
      + Array(repeating: number, count: PipelineState.maximumListLength + 1).joined(separator: ",")
      + "]"
    let undecodable = valid.replacingOccurrences(
      of: #""state":{"#, with: #""state":{"undecodable":\#(tooMany),"#)
    #expect(undecodable != valid)
    // The consumer keeps its record as versions: the newest one is what it reads.
    try fixture.store.append(
      [Data(undecodable.utf8)], toLog: SharedFolderLayout.standard.appStateKey, capacity: 16)
    #expect(throws: PipelineError.self) { try fixture.pipeline.state() }
  }

  @Test("counts in a decoded dashboard are never negative")
  func negativeCounts() throws {
    let fixture = try InMemoryPipeline()
    let dashboard = try fixture.pipeline.dashboard(
      for: fixture.day, now: fixture.now)
    let valid = try json(dashboard.facts)
    for field in [
      "dayFacts", "counted", "duplicates", "superseded", "implausible",
    ] {
      let planted = valid.replacingOccurrences(
        of: #""\#(field)":([0-9]+)"#, with: #""\#(field)":-1"#, options: .regularExpression)
      #expect(planted != valid)
      #expect(throws: DecodingError.self, "\(field)") { try decode(FactReport.self, planted) }
    }
  }

  @Test("a reward rate of Int.max XP a minute earns Int.max once, then a typed error or nothing")
  func extremeRewards() throws {
    var fixture = try InMemoryPipeline {
      $0.rewards = try decode(UsageRewards.self, #"{"xpPerMinute":{"other":9223372036854775807}}"#)
    }
    let dashboard = try fixture.pipeline.dashboard(
      for: fixture.day, now: fixture.now)
    #expect(dashboard.rewards.xp == .max)
    _ = try? fixture.pipeline.wake(.poll, now: fixture.now)
    #expect(try fixture.pipeline.ledger().balance.xp == .max)
  }
}
