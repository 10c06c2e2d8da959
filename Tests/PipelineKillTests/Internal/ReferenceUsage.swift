import Foundation
import SignalValues
import TestSupport
import TrackerSignals
import UsageModel

/// The pipeline's derivation rules, implemented a second at a time and independently of
/// `FactDerivation`: each app's use per local day, from a set of callbacks.
///
/// 1. A threshold event belongs to an interval of its activity: the occurrence of the plan's
///    window that contains it, from the latest `intervalDidStart` of the activity inside that
///    occurrence (not after the event) or else from the occurrence's start; outside every
///    occurrence, from the activity's latest `intervalDidStart` at most 7 days before it.
/// 2. It counts only if its threshold is at most the time from the interval's start to its
///    arrival.
/// 3. Per interval and app, each threshold `h` counted, first received at `r`, means "`h` of use
///    by `r`". Alone, an app's use is the latest one those reports allow: the cumulative use `U`
///    is the smallest function that never decreases, grows at most one second a second and
///    reaches `h` by each `r`, so `U(t) = max(U(t + 1) - 1, highest h reported by t)` backwards
///    from the last report; the app was in use in second `t` when `U(t + 1) > U(t)`, from the
///    interval's start.
/// 4. One foreground app: within an interval, no two apps are in use in the same second. The
///    use between an app's threshold and its next lower one counted (or zero) is a step, due by
///    the earliest report of that threshold or of a higher one of the app. Backwards from the
///    latest deadline, a second at a time down to the interval's start, each second goes to the
///    first step still short of its length, in the order latest deadline, then higher
///    threshold, then app that sorts last, whose deadline is after that second.
/// 5. What an app's use alone (rule 3) holds beyond the seconds rule 4 gave it goes, apps in
///    ascending order, each into the latest seconds still free between the interval's start
///    and its last report of any counted threshold, a duplicate included.
/// 6. Per local day and app, the union of those seconds over all intervals; and per local day,
///    their union over all apps, the device's total.
///
/// Local days and occurrences come from `Calendar`; event names are parsed here.
struct ReferenceUsage {
  /// Seconds of use by day and app.
  let totals: [LocalDay: [String: Int64]]
  /// Seconds in which any app was in use, by day.
  let deviceTotals: [LocalDay: Int64]
  /// The seconds in which each app was in use, over the script.
  let seconds: [String: Set<Int64>]

  /// Derives the use of the callbacks among `entries`.
  ///
  /// - Parameters:
  ///   - entries: Entries of a ``PipelineScript``; heartbeat ticks are ignored.
  ///   - script: The script, for its days.
  /// - Throws: ``FixtureError`` for an event name it cannot parse or a local time it cannot
  ///   build.
  init(_ entries: [PipelineScript.Entry], of script: PipelineScript) throws {
    let calendar = try PipelineScript.calendar()
    var starts: [String: [Int64]] = [:]
    var thresholds: [(activity: String, app: String, threshold: Int64, second: Int64)] = []
    for entry in entries {
      guard case .callback(let callback, let activity, let event) = entry.kind else { continue }
      switch callback {
      case .intervalDidStart:
        starts[activity, default: []].append(entry.second)
      case .eventDidReachThreshold:
        let (threshold, app) = try Self.parse(event ?? "")
        thresholds.append((activity, app, threshold, entry.second))
      default:
        break
      }
    }
    for activity in starts.keys { starts[activity]?.sort() }

    // Rules 1 and 2: per interval, the earliest report of each counted threshold of each app,
    // and the last report of any.
    var reports: [Int64: [String: [Int64: Int64]]] = [:]
    var lastReports: [Int64: Int64] = [:]
    for event in thresholds {
      let known = starts[event.activity] ?? []
      let start: Int64
      if let occurrence = try Self.occurrence(of: event.activity, at: event.second, calendar) {
        start =
          known.last { occurrence.contains($0) && $0 <= event.second } ?? occurrence.lowerBound
      } else if let latest = known.last(where: { $0 <= event.second }),
        event.second - latest <= 7 * 86_400
      {
        start = latest
      } else {
        continue
      }
      guard event.threshold <= event.second - start else { continue }
      reports[start, default: [:]][event.app, default: [:]][event.threshold] = min(
        reports[start]?[event.app]?[event.threshold] ?? .max, event.second)
      lastReports[start] = max(lastReports[start] ?? .min, event.second)
    }

    // Rules 3 to 6: the seconds in use, as a set per app.
    var used: [String: Set<Int64>] = [:]
    for (start, apps) in reports {
      let seconds = Self.secondsInUse(start, apps, lastReport: lastReports[start] ?? start)
      for (app, list) in seconds { used[app, default: []].formUnion(list) }
    }
    var totals: [LocalDay: [String: Int64]] = [:]
    var deviceTotals: [LocalDay: Int64] = [:]
    let device = used.values.reduce(into: Set<Int64>()) { $0.formUnion($1) }
    for day in script.days {
      let range = try Self.bounds(of: day, calendar)
      for (app, seconds) in used {
        let count = Int64(seconds.count { range.contains($0) })
        if count > 0 { totals[day, default: [:]][app] = count }
      }
      deviceTotals[day] = Int64(device.count { range.contains($0) })
    }
    self.totals = totals
    self.deviceTotals = deviceTotals
    seconds = used
  }

