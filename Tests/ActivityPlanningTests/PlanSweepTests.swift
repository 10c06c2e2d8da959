import ActivityPlanning
import Foundation
import Testing
import UsageModel

/// Every zone × every day of 2020–2030 × day starts 00:00, 04:00 and 23:30: the plans are
/// valid, each app's resolution is as stated, and re-arming at every 15th minute of a day and
/// at each daylight-saving transition gives a valid plan.
///
/// `swift test` runs a seeded sample (well under a minute). `STK_FULL_SWEEP=1`
/// (`Scripts/stress.sh`) runs the whole sweep: every zone × day × day start for the daily
/// activities' real occurrences, and re-arms at every 15th minute of every transition day of
/// every distinct zone rule and of one seeded day per zone.
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

  static let isFull = ProcessInfo.processInfo.environment["STK_FULL_SWEEP"] == "1"

  static let dayStarts: [TimeOfDay] = [
    .midnight, (try? TimeOfDay(hour: 4)) ?? .midnight,
    (try? TimeOfDay(hour: 23, minute: 30)) ?? .midnight,
  ]

  static var zones: [TimeZone] {
    TimeZone.knownTimeZoneIdentifiers.compactMap(TimeZone.init(identifier:))
  }

  static func days() throws -> [LocalDay] {
    let first = try LocalDay(year: 2020, month: 1, day: 1)
    let last = try LocalDay(year: 2030, month: 12, day: 31)
    return (0...(last.dayNumber - first.dayNumber)).map { first.advanced(by: $0) }
  }

  /// The instants of `zone`'s clock changes from 2020 to 2030.
  static func transitions(of zone: TimeZone) -> [Date] {
    var result: [Date] = []
    var date = Date(timeIntervalSince1970: 1_577_836_800 - 2 * 86_400)  // 2019-12-30
    let end = Date(timeIntervalSince1970: 1_924_992_000 + 2 * 86_400)  // 2031-01-03
    while let next = zone.nextDaylightSavingTimeTransition(after: date), next < end {
      result.append(next)
      date = next
    }
    return result
  }

  /// Re-arms through the day `day` of `zone` from `dayStart`, at every 15th minute and at
  /// each transition and the minute before it; returns the re-arms made and the problems.
  static func rearmDay(zone: TimeZone, day: LocalDay, dayStart: TimeOfDay) throws -> (
    Int, [String]
  ) {
    let boundary = DayBoundary(timeZone: zone, dayStart: dayStart)
    let start = boundary.start(of: day)
    let end = boundary.start(of: day.advanced(by: 1))
    var instants: [Date] = []
    var instant = start
    while instant < end {
      instants.append(instant)
      instant = instant.addingTimeInterval(15 * 60)
    }
    // The minute between two occurrences of the usage activities.
    instants += [end.addingTimeInterval(-60), end.addingTimeInterval(-30)]
    var probe = start.addingTimeInterval(-1)
    while let transition = zone.nextDaylightSavingTimeTransition(after: probe), transition < end {
      instants += [transition.addingTimeInterval(-60), transition]
      probe = transition
    }
    instants = Array(Set(instants)).sorted()
    let session = start.addingTimeInterval(3600)
    let variants = try [300, 600].map {
      try Fixtures.goals(zone: zone, dayStart: dayStart, sessionStart: session, step: $0)
    }
    var plan = try MonitoringPlanner.arm(
      variants[0], now: start.addingTimeInterval(-60), previous: nil
    ).plan
    var failures: [String] = []
    let instagram = try Fixtures.instagram
    for (index, now) in instants.enumerated() {
      let rearm = try MonitoringPlanner.arm(
        variants[index % 2], now: now, previous: plan, restartingAll: index % 8 == 7)
      let problems = Fixtures.problems(in: rearm.plan)
      if !problems.isEmpty {
        failures.append("\(zone.identifier) \(day) \(dayStart) at \(now): \(problems)")
      }
      if rearm.plan.resolutions[instagram] != .seconds(index % 2 == 0 ? 300 : 600) {
        failures.append("\(zone.identifier) \(day) \(dayStart) at \(now): Instagram's resolution")
      }
      for activity in rearm.start {
        guard let event = activity.events.first else { continue }
        if case .stale = try rearm.plan.decode(event: event.rawValue, activity: activity.name) {
          failures.append("\(event) of \(activity.name) decodes as stale")
        }
      }
      plan = rearm.plan
    }
    return (instants.count, failures)
  }

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
    let days = try days()
    let zones = zones
    var generator = Seeded(state: 20)
    var cases: [(TimeZone, LocalDay)] = []
    if isFull {
      // One seeded day per zone, and every transition day of each distinct rule.
      var rules: Set<[Double]> = []
      for zone in zones {
        if let day = days.randomElement(using: &generator) { cases.append((zone, day)) }
        let transitions = transitions(of: zone)
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
      let transitions = transitions(of: zone)
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

  @Test("re-arming at every 15th minute and at each transition gives a valid plan")
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
            for dayStart in Self.dayStarts where failures.count < 20 {
              let (count, problems) = try Self.rearmDay(zone: zone, day: day, dayStart: dayStart)
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

  @Test("every daily activity's real occurrence fits the limits, every zone, day and day start")
  func occurrenceSweep() async throws {
    let clock = ContinuousClock()
    let began = clock.now
    let days = try Self.days()
    var generator = Seeded(state: 21)
    let zones =
      Self.isFull
      ? Self.zones
      : (0..<12).compactMap { _ in
        Self.zones.randomElement(using: &generator)
      }
    let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    let failures = try await withThrowingTaskGroup(of: [String].self) { group in
      for worker in 0..<workers {
        let slice = stride(from: worker, to: zones.count, by: workers).map { zones[$0] }
        group.addTask {
          var failures: [String] = []
          for zone in slice {
            for dayStart in Self.dayStarts {
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
