import Foundation

/// One app in the foreground of the device, from `start` up to, not including, `end`.
package struct UsageSession: Hashable, Sendable {
  /// The app's bundle identifier, such as `com.a`.
  package let app: String
  /// The first second of use, in seconds since 1970.
  package let start: Int
  /// The first second after the use, in seconds since 1970.
  package let end: Int

  /// The session's length in seconds.
  package var duration: Int { end - start }
}

/// The ground truth of a simulation: a few days of real use on one device, with one app in the
/// foreground at a time, and the device's pickups and charger plug-ins.
///
/// Use comes in bursts: the device is picked up, one to four apps are used back to back, then
/// it rests for 5 to 90 minutes. Bursts begin between about 07:00 and 23:45 local (in the
/// zone of the interval), so the last one of a day may run past midnight. No app is used more
/// than two hours in a day before a new session begins, which keeps every app's day well under
/// the ladder's four hours.
///
/// ```swift
/// let plan = UsagePlan.generate(seed: 7, firstDay: "2026-04-13", days: 3,
///   apps: ["com.a", "com.b", "com.c"], timeZone: paris)
/// ```
package struct UsagePlan: Hashable, Sendable {
  /// The apps the plan may use.
  package let apps: [String]
  /// The first day's local midnight, in seconds since 1970.
  package let start: Int
  /// The home zone's local midnight after the last day, in seconds since 1970: no interval
  /// begins at or after it.
  package let end: Int
  /// The device's zone at the start.
  package let homeZone: TimeZone
  /// The sessions, in order, never overlapping.
  package let sessions: [UsageSession]
  /// The instants the device was picked up (the start of each burst), in order.
  package let pickups: [Int]
  /// The instants a charger was plugged in, in order.
  package let chargerPlugIns: [Int]

  /// The longest an app is used in a day before another of its sessions may begin.
  package static let dailyBudgetPerApp = 2 * 3_600

  /// Generates a plan from a seed, in the device's zone over time.
  ///
  /// The plan follows the daily intervals of ``MonitoringInterval/intervals(from:until:zones:)``:
  /// waking hours are read in each interval's zone, so a traveller keeps using the device in
  /// the evening of the zone they flew to, and an interval that begins late in its local day
  /// (after flying west) holds only the rest of that day's use.
  ///
  /// - Parameters:
  ///   - seed: Equal seeds give equal plans.
  ///   - firstDay: The first local day in the home zone, `yyyy-MM-dd`.
  ///   - days: How many days of the home zone to plan.
  ///   - apps: Three or four bundle identifiers.
  ///   - zones: The device's zone over time.
  /// - Returns: The plan, or an empty one if `firstDay` is malformed.
  /// - Complexity: O(*s*) for *s* sessions.
  package static func generate(
    seed: UInt64, firstDay: String, days: Int, apps: [String], zones: DeviceZones
  ) -> UsagePlan {
    var random = SplitMix64(seed: seed)
    let first = LocalClock.midnight(of: firstDay, in: zones.home) ?? 0
    var last = first
    for _ in 0..<days { last = LocalClock.nextMidnight(after: last, in: zones.home) }
    let intervals = MonitoringInterval.intervals(from: first, until: last, zones: zones)
    var sessions: [UsageSession] = []
    var pickups: [Int] = []
    var chargers: [Int] = []
    var used: [String: [String: Int]] = [:]
    var cursor = first
    for interval in intervals {
      let dayStart = LocalClock.midnight(of: interval.day, in: interval.timeZone) ?? interval.start
      let waking = dayStart + 7 * 3_600 + Int.random(in: 0..<3_600, using: &random)
      cursor = max(cursor, waking, interval.start)
      while cursor < interval.end - 15 * 60 {
        pickups.append(cursor)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let open = apps.filter { (used[interval.day]?[$0] ?? 0) < dailyBudgetPerApp }
          guard let app = open.randomElement(using: &random) else { break }
          let length = Int.random(in: 20...1_200, using: &random)
          sessions.append(UsageSession(app: app, start: cursor, end: cursor + length))
          used[interval.day, default: [:]][app, default: 0] += length
          cursor += length
        }
        cursor += Int.random(in: 300...5_400, using: &random)
      }
      let midday = dayStart + Int.random(in: (9 * 3_600)..<(15 * 3_600), using: &random)
      let evening = dayStart + Int.random(in: (19 * 3_600)..<(23 * 3_600), using: &random)
      let plugIns = Bool.random(using: &random) ? [midday, evening] : [evening]
      chargers += plugIns.filter { $0 >= interval.start && $0 < interval.end }
    }
    return UsagePlan(
      apps: apps, start: first, end: last, homeZone: zones.home, sessions: sessions,
      pickups: pickups, chargerPlugIns: chargers)
  }

  /// Generates a plan for a device that stays in one zone.
  ///
  /// - Parameters:
  ///   - seed: Equal seeds give equal plans.
  ///   - firstDay: The first local day, `yyyy-MM-dd`.
  ///   - days: How many days to plan.
  ///   - apps: Three or four bundle identifiers.
  ///   - timeZone: The zone the days are planned in.
  /// - Returns: The plan, or an empty one if `firstDay` is malformed.
  /// - Complexity: O(*s*) for *s* sessions.
  package static func generate(
    seed: UInt64, firstDay: String, days: Int, apps: [String], timeZone: TimeZone
  ) -> UsagePlan {
    generate(
      seed: seed, firstDay: firstDay, days: days, apps: apps,
      zones: DeviceZones(home: timeZone, changes: []))
  }

  /// An app's use between two instants.
  ///
  /// - Parameters:
  ///   - app: The app, or `nil` for every app.
  ///   - from: The first second counted, in seconds since 1970.
  ///   - to: The first second not counted.
  /// - Returns: Seconds of use.
  /// - Complexity: O(*s*) for *s* sessions.
  package func use(of app: String?, from: Int, to: Int) -> Int {
    sessions.reduce(0) { total, session in
      guard app == nil || session.app == app else { return total }
      return total + max(0, min(session.end, to) - max(session.start, from))
    }
  }

  /// The instant an app's use counted from `origin` first reaches each threshold, before `end`.
  ///
  /// - Parameters:
  ///   - app: The app.
  ///   - origin: The instant counting begins, in seconds since 1970.
  ///   - end: The instant counting stops.
  ///   - thresholds: Thresholds in seconds, ascending.
  /// - Returns: For each threshold, the instant it was reached, or `nil` if it never was.
  /// - Complexity: O(*s* + *t*).
  package func reachInstants(of app: String, from origin: Int, before end: Int, thresholds: [Int])
    -> [Int?]
  {
    var result: [Int?] = Array(repeating: nil, count: thresholds.count)
    var next = 0
    var total = 0
    for session in sessions where session.app == app {
      let from = max(session.start, origin)
      let to = min(session.end, end)
      guard from < to else { continue }
      while next < thresholds.count, total + (to - from) >= thresholds[next] {
        result[next] = from + (thresholds[next] - total)
        next += 1
      }
      total += to - from
    }
    return result
  }
}
