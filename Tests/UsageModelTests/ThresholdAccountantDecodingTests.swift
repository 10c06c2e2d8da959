import Foundation
import Testing
import UsageModel

/// Decoding a persisted accountant: whatever the document, a value that answers every query.
@Suite("Threshold accountant decoding")
struct ThresholdAccountantDecodingTests {
  let midnight: Date

  init() throws {
    midnight = try instant("2026-01-02T00:00:00-05:00")
  }

  /// An accountant's JSON with one interval whose `apps` are given by `apps`, and a second
  /// interval starting at `secondStart` when it is not `nil`.
  static func accountantJSON(apps: String, secondStart: String? = nil) -> String {
    let interval = { (start: String) in
      #"{"start":"\#(start)","apps":[\#(apps)],"implausibleEvents":[]}"#
    }
    let intervals = [interval("2026-01-02T05:00:00Z")] + (secondStart.map { [interval($0)] } ?? [])
    return #"{"timeZone":"America/New_York","toleranceMs":0,"intervals":["#
      + intervals.joined(separator: ",") + "]}"
  }

  static let appEntryA = #"{"app":"com.a","highestMs":60000,"reachedAt":"2026-01-02T06:00:00Z"}"#
  static let appEntryA2 = #"{"app":"com.a","highestMs":120000,"reachedAt":"2026-01-02T07:00:00Z"}"#
  static let appEntryB = #"{"app":"com.b","highestMs":60000,"reachedAt":"2026-01-02T06:00:00Z"}"#

  @Test("decoding rejects an interval that lists one app twice, instead of trapping on query")
  func decodingRejectsAnAppListedTwice() throws {
    // Control: the same document with two different apps decodes and answers queries.
    let valid = try decode(
      ThresholdAccountant.self, Self.accountantJSON(apps: Self.appEntryB + "," + Self.appEntryA))
    #expect(
      try valid.usage(inIntervalStartingAt: midnight) == [
        app("com.a"): .minutes(1), app("com.b"): .minutes(1),
      ])
    // The repeated entries need not be adjacent in the document: decoding sorts them first.
    let repeated = [
      Self.appEntryA + "," + Self.appEntryA2,
      Self.appEntryA2 + "," + Self.appEntryB + "," + Self.appEntryA,
    ]
    for apps in repeated {
      #expect(throws: DecodingError.self, "\(apps)") {
        try decode(ThresholdAccountant.self, Self.accountantJSON(apps: apps))
      }
      #expect(throws: DecodingError.self, "\(apps)") {
        try decode(
          MonitoringIntervalUsage.self,
          #"{"start":"2026-01-02T05:00:00Z","apps":["# + apps + #"],"implausibleEvents":[]}"#)
      }
    }
  }

  @Test("decoding rejects two intervals with the same start")
  func decodingRejectsTwoIntervalsWithOneStart() throws {
    let distinct = try decode(
      ThresholdAccountant.self,
      Self.accountantJSON(apps: Self.appEntryA, secondStart: "2026-01-03T05:00:00Z"))
    #expect(distinct.intervals.count == 2)
    #expect(throws: DecodingError.self) {
      try decode(
        ThresholdAccountant.self,
        Self.accountantJSON(apps: Self.appEntryA, secondStart: "2026-01-02T05:00:00Z"))
    }
  }
}
