import ActivityPlanning
import AppPipeline
import Foundation
import Testing
import TrackerSignals
import UsageModel

/// Issue 20 through the pipeline: a plan re-armed three times in a day and once just before
/// midnight, with the platform replaying every threshold under each new generation and
/// delivering late replays of every older one, counts each minute of use once.
@Suite("A planned day re-armed through the pipeline")
struct PlannedRearmPipelineTests {
  static let day = "2026-04-15"
  static let nextDay = "2026-04-16"
  static let app = "com.burbn.instagram"

  /// The plans of the day: armed the evening before, re-armed at 09:00, 13:00, 18:00 and
  /// 23:59:30, each restarting the usage activity under the next generation.
  static func plans(_ harness: PipelineHarness) throws -> [(String, PlannedMonitoring)] {
    var goals = MonitoringGoals(
      timeZone: harness.zone, includesPastActivity: true, counting: .fromOccurrenceStart)
    goals.ladders = [
      try UsageLadder(target: .app(AppID(app)), step: .seconds(300), top: .seconds(4 * 3600))
    ]
    var plans: [(String, PlannedMonitoring)] = []
    var previous: PlannedMonitoring?
    for time in [
      "2026-04-14 23:00", "\(day) 09:00", "\(day) 13:00", "\(day) 18:00",
      "\(day) 23:59:30",
    ] {
      let rearm = try MonitoringPlanner.arm(
        goals, now: try harness.at(time), previous: previous, restartingAll: previous != nil)
      #expect(rearm.start.map(\.name) == ["stk.usage.1"])
      plans.append((time, rearm.plan))
      previous = rearm.plan
    }
    return plans
  }

  /// The events: `(generation, minutes reached, local time)`.
  ///
  /// Appended part by part: as one `+` chain, Swift 6.0 gives up type-checking it.
  static let events: [(UInt32, Int, String)] = {
    var events: [(UInt32, Int, String)] = []
    // Use 08:00–08:30 under g1.
    events += [5, 10, 15, 20, 25, 30].map { (1, $0, "\(day) 08:\(String(format: "%02d", $0))") }
    // Re-armed at 09:00: g2 replays 5…30; use 10:00–10:20 reaches 50.
    events += [5, 10, 15, 20, 25, 30].map { (2, $0, "\(day) 09:00:05") }
    events += [35, 40, 45, 50].map { (2, $0, "\(day) 10:\(String(format: "%02d", $0 - 30))") }
    // Re-armed at 13:00: g3 replays 5…50; late replays of g1 and g2 at 14:00; use 15:00–15:10.
    events += stride(from: 5, through: 50, by: 5).map { (3, $0, "\(day) 13:00:05") }
    events += [(1, 30, "\(day) 14:00"), (2, 50, "\(day) 14:00:01")]
    events += [(3, 55, "\(day) 15:05"), (3, 60, "\(day) 15:10")]
    // Re-armed at 18:00: g4 replays 5…60; late replays of g1…g3 at 18:30; use 23:40–23:50.
    events += stride(from: 5, through: 60, by: 5).map { (4, $0, "\(day) 18:00:05") }
    events += [(1, 30, "\(day) 18:30"), (2, 50, "\(day) 18:30:01"), (3, 60, "\(day) 18:30:02")]
    events += [(4, 65, "\(day) 23:45"), (4, 70, "\(day) 23:50")]
    // Re-armed at 23:59:30: g5 replays 5…70 in the minute between two occurrences.
    events += stride(from: 5, through: 70, by: 5).map { (5, $0, "\(day) 23:59:35") }
    // The next day: every older generation replays again, then 10 minutes of new use.
    events += (1...4).map { (UInt32($0), 70, "\(nextDay) 00:00:10") }
    events += [(5, 5, "\(nextDay) 00:15"), (5, 10, "\(nextDay) 00:20")]
    return events
  }()

  /// Records the day's starts and events through the recorder, with the final plan's
  /// registrations in the configuration unless `withoutRegistrations`; returns the seconds of
  /// use on the day and the next, and how many events the plan decodes as stale.
  static func read(withoutRegistrations: Bool = false) throws -> (Int64, Int64, Int) {
    let probe = try PipelineHarness()
    let plans = try Self.plans(probe)
    let final = try #require(plans.last?.1)
    var harness = try PipelineHarness { configuration in
      configuration.monitoring = final.monitoring
      configuration.registrations = withoutRegistrations ? [] : final.registrations
      configuration.includesPastActivity = final.includesPastActivity
    }
    for start in ["\(Self.day) 00:00"] + plans.dropFirst().map(\.0) + ["\(Self.nextDay) 00:00"] {
      _ = harness.recorder.intervalDidStart(for: "stk.usage.1", now: try harness.at(start))
    }
    var stale = 0
    for (generation, minutes, time) in Self.events {
      let name = try ThresholdEventName(
        app: AppID(Self.app), threshold: .seconds(Int64(minutes) * 60), generation: generation)
      if case .stale = try final.decode(event: name.rawValue, activity: "stk.usage.1") {
        stale += 1
      }
      _ = harness.recorder.eventDidReachThreshold(
        name.rawValue, activity: "stk.usage.1", now: try harness.at(time))
    }
    let app = try AppID(Self.app)
    let today = try harness.dashboard(Self.day, at: "23:59:50")
    let tomorrow = try harness.dashboard(Self.nextDay, at: "00:30")
    return (
      today.usage.total(of: app).components.seconds,
      tomorrow.usage.total(of: app).components.seconds, stale
    )
  }

  @Test("three re-arms, replays of every older generation and a midnight re-arm count once")
  func plannedDay() throws {
    let (today, tomorrow, stale) = try Self.read()
    #expect(today == 70 * 60)
    #expect(tomorrow == 10 * 60)
    #expect(stale == Self.events.filter { $0.0 < 5 }.count)
  }

  @Test("control: without the plan's registrations the same day counts replays again")
  func plannedDayWithoutRegistrations() throws {
    let (today, _, _) = try Self.read(withoutRegistrations: true)
    #expect(today > 70 * 60)
  }
}
