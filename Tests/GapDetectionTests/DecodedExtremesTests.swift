import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// Every number GapDetection decodes and later computes with, at the ends of its type.
///
/// Decoding rejects it with a `DecodingError` naming the field, or every operation on the value
/// (reports, alerts, merges, text and SVG) gives a defined result. A trap would stop the test
/// process.
@Suite("Decoded numbers are checked before they take part in arithmetic")
struct DecodedExtremesTests {
  static let extremes = [
    "9223372036854775807", "-9223372036854775808", "-1", "0", "1", "315537551999999",
  ]

  struct Day {
    let boundary: DayBoundary
    let day: LocalDay
    let t0: Date
    let now: Date
    let beats: [Heartbeat]
    let usage: [UsageRecord]

    init() throws {
      boundary = DayBoundary(timeZone: try zone("America/New_York"))
      day = try LocalDay(parsing: "2026-03-08")
      t0 = try instant("2026-03-08T13:00:00Z")
      now = t0.addingTimeInterval(4 * 3_600)
      beats =
        try heartbeats(from: t0, to: t0.addingTimeInterval(900), every: 30)
        + heartbeats(from: t0.addingTimeInterval(3_000), to: now, every: 60)
      usage = [
        try UsageRecord(
          app: try AppID("com.a"), start: t0.addingTimeInterval(60), duration: .seconds(600),
          source: .thresholdEvent)
      ]
    }
  }

