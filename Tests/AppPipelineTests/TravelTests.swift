import AppPipeline
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// A person travels: the facts keep the zone the device was in, and each interval is read in the
/// zone it began in, whatever zone the app is configured with later.
@Suite("Travel")
struct TravelTests {
  /// An app configured for `zone`, monitoring a daily activity from midnight.
  static func configuration(_ zone: String) throws -> PipelineConfiguration {
    var configuration = PipelineConfiguration(userId: "u", timeZone: try TestSupport.zone(zone))
    configuration.monitoring = try MonitoringPlan([
      MonitoredActivity(
        name: "daily",
        schedule: .daily(try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
    ])
    return configuration
  }

  /// A Paris day, recorded in Paris, read by an app configured for `configured`.
  func records(configured: String) throws -> [UsageRecord] {
    let paris = try zone("Europe/Paris")
    let folder = try SharedFolder.inMemory()
    let recorder = MonitorRecorder(folder: folder, timeZone: { paris })
    _ = recorder.eventDidReachThreshold(
      "stk:30m:com.x", activity: "daily", now: try instant("2026-03-26T12:00:00Z"))
    _ = recorder.intervalDidStart(for: "daily", now: try instant("2026-03-26T23:00:00Z"))
    _ = recorder.eventDidReachThreshold(
      "stk:60m:com.x", activity: "daily", now: try instant("2026-03-27T02:00:00Z"))
    _ = recorder.eventDidReachThreshold(
      "stk:90m:com.x", activity: "daily", now: try instant("2026-03-27T12:00:00Z"))
    let configuration = try Self.configuration(configured)
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    try pipeline.wake(.foreground, now: try instant("2026-03-27T13:00:00Z"))
    return try pipeline.usageRecords()
  }

  @Test("opening Paris facts with a New York configuration reads every interval as in Paris")
  func pastIntervalsKeepTheirZone() throws {
    let inParis = try records(configured: "Europe/Paris")
    let total = inParis.reduce(Duration.zero) { $0 + $1.duration }
    #expect(total == .seconds(1_800 + 5_400))
    #expect(try records(configured: "America/New_York") == inParis)
    #expect(try records(configured: "Asia/Tokyo") == inParis)
  }

  @Test("the control: facts without a zone are read in the configured zone, and change with it")
  func factsWithoutAZoneFollowTheConfiguration() throws {
    func records(configured: String) throws -> [UsageRecord] {
      let folder = try SharedFolder.inMemory()
      for (callback, event, at) in [
        (MonitorCallback.eventDidReachThreshold, "stk:30m:com.x", "2026-03-26T12:00:00Z"),
        (.intervalDidStart, nil, "2026-03-26T23:00:00Z"),
        (.eventDidReachThreshold, "stk:60m:com.x", "2026-03-27T02:00:00Z"),
        (.eventDidReachThreshold, "stk:90m:com.x", "2026-03-27T12:00:00Z"),
      ] {
        try folder.outbox.publish(
          try MonitorFact(callback, activity: "daily", event: event, at: try instant(at)))
      }
      let configuration = try Self.configuration(configured)
      var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
      try pipeline.wake(.foreground, now: try instant("2026-03-27T13:00:00Z"))
      return try pipeline.usageRecords()
    }
    let total = { (records: [UsageRecord]) in
      records.reduce(Duration.zero) { $0 + $1.duration }
    }
    #expect(total(try records(configured: "Europe/Paris")) == .seconds(7_200))
    #expect(total(try records(configured: "America/New_York")) == .seconds(10_800))
  }

  @Test("a fact's zone is kept in its JSON form, and a fact without one still decodes")
  func factZoneRoundTrips() throws {
    let fact = try MonitorFact(
      .intervalDidStart, activity: "daily", at: try instant("2026-03-26T23:00:00Z"),
      timeZone: try zone("Europe/Paris"))
    let text = try json(fact)
    #expect(text.contains(#""timeZone":"Europe/Paris""#))
    #expect(try decode(MonitorFact.self, text) == fact)
    let old = #"{"activity":"daily","at":"2026-03-26T23:00:00Z","callback":"intervalDidStart"}"#
    #expect(try decode(MonitorFact.self, old).timeZone == nil)
    #expect(throws: DecodingError.self) {
      try decode(
        MonitorFact.self, old.replacingOccurrences(of: "}", with: #","timeZone":"Mars/Base"}"#))
    }
  }
}

extension TravelTests {
  @Test("changing the configured zone changes no past day's total")
  func configuredZoneChangesNoDay() throws {
    func totals(configured: String) throws -> [Duration] {
      let paris = try zone("Europe/Paris")
      let folder = try SharedFolder.inMemory()
      let recorder = MonitorRecorder(folder: folder, timeZone: { paris })
      for day in ["2026-03-25", "2026-03-26", "2026-03-27"] {
        _ = recorder.intervalDidStart(for: "daily", now: try instant("\(day)T00:00:00+01:00"))
        _ = recorder.eventDidReachThreshold(
          "stk:30m:com.x", activity: "daily", now: try instant("\(day)T23:30:00+01:00"))
      }
      let configuration = try Self.configuration(configured)
      var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
      let now = try instant("2026-03-28T12:00:00Z")
      try pipeline.wake(.foreground, now: now)
      return try ["2026-03-25", "2026-03-26", "2026-03-27"].map {
        try pipeline.dashboard(for: try LocalDay(parsing: $0), now: now).usage.total
      }
    }
    let inParis = try totals(configured: "Europe/Paris")
    #expect(inParis == [.seconds(1_800), .seconds(1_800), .seconds(1_800)])
    // 23:30 in Paris is 18:30 in New York: read in New York's days it would be the same day
    // anyway, but in Tokyo's (07:30 the next morning) it would move a day later.
    #expect(try totals(configured: "America/New_York") == inParis)
    #expect(try totals(configured: "Asia/Tokyo") == inParis)
  }
}
