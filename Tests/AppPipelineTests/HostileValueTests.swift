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

/// Values no sane caller passes to the pipeline: each gives a defined result or a typed error,
/// never a trap, a hang or unbounded memory.
@Suite("Hostile values give a defined result or a typed error")
struct HostileValueTests {
  @Test("a dashboard at an instant that is not a number is a typed error; others are clamped")
  func dashboardsAtUnusableInstants() throws {
    var fixture = try InMemoryPipeline()
    do throws(PipelineError) {
      _ = try fixture.pipeline.dashboard(for: fixture.day, now: Date(timeIntervalSince1970: .nan))
      Issue.record("a dashboard at a NaN instant was made")
    } catch {
      #expect(error.description.contains("now is nan s since 1970"))
    }
    for now in [
      Date.distantPast, .distantFuture, Date(timeIntervalSince1970: .infinity),
      Date(timeIntervalSince1970: -.infinity),
    ] {
      // Waking at any instant drains or decides, and prunes nothing it should keep.
      try fixture.pipeline.wake(.foreground, now: now)
      let dashboard = try fixture.pipeline.dashboard(
        for: fixture.day, now: now)
      #expect(dashboard.evaluatedAt.timeIntervalSince1970.isFinite)
      #expect(
        try JSONDecoder().decode(Dashboard.self, from: JSONEncoder().encode(dashboard)) == dashboard
      )
      _ = try fixture.pipeline.diagnosticsReport(
        for: fixture.day, now: now
      ).svg
    }
    try fixture.pipeline.wake(.poll, now: Date(timeIntervalSince1970: .nan))
    #expect(try fixture.pipeline.facts().count == 11)
  }

  @Test("a clock that goes back: a dashboard shows the day as of its now, a drain prunes less")
  func clockGoesBack() throws {
    var fixture = try InMemoryPipeline()
    let start = fixture.boundary.start(of: fixture.day)
    var totals: [Duration] = []
    for hours in [12.0, 8.25, 6.0, -30.0] {
      let now = start.addingTimeInterval(hours * 3_600)
      try fixture.pipeline.wake(.poll, now: now)
      let dashboard = try fixture.pipeline.dashboard(
        for: fixture.day, now: now)
      totals.append(dashboard.usage.total)
      #expect(dashboard.gaps.gaps.allSatisfy { $0.end <= max(now, start) })
    }
    // Use from 08:00, in 5-minute steps: 40 minutes by noon, 15 by 08:15, none before.
    #expect(totals == [.seconds(2_400), .seconds(900), .zero, .zero])
    #expect(try fixture.pipeline.facts().count == 11)
    // The reward earned at noon stays earned: the ledger records what happened.
    #expect(try fixture.pipeline.ledger().balance.xp == 120)
  }

  @Test("an unknown time zone in a stored configuration is a DecodingError")
  func unknownTimeZone() throws {
    let valid = try json(try InMemoryPipeline().configuration)
    for identifier in ["Mars/Olympus", "", "../../etc/passwd"] {
      let planted = valid.replacingOccurrences(of: "Europe/Berlin", with: identifier)
      #expect(throws: DecodingError.self) { try decode(PipelineConfiguration.self, planted) }
    }
  }
}
