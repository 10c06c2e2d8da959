import ActivityPlanning
import Foundation
import Testing
import UsageModel

/// Every zone × every day of 2020–2030 × day starts 00:00, 04:00 and 23:30: the plan is valid
/// and re-arming at every 15th minute of the day and at each daylight-saving transition gives
/// a valid plan.
///
/// `swift test` runs a seeded sample (under a minute); `STK_FULL_SWEEP=1` (Scripts/stress.sh)
/// runs every zone and day.
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

  /// The (zone, day) pairs to sweep: all of them in the full sweep; otherwise a seeded sample
  /// plus the days on which a few zones with unusual transitions change their clocks.
  static func cases() throws -> [(TimeZone, LocalDay)] {
    let first = try LocalDay(year: 2020, month: 1, day: 1)
    let last = try LocalDay(year: 2030, month: 12, day: 31)
    let days = (0...(last.dayNumber - first.dayNumber)).map { first.advanced(by: $0) }
    let zones = TimeZone.knownTimeZoneIdentifiers.compactMap(TimeZone.init(identifier:))
    if isFull { return zones.flatMap { zone in days.map { (zone, $0) } } }
    var generator = Seeded(state: 20)
    var cases: [(TimeZone, LocalDay)] = (0..<48).compactMap { _ in
      guard let zone = zones.randomElement(using: &generator),
        let day = days.randomElement(using: &generator)
      else { return nil }
      return (zone, day)
    }
    for identifier in [
      "America/New_York", "Australia/Lord_Howe", "America/Santiago",
      "Europe/London", "Asia/Gaza", "America/Havana",
    ] {
      guard let zone = TimeZone(identifier: identifier) else { continue }
      var date = Date(timeIntervalSince1970: 1_600_000_000 + Double(cases.count) * 86_400)
      for _ in 0..<2 {
        guard let transition = zone.nextDaylightSavingTimeTransition(after: date) else { break }
        let boundary = DayBoundary(timeZone: zone)
        if let day = try? boundary.day(containing: transition) { cases.append((zone, day)) }
        date = transition
      }
    }
    return cases
  }

  static let dayStarts: [TimeOfDay] = [
    .midnight, (try? TimeOfDay(hour: 4)) ?? .midnight,
    (try? TimeOfDay(hour: 23, minute: 30)) ?? .midnight,
  ]

  @Test("every plan and every re-arm of the sweep is valid")
  func sweep() throws {
    let clock = ContinuousClock()
    let began = clock.now
    var rearms = 0
    var failures: [String] = []
    let cases = try Self.cases()
    for (zone, day) in cases {
      for dayStart in Self.dayStarts {
        let boundary = DayBoundary(timeZone: zone, dayStart: dayStart)
        let start = boundary.start(of: day)
        let end = boundary.start(of: day.advanced(by: 1))
        var instants: [Date] = []
        var instant = start
        while instant < end {
          instants.append(instant)
          instant = instant.addingTimeInterval(15 * 60)
        }
        var probe = start.addingTimeInterval(-1)
        while let transition = zone.nextDaylightSavingTimeTransition(after: probe),
          transition < end
        {
          instants += [transition.addingTimeInterval(-60), transition]
          probe = transition
        }
        instants = Array(Set(instants)).sorted()
        let base = try Fixtures.goals(
          zone: zone, dayStart: dayStart, sessionStart: start.addingTimeInterval(3600))
        var plan = try MonitoringPlanner.arm(
          base, now: start.addingTimeInterval(-60), previous: nil
        )
        .plan
        for (index, now) in instants.enumerated() {
          let goals = try Fixtures.goals(
            zone: zone, dayStart: dayStart, sessionStart: start.addingTimeInterval(3600),
            step: index % 2 == 0 ? 300 : 600)
          let rearm = try MonitoringPlanner.arm(
            goals, now: now, previous: plan, restartingAll: index % 8 == 7)
          rearms += 1
          let problems = Fixtures.problems(in: rearm.plan)
          if !problems.isEmpty {
            failures.append("\(zone.identifier) \(day) \(dayStart) at \(now): \(problems)")
          }
          if rearm.plan.resolutions[try Fixtures.instagram] != .seconds(index % 2 == 0 ? 300 : 600)
          {
            failures.append("\(zone.identifier) \(day) \(dayStart): Instagram's resolution")
          }
          for activity in rearm.start {
            guard let event = activity.events.first else { continue }
            if case .stale = try rearm.plan.decode(event: event.rawValue, activity: activity.name) {
              failures.append("\(event) of \(activity.name) decodes as stale")
            }
          }
          plan = rearm.plan
        }
        // Each daily activity's real occurrence on this day is within the platform's limits.
        for activity in plan.activities {
          guard case .daily(let window) = activity.activity.schedule else { continue }
          let length = window.length(ofOccurrenceStartingOn: day, in: zone)
          if length < MonitoringLimits.minimumInterval {
            failures.append("\(activity.name) lasts \(length) on \(day) in \(zone.identifier)")
          }
        }
        if failures.count > 20 { break }
      }
    }
    #expect(failures == [])
    print(
      "SWEEP planner: \(cases.count) zone-days x 3 day starts, \(rearms) re-arms in "
        + "\(clock.now - began)")
  }
}
