import Foundation
import SignalValues
import TrackerSignals
import UsageModel

/// Three scripted days of a monitor extension in New York, across the spring-forward change of
/// 2026-03-08: every callback the platform delivers and every heartbeat tick, in order.
///
/// The pipeline's kill tests replay it through the extension side in a helper process, and
/// compute their reference from the part of it that was durably written. Equal seeds give equal
/// scripts in every process: the generator uses only ``SplitMix64`` and a Gregorian calendar in
/// New York.
///
/// What the platform does in it, for two activities of a ``monitoringPlan()`` (a daily one,
/// 00:00–23:59, and a morning one, 07:00–12:00):
/// - `intervalDidStart` and `intervalDidEnd` of each activity each day, up to 2 s late;
/// - threshold events (``ThresholdEventName``) every few minutes of each app's cumulative use in
///   each interval, at the second the use reaches them, during sessions of one app at a time
///   (one of them across the missing hour of 2026-03-08);
/// - duplicate deliveries, the same event again 1–20 s later, and late ones, a threshold two
///   steps lower again 30 s to 5 min after a higher one;
/// - at the first pickup after the morning interval starts, an all-at-once burst of morning
///   thresholds above the time elapsed since 07:00 (implausible, as the platform's counting of
///   earlier activity makes them);
/// - a 40-minute stretch on 2026-03-08 (``deadStretch``, 15:00–15:40) in which the extension is
///   dead: nothing is delivered and nothing beats, though an app is used;
/// - otherwise a heartbeat tick every 2 minutes, so that idle time is not tracker-down.
package struct PipelineScript: Sendable {
  /// The time zone of the script's wall clock.
  package static let timeZoneIdentifier = "America/New_York"
  /// The apps used, in the order of their indices in ``Session/app``.
  package static let apps = [
    "com.burbn.instagram", "com.zhiliaoapp.musically", "com.google.ios.youtube", "com.duolingo",
  ]

  /// A monitored activity: its daily window and the threshold step of each app it watches.
  package struct Activity: Sendable {
    /// The activity's name.
    package let name: String
    /// The window's start, hour and minute of the local day.
    package let start: (hour: Int, minute: Int)
    /// The window's end, hour and minute of the same local day.
    package let end: (hour: Int, minute: Int)
    /// The threshold step in seconds of each app watched, by index in ``PipelineScript/apps``.
    package let steps: [Int: Int64]
  }

  /// The store keys of the control's two-write glue, shared by its helper and its test.
  package enum ControlKeys {
    /// The `ThresholdAccountant`, updated by the first write.
    package static let accountant = "control.accountant"
    /// The latest `intervalDidStart` of each activity.
    package static let starts = "control.starts"
    /// The outbox of `UsageRecord`s, appended to by the second write.
    package static let outbox = "control.usage"
    /// The app's consumer record: every usage record applied.
    package static let applied = "control.applied"
  }

  /// The two activities: a daily one watching every app and a short morning one.
  package static let activities = [
    Activity(
      name: "daily", start: (0, 0), end: (23, 59), steps: [0: 180, 1: 120, 2: 300, 3: 120]),
    Activity(name: "morning", start: (7, 0), end: (12, 0), steps: [0: 300, 1: 240, 2: 300]),
  ]

  /// One step of the script.
  package struct Entry: Sendable, Hashable {
    /// What happens.
    package enum Kind: Sendable, Hashable {
      /// A heartbeat tick without a callback (`MonitorRecorder.heartbeat(now:)`).
      case heartbeat
      /// A callback, as `MonitorRecorder.record(_:activity:event:now:)` takes it.
      case callback(MonitorCallback, activity: String, event: String?)
    }

    /// What happens.
    package let kind: Kind
    /// When, in whole seconds since 1970.
    package let second: Int64
    /// Whether the control's two-write extension dies between its writes on this callback.
    package let killsControl: Bool

    /// When, as a date.
    package var at: Date { Date(timeIntervalSince1970: TimeInterval(second)) }

    /// Whether the entry is a callback, which writes a fact.
    package var isCallback: Bool { kind != .heartbeat }
  }

  /// A stretch in which one app is in use.
  package struct Session: Sendable, Hashable {
    /// The app, by index in ``PipelineScript/apps``.
    package let app: Int
    /// The first second of use.
    package let start: Int64
    /// The second after the last one of use.
    package let end: Int64
  }

  /// The seed the script was generated from.
  package let seed: UInt64
  /// Every step, sorted by time.
  package let entries: [Entry]
  /// The use the platform saw.
  package let sessions: [Session]
  /// The stretch, in seconds since 1970, in which the extension is dead.
  package let deadStretch: Range<Int64>
  /// The script's first second: 2026-03-07 00:00 in New York.
  package let start: Int64
  /// The second after the script: 2026-03-10 00:00 in New York.
  package let end: Int64
  /// The three local days, `2026-03-07`, `2026-03-08` (23 hours long) and `2026-03-09`.
  package let days: [LocalDay]

  /// Generates the script of `seed`.
  ///
  /// - Parameter seed: Any value; equal seeds give equal scripts.
  /// - Throws: ``FixtureError`` when a local time or a name cannot be built.
  package init(seed: UInt64) throws {
    var generator = Generator(seed: seed, calendar: try Self.calendar())
    try generator.generate()
    self.seed = seed
    entries = generator.sortedEntries()
    sessions = generator.sessions
    deadStretch = generator.deadStretch
    start = try generator.local(0, 0, 0)
    end = try generator.local(3, 0, 0)
    days = try (0..<3).map { try LocalDay(year: 2026, month: 3, day: 7 + $0) }
  }

  /// The number of callbacks, each a fact to write.
  package var callbackCount: Int { entries.count { $0.isCallback } }

  /// The monitoring plan of ``activities``, as the app configures it.
  ///
  /// - Returns: The plan.
  /// - Throws: What UsageModel throws for an invalid window.
  package static func monitoringPlan() throws -> MonitoringPlan {
    try MonitoringPlan(
      activities.map { activity in
        MonitoredActivity(
          name: activity.name,
          schedule: .daily(
            try DailyWindow(
              start: try TimeOfDay(hour: activity.start.hour, minute: activity.start.minute),
              end: try TimeOfDay(hour: activity.end.hour, minute: activity.end.minute))))
      })
  }

  /// A Gregorian calendar in ``timeZoneIdentifier``.
  ///
  /// - Returns: The calendar.
  /// - Throws: ``FixtureError`` when the zone is unknown.
  package static func calendar() throws -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try zone(timeZoneIdentifier)
    return calendar
  }
}

