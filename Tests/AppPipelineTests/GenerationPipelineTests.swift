import AppPipeline
import Foundation
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// The app side of issue 18: the configuration's registrations decide how each generation's
/// events count.
@Suite("Registration generations through the pipeline")
struct GenerationPipelineTests {
  static let day = "2026-04-15"

  /// A harness with the daily 00:00–23:59 plan in New York and `registrations` built from
  /// `(generation, local time, counting, past activity)`.
  static func harness(
    _ registrations: [(UInt32, String, ThresholdCounting, Bool)], pastActivity: Bool = false
  ) throws -> PipelineHarness {
    let zone = try TestSupport.zone("America/New_York")
    return try PipelineHarness { configuration in
      configuration.monitoring = try MonitoringPlan([
        MonitoredActivity(
          name: "daily",
          schedule: .daily(
            try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
      ])
      configuration.includesPastActivity = pastActivity
      configuration.registrations = try registrations.map { generation, time, counting, past in
        try MonitoringRegistration(
          activity: "daily", generation: generation,
          registeredAt: try Self.local("\(Self.day) \(time)", zone: zone),
          includesPastActivity: past, counting: counting)
      }
    }
  }

  static func local(_ text: String, zone: TimeZone) throws -> Date {
    let day = try LocalDay(parsing: String(text.prefix(10)))
    let time = try TimeOfDay(parsing: String(text.dropFirst(11)))
    return DayBoundary(timeZone: zone).start(of: day).addingTimeInterval(
      Double(time.hour * 3600 + time.minute * 60 + time.second))
  }

  /// Records the day's start and each `(name, local time)` event; returns the dashboard.
  static func read(
    _ harness: inout PipelineHarness, starts: [String] = ["00:00"],
    events: [(String, String)]
  ) throws -> Dashboard {
    for start in starts {
      _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) \(start)"))
    }
    for (name, time) in events {
      _ = harness.recorder.eventDidReachThreshold(
        name, activity: "daily", now: try harness.at("\(day) \(time)"))
    }
    return try harness.dashboard(day, at: "23:59:30")
  }

  static func seconds(_ dashboard: Dashboard) throws -> Int64 {
    dashboard.usage.total(of: try AppID("com.a")).components.seconds
  }

  /// The reproduction: re-armed at noon as generation 1, counted from the occurrence start with
  /// past activity; the platform replays 30m at 12:00:05, then delivers 45m at 12:40.
  static let replayedDay = [
    ("stk:g0:30m:com.a", "10:00"), ("stk:g1:30m:com.a", "12:00:05"),
    ("stk:g1:45m:com.a", "12:40"),
  ]

  @Test("re-armed from the occurrence start, a replay adds nothing and the day is 2,700 s")
  func reproductionFromOccurrenceStart() throws {
    var harness = try Self.harness([
      (0, "00:00", .fromOccurrenceStart, true), (1, "12:00", .fromOccurrenceStart, true),
    ])
    let dashboard = try Self.read(&harness, starts: ["00:00", "12:00"], events: Self.replayedDay)
    #expect(try Self.seconds(dashboard) == 2_700)
    #expect(dashboard.facts.rejected.isEmpty)
  }

  @Test("control: without the registrations the same day reads 1,800 s, as before issue 18")
  func reproductionWithoutRegistrations() throws {
    var harness = try Self.harness([])
    let dashboard = try Self.read(&harness, starts: ["00:00", "12:00"], events: Self.replayedDay)
    #expect(try Self.seconds(dashboard) == 1_800)
  }

  @Test("re-armed from registration, each registration's highest adds up: 30m + 15m = 2,700 s")
  func reproductionFromRegistration() throws {
    var harness = try Self.harness([
      (0, "00:00", .fromOccurrenceStart, true), (1, "12:00", .fromRegistration, false),
    ])
    let dashboard = try Self.read(
      &harness, starts: ["00:00", "12:00"],
      events: [("stk:g0:30m:com.a", "10:00"), ("stk:g1:15m:com.a", "12:20")])
    #expect(try Self.seconds(dashboard) == 2_700)
  }

  @Test("an older generation received after a newer registration is rejected as a replay")
  func replayIsARejectedFact() throws {
    var harness = try Self.harness([
      (0, "00:00", .fromOccurrenceStart, true), (1, "12:00", .fromOccurrenceStart, true),
    ])
    let dashboard = try Self.read(
      &harness, events: [("stk:g0:30m:com.a", "10:00"), ("stk:g0:50m:com.a", "12:30")])
    #expect(try Self.seconds(dashboard) == 1_800)
    let rejected = try #require(dashboard.facts.rejected.first)
    #expect(dashboard.facts.rejected.count == 1)
    #expect(rejected.fact.event == "stk:g0:50m:com.a")
    #expect(rejected.reason.contains("a replay of generation 0"))
  }

  @Test(
    "an unknown generation, or one registered after the event, is rejected with a reason",
    arguments: [("stk:g7:30m:com.a", "12:30"), ("stk:g1:30m:com.a", "11:00")])
  func unknownGenerationIsRejected(name: String, time: String) throws {
    var harness = try Self.harness([
      (0, "00:00", .fromOccurrenceStart, true), (1, "12:00", .fromOccurrenceStart, true),
    ])
    let dashboard = try Self.read(&harness, events: [(name, time)])
    #expect(try Self.seconds(dashboard) == 0)
    #expect(dashboard.facts.rejected.map(\.reason).contains { $0.contains("is not among") })
  }

  @Test(
    "the registration's past-activity setting, not the configuration's, bounds plausibility",
    arguments: [(true, Int64(600)), (false, 0)])
  func pastActivityComesFromTheRegistration(past: Bool, placed: Int64) throws {
    var harness = try Self.harness(
      [(0, "00:00", .fromOccurrenceStart, false), (1, "12:20", .fromRegistration, past)],
      pastActivity: !past)
    // 30 minutes 10 minutes after a 12:20 registration: plausible only with the 20 minutes of
    // the hour before it; the timeline places only the 10 minutes since the interval's start.
    let dashboard = try Self.read(&harness, events: [("stk:g1:30m:com.a", "12:30")])
    #expect(dashboard.facts.implausible.isEmpty == past)
    #expect(try Self.seconds(dashboard) == placed)
  }

  @Test(
    "property: replaying older generations' events, in any subset, order or number, changes no total",
    arguments: [UInt64(1), 2, 3, 4, 5, 6])
  func replaysChangeNoTotal(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let counting: ThresholdCounting = seed % 2 == 0 ? .fromOccurrenceStart : .fromRegistration
    let registrations: [(UInt32, String, ThresholdCounting, Bool)] = [
      (0, "00:00", .fromOccurrenceStart, true),
      (1, "12:00", counting, counting == .fromOccurrenceStart),
    ]
    let real = [
      ("stk:g0:10m:com.a", "09:00"), ("stk:g0:30m:com.a", "10:00"), ("stk:g1:45m:com.a", "12:50"),
    ]
    var baseline = try Self.harness(registrations)
    let before = try Self.seconds(
      try Self.read(&baseline, starts: ["00:00", "12:00"], events: real))
    var replays: [(String, String)] = []
    for _ in 0..<Int(1 + random.next() % 10) {
      let minutes = 5 * (1 + random.next() % 36)
      let second = 12 * 3600 + Int(random.next() % 40_000)
      let time = String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60)
      replays.append(("stk:g0:\(minutes)m:com.a", time))
    }
    replays += replays.prefix(Int(random.next() % 3))
    // The recorder receives them in any order; the pipeline replays its facts sorted.
    var all = real + replays
    all.shuffle(using: &random)
    var replayed = try Self.harness(registrations)
    let after = try Self.seconds(try Self.read(&replayed, starts: ["00:00", "12:00"], events: all))
    #expect(after == before)
    #expect(before == (counting == .fromOccurrenceStart ? 2_700 : 4_500))
  }
}
