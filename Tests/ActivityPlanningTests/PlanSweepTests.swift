import ActivityPlanning
import Foundation
import Testing
import UsageModel

/// Every zone × every day of 2020–2030 × day starts 00:00, 04:00 and 23:30: the plans are
/// valid, each app's resolution is as stated, and re-arming at every 15th minute of a day and
/// at each daylight-saving transition gives a valid plan.
///
/// `swift test` runs a seeded sample (about 10 s in debug). `STK_FULL_SWEEP=1`
/// (`Scripts/stress.sh`) runs every zone × day × day start for the daily activities' real
/// occurrences, and re-arms at every 15th minute of every transition day of every distinct zone
/// rule and of one seeded day per zone. `STK_FULL_SWEEP=rearm` (`Scripts/stress.sh
/// --plan-sweep`) runs the re-arms whole: every 15th minute of every zone × day × day start,
/// and every clock change, about 523 million re-arms; `STK_SWEEP_SHARD=k/n` runs the zones
/// k, k + n, k + 2n, … of them (1-based), so that the whole can be split over runs.
@Suite struct PlanSweepTests {
  /// A small deterministic generator (SplitMix64).
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// How much of the sweep to run: `STK_FULL_SWEEP` unset, `1` or `rearm`.
  enum Mode { case sample, full, rearm }

  static let mode: Mode =
    switch ProcessInfo.processInfo.environment["STK_FULL_SWEEP"] {
    case "1": .full
    case "rearm": .rearm
    default: .sample
    }

  /// Whether every zone × day × day start is checked for the activities' occurrences.
  static var isFull: Bool { mode != .sample }

  /// Each daily activity's real occurrence starting on `day` lasts 15 minutes to a week.
  static func occurrenceProblems(
    of windows: [(String, DailyWindow)], zone: TimeZone, day: LocalDay
  ) -> [String] {
    windows.compactMap { name, window in
      let length = window.length(ofOccurrenceStartingOn: day, in: zone)
      guard length < MonitoringLimits.minimumInterval || length > MonitoringLimits.maximumInterval
      else { return nil }
      return "\(name) lasts \(length) on \(day) in \(zone.identifier)"
    }
  }

  /// The (zone, day) pairs whose days to re-arm through, minute by minute.
  static func rearmCases() throws -> [(TimeZone, LocalDay)] {
    let days = try RearmSweep.days()
    let zones = RearmSweep.zones
    var generator = Seeded(state: 20)
    var cases: [(TimeZone, LocalDay)] = []
    if isFull {
      // One seeded day per zone, and every transition day of each distinct rule.
      var rules: Set<[Double]> = []
      for zone in zones {
        if let day = days.randomElement(using: &generator) { cases.append((zone, day)) }
        let transitions = RearmSweep.transitions(of: zone)
        let rule = transitions.flatMap {
          [$0.timeIntervalSince1970, Double(zone.secondsFromGMT(for: $0))]
        }
        guard !transitions.isEmpty, rules.insert(rule).inserted else { continue }
        let boundary = DayBoundary(timeZone: zone)
        for transition in transitions {
          if let day = try? boundary.day(containing: transition) { cases.append((zone, day)) }
        }
      }
      return cases
    }
    cases = (0..<24).compactMap { _ in
      guard let zone = zones.randomElement(using: &generator),
        let day = days.randomElement(using: &generator)
      else { return nil }
      return (zone, day)
    }
    for identifier in [
      "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Europe/London",
      "Asia/Gaza", "America/Havana",
    ] {
      guard let zone = TimeZone(identifier: identifier) else { continue }
      let transitions = RearmSweep.transitions(of: zone)
      let boundary = DayBoundary(timeZone: zone)
      for _ in 0..<2 {
        guard let transition = transitions.randomElement(using: &generator),
          let day = try? boundary.day(containing: transition)
        else { continue }
        cases.append((zone, day))
      }
    }
    return cases
  }