  /// The seconds from `start` in which each app of one interval was in use (rules 3 to 5), its
  /// thresholds first reported as `apps` (app to threshold to second), `lastReport` the last
  /// report of any counted threshold in the interval.
  static func secondsInUse(
    _ start: Int64, _ apps: [String: [Int64: Int64]], lastReport: Int64
  ) -> [String: [Int64]] {
    // Rule 4: every app's steps, each with its length and deadline, in the order of rule 4;
    // `next` is the first step still short of its length.
    var steps: [(app: String, threshold: Int64, length: Int64, deadline: Int64)] = []
    for (app, reports) in apps {
      var deadline = Int64.max
      let thresholds = reports.keys.sorted()
      for (index, threshold) in thresholds.enumerated().reversed() {
        deadline = min(deadline, reports[threshold] ?? .max)
        let lower = index == 0 ? 0 : thresholds[index - 1]
        steps.append((app, threshold, threshold - lower, deadline))
      }
    }
    steps.sort { ($0.deadline, $0.threshold, $0.app) > ($1.deadline, $1.threshold, $1.app) }
    var left = steps.map(\.length)
    var held: [Int64: String] = [:]
    var next = 0
    var second = (steps.first?.deadline ?? start) - 1
    while second >= start, next < steps.count {
      if left[next] == 0 {
        next += 1
      } else if steps[next].deadline <= second {
        // No step is due after this second: those after `next` in the order are due no later.
        second = steps[next].deadline - 1
      } else {
        held[second] = steps[next].app
        left[next] -= 1
        second -= 1
      }
    }
    var seconds: [String: [Int64]] = [:]
    for (second, app) in held { seconds[app, default: []].append(second) }

    // Rule 5: what each app alone holds beyond that, into the latest free seconds.
    var free = (start..<max(start, lastReport)).reversed().filter { held[$0] == nil }[...]
    for app in apps.keys.sorted() {
      let alone = secondsInUse(start, apps[app] ?? [:]).count
      let crowdedOut = alone - (seconds[app]?.count ?? 0)
      guard crowdedOut > 0 else { continue }
      seconds[app, default: []] += free.prefix(crowdedOut)
      free = free.dropFirst(crowdedOut)
    }
    return seconds
  }

