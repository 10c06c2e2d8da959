import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import TrackerSignals
import UsageModel

/// A random day of monitor callbacks, for property tests: two activities, four apps, sessions of
/// use reported by threshold events, with duplicates, late deliveries, an implausible burst and
/// a few facts that cannot be counted.
struct FactScenario {
  /// One callback, as plain values.
  struct Callback: Hashable {
    var kind: MonitorCallback
    var activity: String
    var event: String?
    var at: Date
  }

  static let apps = ["com.burbn.instagram", "com.zhiliaoapp.musically", "com.duolingo", "com.x.y"]
  static let day = "2026-04-15"

  var callbacks: [Callback] = []

  /// Builds the scenario of `seed` in `zone`.
  init(seed: UInt64, zone: TimeZone) throws {
    var random = SplitMix64(seed: seed)
    let boundary = DayBoundary(timeZone: zone)
    let dayStart = boundary.start(of: try LocalDay(parsing: Self.day))
    func at(_ seconds: Int) -> Date { dayStart.addingTimeInterval(Double(seconds)) }

    // "daily" is in the monitoring plan; "evening" starts at 18:00 and is known by its
    // intervalDidStart only; "morning" starts at 07:00 and gets the implausible burst.
    callbacks.append(Callback(kind: .intervalDidStart, activity: "daily", at: at(0)))
    callbacks.append(Callback(kind: .intervalDidStart, activity: "evening", at: at(18 * 3600)))
    callbacks.append(Callback(kind: .intervalDidStart, activity: "morning", at: at(7 * 3600)))
    for minutes in stride(from: 5, through: 30, by: 5) {
      callbacks.append(
        try Self.threshold(
          "com.burbn.instagram", minutes: minutes, activity: "morning", at: at(7 * 3600 + 60)))
    }
    callbacks.append(
      Callback(kind: .eventDidReachThreshold, activity: "daily", event: "not-ours", at: at(9_000)))
    callbacks.append(
      Callback(
        kind: .eventDidReachThreshold, activity: "unplanned", event: "stk:5m:com.x.y",
        at: at(9_100)))

    for (activity, start, end) in [("daily", 0, 86_340), ("evening", 18 * 3600, 86_340)] {
      for app in Self.apps where random.next() % 3 != 0 {
        var used = 0  // seconds of use so far in the interval
        var clock = start + Int(random.next() % 7200)
        let step = [60, 120, 300][Int(random.next() % 3)]
        while clock < end - 3600 {
          let session = 60 * Int(1 + random.next() % 25)
          for second in stride(from: 0, to: session, by: 60) {
            used += 60
            guard used % step == 0 else { continue }
            let received = clock + second + 60 + Int(random.next() % 20)
            let event = try Self.threshold(
              app, minutes: used / 60, activity: activity, at: at(received))
            callbacks.append(event)
            if random.next() % 5 == 0 {  // delivered twice
              var again = event
              again.at = event.at.addingTimeInterval(Double(1 + random.next() % 30))
              callbacks.append(again)
            }
            if used > step, random.next() % 10 == 0 {  // an older threshold, much later
              callbacks.append(
                try Self.threshold(
                  app, minutes: (used - step) / 60, activity: activity,
                  at: at(received + 300 + Int(random.next() % 3000))))
            }
          }
          clock += session + 60 * Int(5 + random.next() % 120)
        }
      }
    }
    callbacks.append(Callback(kind: .intervalWillEndWarning, activity: "daily", at: at(86_000)))
    callbacks.append(Callback(kind: .intervalDidEnd, activity: "daily", at: at(86_340)))
  }

  static func threshold(_ app: String, minutes: Int, activity: String, at: Date) throws -> Callback
  {
    let name = try ThresholdEventName(app: try AppID(app), threshold: .seconds(Int64(minutes) * 60))
    return Callback(kind: .eventDidReachThreshold, activity: activity, event: name.rawValue, at: at)
  }

  /// The configuration the scenario is meant for.
  static func configuration(zone: TimeZone) throws -> PipelineConfiguration {
    var configuration = PipelineConfiguration(userId: "user-1", timeZone: zone)
    configuration.rules = CategoryRules([
      .exact(try AppID("com.burbn.instagram"), .socialMedia),
      .exact(try AppID("com.zhiliaoapp.musically"), .socialMedia),
      .exact(try AppID("com.duolingo"), .education),
    ])
    configuration.monitoring = try MonitoringPlan([
      MonitoredActivity(
        name: "daily",
        schedule: .daily(try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
    ])
    configuration.plans = [
      try MonthlyPlan(
        month: LocalMonth(year: 2026, month: 4),
        amounts: [.socialMedia: .seconds(30 * 3600), .education: .seconds(10 * 3600)])
    ]
    configuration.rewards = try UsageRewards(xpPerMinute: [.education: 10])
    return configuration
  }
}
