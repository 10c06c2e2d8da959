import ActivityPlanning
import Foundation
import UsageModel

/// The planner's re-arm sweep, without a test framework, so that the same code runs under
/// `swift test` (`PlanSweepTests`) and, compiled in release beside the library, as a long run.
///
/// A zone-day's re-arms: a first plan a minute before the day start, then a re-arm at every
/// 15th minute from the day start, at the minute and the half minute before the next day start,
/// and at each clock change and the minute before it; the goals alternate between two ladder
/// steps and every eighth re-arm restarts everything, so that activities keep changing
/// generation. Each plan is checked by ``Fixtures/problems(in:)``, Instagram's resolution
/// against its step, and each started activity's first event against the plan's decoder.
enum RearmSweep {
  static let dayStarts: [TimeOfDay] = [
    .midnight, (try? TimeOfDay(hour: 4)) ?? .midnight,
    (try? TimeOfDay(hour: 23, minute: 30)) ?? .midnight,
  ]

  static var zones: [TimeZone] {
    TimeZone.knownTimeZoneIdentifiers.sorted().compactMap(TimeZone.init(identifier:))
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
  ///
  /// `transitions` are `zone`'s clock changes, ascending, or `nil` to look them up.
  static func rearmDay(
    zone: TimeZone, day: LocalDay, dayStart: TimeOfDay, transitions: [Date]? = nil
  ) throws -> (Int, [String]) {
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
    if let transitions {
      for transition in transitions where transition >= start && transition < end {
        instants += [transition.addingTimeInterval(-60), transition]
      }
    } else {
      var probe = start.addingTimeInterval(-1)
      while let transition = zone.nextDaylightSavingTimeTransition(after: probe),
        transition < end
      {
        instants += [transition.addingTimeInterval(-60), transition]
        probe = transition
      }
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

  /// Re-arms through every day of 2020–2030 of `zone` from each day start; returns the re-arms
  /// made, how many of them were at a clock change, and the first problems.
  static func rearmZone(_ zone: TimeZone, days: [LocalDay]) throws -> (Int, Int, [String]) {
    let transitions = transitions(of: zone)
    var rearms = 0
    var failures: [String] = []
    for dayStart in dayStarts {
      for day in days where failures.count < 20 {
        let (count, problems) = try rearmDay(
          zone: zone, day: day, dayStart: dayStart, transitions: transitions)
        rearms += count
        failures += problems
      }
    }
    return (rearms, transitions.count * dayStarts.count, failures)
  }

  /// The part of the zones to run from `STK_SWEEP_SHARD`'s text `k/n` (1-based), or all.
  ///
  /// - Parameter text: `k/n`, or `nil` for all the zones.
  /// - Returns: The shard's index and count.
  /// - Throws: ``SweepError`` for text that is not `k/n` with 1 ≤ k ≤ n.
  static func shard(_ text: String?) throws -> (index: Int, count: Int) {
    guard let text else { return (1, 1) }
    let parts = text.split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
      throw SweepError(description: "STK_SWEEP_SHARD=\(text): expected k/n with 1 ≤ k ≤ n")
    }
    return (parts[0], parts[1])
  }

  /// A bad setting of the sweep.
  struct SweepError: Error, CustomStringConvertible {
    let description: String
  }

  /// What a whole sweep did.
  struct Result: Sendable {
    var shard = (index: 1, count: 1)
    var zones = 0
    var zonesDone = 0
    var days = 0
    var rearms = 0
    var transitions = 0
    var failures: [String] = []
    var elapsed = Duration.zero

    /// One line: what was checked and how long it took.
    var summary: String {
      "planner whole re-arm sweep (shard \(shard.index)/\(shard.count)): \(zonesDone) of "
        + "\(zones) zones x \(days) days x \(RearmSweep.dayStarts.count) day starts, "
        + "\(rearms) re-arms, each plan checked (every 15th minute, the minute before each day "
        + "start, and each clock change with the minute before it: \(transitions) changes x "
        + "day starts), "
        + "\(failures.count) failures, in \(elapsed)"
    }
  }

  /// Re-arms through every zone-day of the shard, `workers` zones at a time, calling `progress`
  /// with a line after each zone; stops handing out zones after 20 failures.
  ///
  /// - Parameters:
  ///   - index: The shard, 1-based: the zones `index`, `index + count`, … in identifier order.
  ///   - count: How many shards the zones are split into.
  ///   - workers: How many zones run at once; the processor count unless given.
  ///   - days: The days of each zone; every day of 2020–2030 unless given (a test's smoke run).
  ///   - progress: Called with one line after each zone.
  /// - Returns: The counts and the first failures.
  /// - Throws: What the planner or the fixtures throw.
  static func whole(
    shard index: Int, of count: Int, workers: Int? = nil, days: [LocalDay]? = nil,
    progress: @escaping @Sendable (String) -> Void
  ) async throws -> Result {
    let clock = ContinuousClock()
    let began = clock.now
    let days = try days ?? Self.days()
    let all = zones
    let zones = stride(from: index - 1, to: all.count, by: count).map { all[$0] }
    let parallel = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
    var result = Result(shard: (index, count), zones: zones.count, days: days.count)
    try await withThrowingTaskGroup(of: (String, Int, Int, [String]).self) { group in
      var next = 0
      func addZone() {
        guard next < zones.count else { return }
        let zone = zones[next]
        next += 1
        group.addTask {
          let (rearms, transitions, problems) = try rearmZone(zone, days: days)
          return (zone.identifier, rearms, transitions, problems)
        }
      }
      for _ in 0..<parallel { addZone() }
      while let (identifier, rearms, transitions, problems) = try await group.next() {
        result.zonesDone += 1
        result.rearms += rearms
        result.transitions += transitions
        result.failures += problems.prefix(20)
        progress(
          "SWEEP zone \(result.zonesDone)/\(zones.count) \(identifier): \(rearms) re-arms, "
            + "\(result.rearms) in all after \(clock.now - began)")
        if result.failures.count < 20 { addZone() }
      }
    }
    result.elapsed = clock.now - began
    return result
  }
}