  /// The seconds from `start` in which an app whose thresholds were first reported as
  /// `reports` (threshold to second) was in use alone, as late as the reports allow (rule 3).
  static func secondsInUse(_ start: Int64, _ reports: [Int64: Int64]) -> [Int64] {
    guard let last = reports.values.max(), let highest = reports.keys.max() else { return [] }
    // Seconds before `start` are computed too, then dropped: the rule clamps there.
    let first = start - highest
    var reached = [Int64](repeating: 0, count: Int(last - first) + 1)
    for (threshold, second) in reports {
      reached[Int(second - first)] = max(reached[Int(second - first)], threshold)
    }
    for index in reached.indices.dropFirst() {
      reached[index] = max(reached[index], reached[index - 1])
    }
    var cumulative = reached
    for index in cumulative.indices.reversed().dropFirst() {
      cumulative[index] = max(cumulative[index], cumulative[index + 1] - 1)
    }
    var seconds: [Int64] = []
    for index in cumulative.indices.dropLast() where cumulative[index + 1] > cumulative[index] {
      let second = first + Int64(index)
      if second >= start { seconds.append(second) }
    }
    return seconds
  }

  /// Every day and app, and every day's device total, whose total in `actual` differs from this
  /// reference's, as a sentence; empty when they all agree.
  ///
  /// - Parameters:
  ///   - actual: Seconds of use by day and app; an absent entry is zero.
  ///   - device: Seconds in which any app was in use, by day; an absent entry is zero.
  /// - Returns: The differences.
  func mismatches(_ actual: [LocalDay: [String: Int64]], device: [LocalDay: Int64]) -> [String] {
    var problems: [String] = []
    for day in Set(deviceTotals.keys).union(device.keys).sorted()
    where deviceTotals[day] ?? 0 != device[day] ?? 0 {
      problems.append(
        "\(day) any app: expected \(deviceTotals[day] ?? 0) s, got \(device[day] ?? 0) s")
    }
    for day in Set(totals.keys).union(actual.keys).sorted() {
      let expected = totals[day] ?? [:]
      let got = actual[day] ?? [:]
      for app in Set(expected.keys).union(got.keys).sorted()
      where expected[app] ?? 0 != got[app] ?? 0 {
        problems.append("\(day) \(app): expected \(expected[app] ?? 0) s, got \(got[app] ?? 0) s")
      }
    }
    return problems
  }

  // MARK: - Parts

  /// The threshold in seconds and the app of an event name `stk:<n>m:<app>` or `stk:<n>s:<app>`.
  static func parse(_ name: String) throws -> (Int64, String) {
    let parts = name.split(separator: ":", maxSplits: 2).map(String.init)
    guard parts.count == 3, parts[0] == "stk", let unit = parts[1].last,
      let amount = Int64(parts[1].dropLast()), unit == "m" || unit == "s"
    else {
      throw FixtureError(description: "not a threshold event name: \(name)")
    }
    return (unit == "m" ? amount * 60 : amount, parts[2])
  }

  /// The occurrence of `activity`'s window that contains `second`, if the script plans it.
  static func occurrence(of activity: String, at second: Int64, _ calendar: Calendar) throws
    -> Range<Int64>?
  {
    guard let window = PipelineScript.activities.first(where: { $0.name == activity }) else {
      return nil
    }
    let date = Date(timeIntervalSince1970: TimeInterval(second))
    let today = calendar.dateComponents([.year, .month, .day], from: date)
    for offset in [-1, 0] {
      guard let midnight = calendar.date(from: today),
        let day = calendar.date(byAdding: .day, value: offset, to: midnight),
        let start = calendar.date(
          bySettingHour: window.start.hour, minute: window.start.minute, second: 0, of: day),
        let end = calendar.date(
          bySettingHour: window.end.hour, minute: window.end.minute, second: 0, of: day)
      else {
        throw FixtureError(description: "no occurrence of \(activity) around \(date)")
      }
      let range = Int64(start.timeIntervalSince1970)..<Int64(end.timeIntervalSince1970)
      if range.contains(second) { return range }
    }
    return nil
  }

  /// The seconds of a local day.
  static func bounds(of day: LocalDay, _ calendar: Calendar) throws -> Range<Int64> {
    guard
      let start = calendar.date(
        from: DateComponents(year: day.year, month: day.month, day: day.day)),
      let end = calendar.date(byAdding: .day, value: 1, to: start)
    else {
      throw FixtureError(description: "no bounds for \(day)")
    }
    return Int64(start.timeIntervalSince1970)..<Int64(end.timeIntervalSince1970)
  }
}