// MARK: - Generation

extension PipelineScript {
  private struct Generator {
    var random: SplitMix64
    let calendar: Calendar
    var sessions: [Session] = []
    var entries: [Entry] = []
    var deadStretch: Range<Int64> = 0..<0

    init(seed: UInt64, calendar: Calendar) {
      random = SplitMix64(seed: seed)
      self.calendar = calendar
    }

    /// The instant of local time `hour:minute:second` on the `day`th day from 2026-03-07.
    func local(_ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) throws -> Int64 {
      let components = DateComponents(
        year: 2026, month: 3, day: 7 + day, hour: hour, minute: minute, second: second)
      guard let date = calendar.date(from: components) else {
        throw FixtureError(description: "no local time for \(components)")
      }
      return Int64(date.timeIntervalSince1970)
    }

    mutating func uniform(_ range: ClosedRange<Int64>) -> Int64 {
      range.lowerBound + Int64(random.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    mutating func generate() throws {
      deadStretch = try local(1, 15, 0)..<local(1, 15, 40)
      for day in 0..<3 { try makeSessions(day) }
      sessions.sort { $0.start < $1.start }
      for day in 0..<3 {
        for activity in PipelineScript.activities { try deliver(activity, day: day) }
      }
      let first = try local(0, 0, 0)
      let last = try local(3, 0, 0)
      for second in stride(from: first + 60, to: last, by: 120)
      where !deadStretch.contains(second) {
        entries.append(Entry(kind: .heartbeat, second: second, killsControl: false))
      }
    }

    /// One day's sessions: a late-night one, or the one across the missing hour on the day of
    /// the change and the one in the dead stretch; then random ones from 06:00 to 23:45, none
    /// across 07:00, so that the first pickup after the morning interval starts is one.
    mutating func makeSessions(_ day: Int) throws {
      var forced: [Session] = []
      var blocked = [try local(day, 6, 55)..<local(day, 7, 5)]
      if day == 1 {
        let acrossTheChange = try local(day, 1, 40)
        forced.append(Session(app: 2, start: acrossTheChange, end: acrossTheChange + 40 * 60))
        forced.append(
          Session(app: 1, start: try local(day, 15, 5), end: try local(day, 15, 25, 30)))
        // Nothing else until 17:00: no use reported later can be laid out back into the stretch.
        blocked.append(try local(day, 14, 50)..<local(day, 17, 0))
      } else {
        let night = try local(day, 0, 20) + uniform(0...600)
        forced.append(Session(app: 0, start: night, end: night + uniform(300...900)))
      }
      sessions += forced
      let stop = try local(day, 23, 45)
      var time = try local(day, 6, 0) + uniform(0...1_800)
      while true {
        let start = time + uniform(4 * 60...80 * 60)
        let end = start + uniform(2 * 60...30 * 60)
        guard end <= stop else { return }
        if let obstacle = blocked.first(where: { $0.overlaps(start - 60..<end + 60) }) {
          time = obstacle.upperBound
          continue
        }
        let app = Int(random.next() % UInt64(PipelineScript.apps.count))
        sessions.append(Session(app: app, start: start, end: end))
        time = end
      }
    }

    /// The platform's callbacks for one occurrence of `activity`.
    mutating func deliver(_ activity: Activity, day: Int) throws {
      let occurrenceStart = try local(day, activity.start.hour, activity.start.minute)
      let occurrenceEnd = try local(day, activity.end.hour, activity.end.minute)
      // The platform counts from the moment it starts monitoring, which it reports.
      let monitoringStart = occurrenceStart + uniform(0...2)
      callback(.intervalDidStart, activity.name, nil, at: monitoringStart)
      callback(.intervalDidEnd, activity.name, nil, at: occurrenceEnd + uniform(0...2))
      let morning = try local(day, 7, 0)..<local(day, 12, 0)
      let pickup = sessions.first { $0.start >= monitoringStart }?.start
      for (app, step) in activity.steps.sorted(by: { $0.key < $1.key }) {
        let appID = try AppID(PipelineScript.apps[app])
        func name(_ threshold: Int64) throws -> String {
          try ThresholdEventName(app: appID, threshold: .seconds(threshold)).rawValue
        }
        if activity.name == "morning", let pickup {
          // The burst: thresholds above the elapsed time, all at once at the pickup.
          let lowest = (pickup - occurrenceStart + 60) / step + 1
          for multiple in lowest..<lowest + uniform(2...4) {
            callback(
              .eventDidReachThreshold, activity.name, try name(multiple * step),
              at: pickup + uniform(0...2))
          }
        }
        var used: Int64 = 0  // the app's use in the interval before the session
        var next = step  // the next threshold to reach
        var highest: Int64 = 0  // the highest threshold delivered
        var reached: [Int64] = []  // the thresholds delivered, in order
        for session in sessions where session.app == app {
          let low = max(session.start, monitoringStart)
          let high = min(session.end, occurrenceEnd)
          guard low < high else { continue }
          while next <= used + (high - low) {
            let second = low + (next - used)
            guard second < occurrenceEnd else { break }
            let threshold = next
            next += step
            // Reached while the extension is dead: never delivered.
            guard !deadStretch.contains(second) else { continue }
            // The control dies between its writes only where no morning record of the app can
            // cover the usage it loses, so that the loss shows whole in the day's union.
            let lost = second - (threshold - highest)..<second
            let killsControl = activity.name == "daily" && !morning.overlaps(lost) && chance(10)
            callback(
              .eventDidReachThreshold, activity.name, try name(threshold), at: second,
              killsControl: killsControl)
            highest = threshold
            reached.append(threshold)
            let duplicate = second + uniform(1...20)
            if chance(12), duplicate < occurrenceEnd {
              callback(.eventDidReachThreshold, activity.name, try name(threshold), at: duplicate)
            }
            let late = second + uniform(30...300)
            if reached.count >= 3, chance(7), late < occurrenceEnd {
              let lower = reached[reached.count - 3]
              callback(.eventDidReachThreshold, activity.name, try name(lower), at: late)
            }
          }
          used += high - low
        }
      }
    }

    mutating func callback(
      _ callback: MonitorCallback, _ activity: String, _ event: String?, at second: Int64,
      killsControl: Bool = false
    ) {
      guard !deadStretch.contains(second) else { return }
      entries.append(
        Entry(
          kind: .callback(callback, activity: activity, event: event), second: second,
          killsControl: killsControl))
    }

    /// The entries by time, generation order breaking ties, each fact once.
    func sortedEntries() -> [Entry] {
      var seen: Set<Entry> = []
      return entries.enumerated()
        .sorted { ($0.element.second, $0.offset) < ($1.element.second, $1.offset) }
        .map(\.element)
        .filter {
          seen.insert(Entry(kind: $0.kind, second: $0.second, killsControl: false)).inserted
        }
    }
  }
}