  @Test("a health policy of any decoded durations judges health and reports gaps")
  func healthPolicy() throws {
    let fixture = try Day()
    let fields = ["staleAfterMs", "gapAfterMs", "usageGapAfterMs", "alertAfterMs"]
    for value in Self.extremes {
      for field in fields + ["clockSkewToleranceMs"] {
        var values = [
          "staleAfterMs": "120000", "gapAfterMs": "300000", "usageGapAfterMs": "600000",
          "alertAfterMs": "900000", "clockSkewToleranceMs": "2000",
        ]
        values[field] = value
        if field == "staleAfterMs", !value.hasPrefix("-") { values["gapAfterMs"] = value }
        let text =
          "{" + values.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",")
          + #","memory":{"limitBytes":6291456,"warningBytes":4718592,"criticalBytes":5767168}}"#
        guard let policy = try? decode(HealthPolicy.self, text) else {
          #expect(value.hasPrefix("-") || ["0", "1"].contains(value), "\(field) \(value)")
          continue
        }
        for expectation in [TrackingExpectation.always, .sinceFirstHeartbeat] {
          let detector = GapDetector(
            boundary: fixture.boundary, expectation: expectation, policy: policy)
          let report = detector.report(
            for: fixture.day, now: fixture.now, heartbeats: fixture.beats, usage: fixture.usage)
          _ = TrackerDownAlert.evaluate(report, policy: policy)
          _ = policy.health(of: fixture.beats.last, at: .distantFuture)
          _ = policy.health(of: fixture.beats.last, at: .distantPast)
        }
      }
    }
  }

  @Test("missed numbers 0...UInt64.max count UInt64.max and take part in a report")
  func missedEverything() throws {
    let fixture = try Day()
    let missed = try decode(
      SequenceLoss.self,
      #"{"epoch":"00000000000000a1","first":0,"last":18446744073709551615,"after":"2026-03-08T13:15:00Z","#
        + #""before":"2026-03-08T13:50:00Z"}"#)
    #expect(missed.count == .max)
    let report = GapDetector(boundary: fixture.boundary, expectation: .always).report(
      for: fixture.day, now: fixture.now, heartbeats: fixture.beats, usage: fixture.usage,
      missedSequences: [missed])
    #expect(report.gaps.contains { $0.evidence.contains { $0.missed?.values == 0...UInt64.max } })
  }

  @Test("a fixed pulse time decodes to the milliseconds the merge uses, and round-trips")
  func pulseTimes() throws {
    let fixture = try Day()
    for value in Self.extremes {
      let pulse = try decode(PulseTime.self, #"{"fixedMs":\#(value)}"#)
      #expect(try decode(PulseTime.self, json(pulse)) == pulse, "fixedMs \(value)")
      _ = HeartbeatMerger.merge(fixture.beats, pulseTime: pulse)
      var merger = HeartbeatMerger<Int>(pulseTime: pulse)
      _ = try merger.add(at: fixture.t0, duration: .seconds(5), data: 1)
      _ = try merger.add(at: .distantFuture, data: 1)
      _ = merger.currentPulseTime
      let adaptive = try? decode(
        AdaptivePulseTime.self,
        #"{"initialMs":\#(value),"percentOfMedian":\#(value),"floorMs":0,"#
          + #""ceilingMs":\#(value),"sampleCount":\#(value),"minimumSamples":1}"#)
      if let adaptive {
        _ = HeartbeatMerger.merge(fixture.beats, pulseTime: .adaptive(adaptive))
      }
    }
  }

  @Test("a decoded alert's tracker-down time lies within its window and reaches its threshold")
  func trackerDownAlerts() {
    for down in Self.extremes {
      for threshold in Self.extremes {
        let text =
          #"{"windowStart":"2026-03-08T09:00:00Z","windowEnd":"2026-03-08T17:00:00Z","#
          + #""trackerDownMs":\#(down),"thresholdMs":\#(threshold)}"#
        guard let alert = try? decode(TrackerDownAlert.self, text) else { continue }
        #expect(alert.trackerDown >= alert.threshold && alert.threshold >= .milliseconds(1))
        #expect(alert.trackerDown <= alert.windowDuration)
      }
    }
    #expect(throws: DecodingError.self) {
      try decode(
        TrackerDownAlert.self,
        #"{"windowStart":"2026-03-08T17:00:00Z","windowEnd":"2026-03-08T09:00:00Z","#
          + #""trackerDownMs":1,"thresholdMs":1}"#)
    }
  }

  @Test("rates of any decoded counts describe themselves and compare with any percentage")
  func rates() throws {
    let values = ["9223372036854775807", "-1", "0", "1"]
    for count in values {
      for total in values {
        guard let rate = try? decode(Rate.self, #"{"count":\#(count),"total":\#(total)}"#)
        else { continue }
        _ = (rate.description, rate.fraction)
        for percent in [Int.min, -1, 0, 100, Int.max] { _ = rate.isBelow(percent: percent) }
      }
    }
    #expect(throws: DecodingError.self) {
      try decode(
        HealthRates.self,
        #"{"start":"2026-03-08T17:00:00Z","end":"2026-03-08T09:00:00Z","#
          + #""staleChecks":{"count":0,"total":0},"skewedChecks":{"count":0,"total":0},"#
          + #""failures":{"count":0,"total":0},"alertedSessions":{"count":0,"total":0}}"#)
    }
  }

  @Test("a decoded report with 30,000 blocks of 9,998 years each renders its SVG and text")
  func reportWithHugeBlocks() throws {
    let fixture = try Day()
    let report = DiagnosticsReport(
      day: fixture.day, now: fixture.now,
      detector: GapDetector(boundary: fixture.boundary, expectation: .always),
      heartbeats: fixture.beats, usage: fixture.usage)
    let valid = try json(report)
    let block =
      #"{"category":"gaming","end":"9999-12-29T00:00:00Z","start":"0001-01-03T00:00:00Z"}"#
    let blocks = "[" + Array(repeating: block, count: 30_000).joined(separator: ",") + "]"
    let usage = try #require(valid.range(of: #""usage":["#))
    let end = try #require(valid[usage.upperBound...].firstIndex(of: "]"))
    let planted = valid.replacingCharacters(
      in: usage.lowerBound...end, with: #""usage":"# + blocks)
    // The lanes' totals summed every block: 30,000 × 9,998 years overflowed Int64.
    let decoded = try decode(DiagnosticsReport.self, planted)
    #expect(decoded.usage.count == 30_000)
    #expect(decoded.svg.contains("Gaming"))
    #expect(!decoded.text.isEmpty)
    for count in ["-1", "-9223372036854775808"] {
      let negative = valid.replacingOccurrences(
        of: #""todaysFailureCount":0"#, with: #""todaysFailureCount":\#(count)"#)
      #expect(throws: DecodingError.self) { try decode(DiagnosticsReport.self, negative) }
    }
  }

  @Test("memory figures and thresholds of UInt64.max give a level")
  func memory() throws {
    let policy = try decode(
      MemoryPolicy.self,
      #"{"limitBytes":18446744073709551615,"warningBytes":1,"criticalBytes":18446744073709551615}"#)
    #expect(policy.level(forBytes: .max) == .warning)
    #expect(policy.level(forBytes: 0) == .normal)
  }
}