  @Test(
    "re-arming at every 15th minute and at each transition gives a valid plan",
    .enabled(if: mode != .rearm, "STK_FULL_SWEEP=rearm runs every zone-day instead"))
  func rearmSweep() async throws {
    let clock = ContinuousClock()
    let began = clock.now
    let cases = try Self.rearmCases()
    let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    let (rearms, failures) = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
      for worker in 0..<workers {
        let slice = stride(from: worker, to: cases.count, by: workers).map { cases[$0] }
        group.addTask {
          var rearms = 0
          var failures: [String] = []
          for (zone, day) in slice {
            for dayStart in RearmSweep.dayStarts where failures.count < 20 {
              let (count, problems) = try RearmSweep.rearmDay(
                zone: zone, day: day, dayStart: dayStart)
              rearms += count
              failures += problems
            }
          }
          return (rearms, failures)
        }
      }
      var total = (0, [String]())
      for try await (count, problems) in group {
        total.0 += count
        total.1 += problems
      }
      return total
    }
    #expect(failures == [])
    print(
      "STRESS planner re-arms: \(cases.count) zone-days x 3 day starts, \(rearms) re-arms in "
        + "\(clock.now - began)")
  }

  @Test(
    "re-arming at every 15th minute of every zone-day and at each transition gives a valid plan",
    .enabled(if: mode == .rearm, "set STK_FULL_SWEEP=rearm (Scripts/stress.sh --plan-sweep)"))
  func wholeRearmSweep() async throws {
    let (index, count) = try RearmSweep.shard(
      ProcessInfo.processInfo.environment["STK_SWEEP_SHARD"])
    let result = try await RearmSweep.whole(shard: index, of: count) { print($0) }
    #expect(result.failures == [])
    #expect(result.zonesDone == result.zones)
    print("STRESS " + result.summary)
  }

  @Test("the whole sweep's driver re-arms every instant of its shard's zone-days")
  func wholeSweepDriver() async throws {
    // One zone per shard, New York's: the days its clocks went forward and back in 2026.
    let zones = RearmSweep.zones
    let index = try #require(zones.firstIndex { $0.identifier == "America/New_York" })
    let days = [
      try LocalDay(year: 2026, month: 3, day: 8), try LocalDay(year: 2026, month: 11, day: 1),
    ]
    let result = try await RearmSweep.whole(shard: index + 1, of: zones.count, days: days) { _ in }
    #expect(result.failures == [])
    #expect(result.zones == 1 && result.zonesDone == 1)
    // 98 instants a day (96 quarter hours, the minute and half minute before the next day
    // start), fewer or more on a clock change's day, for 3 day starts.
    #expect(abs(result.rearms - 2 * 3 * 98) <= 3 * 2 * 6)
  }

  @Test(
    "a shard is k/n with 1 ≤ k ≤ n; anything else is a clear error",
    arguments: ["0/4", "5/4", "1/0", "4", "1/2/3", "a/b", ""])
  func badShard(text: String) {
    #expect(throws: RearmSweep.SweepError.self) { try RearmSweep.shard(text) }
  }

  @Test("a shard's text gives its index and count; no text is the whole")
  func goodShard() throws {
    let shard = try RearmSweep.shard("3/32")
    #expect(shard.index == 3 && shard.count == 32)
    let whole = try RearmSweep.shard(nil)
    #expect(whole.index == 1 && whole.count == 1)
  }

  @Test("every daily activity's real occurrence fits the limits, every zone, day and day start")
  func occurrenceSweep() async throws {
    let clock = ContinuousClock()
    let began = clock.now
    let days = try RearmSweep.days()
    var generator = Seeded(state: 21)
    let zones =
      Self.isFull
      ? RearmSweep.zones
      : (0..<12).compactMap { _ in
        RearmSweep.zones.randomElement(using: &generator)
      }
    let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    let failures = try await withThrowingTaskGroup(of: [String].self) { group in
      for worker in 0..<workers {
        let slice = stride(from: worker, to: zones.count, by: workers).map { zones[$0] }
        group.addTask {
          var failures: [String] = []
          for zone in slice {
            for dayStart in RearmSweep.dayStarts {
              let goals = try Fixtures.goals(zone: zone, dayStart: dayStart)
              let plan = try MonitoringPlanner.arm(
                goals, now: Date(timeIntervalSince1970: 1_577_836_800), previous: nil
              ).plan
              failures += Fixtures.problems(in: plan)
              let windows = plan.activities.compactMap { activity -> (String, DailyWindow)? in
                guard case .daily(let window) = activity.activity.schedule else { return nil }
                return (activity.name, window)
              }
              for day in days where failures.count < 20 {
                failures += Self.occurrenceProblems(of: windows, zone: zone, day: day)
              }
            }
          }
          return failures
        }
      }
      var all: [String] = []
      for try await failures in group { all += failures }
      return all
    }
    #expect(failures == [])
    print(
      "STRESS planner occurrences: \(zones.count) zones x \(days.count) days x 3 day starts in "
        + "\(clock.now - began)")
  }
}
