import ActivityWatchInterop
import Foundation
import GapDetection
import TestSupport
import Testing

/// Values no sane caller or file passes to ActivityWatch interop: each gives a defined result or
/// a typed error, never a trap, a hang or unbounded memory.
@Suite("Hostile values give a defined result or a typed error")
struct HostileValueTests {
  @Test("an event at an unusable instant or of an unusable duration is a typed error")
  func unusableEvents() throws {
    let start = try instant("2026-03-08T09:00:00Z")
    for date in [
      Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity), .distantPast,
    ] {
      #expect(throws: ActivityWatchError.self) {
        try ActivityWatchEvent(timestamp: date, duration: .zero, data: .empty)
      }
    }
    for duration in [
      Duration.seconds(Int64.max), .seconds(Int64.min), .nanoseconds(-1),
      .seconds(101 * 365 * 86_400),
    ] {
      #expect(throws: ActivityWatchError.self) {
        try ActivityWatchEvent(timestamp: start, duration: duration, data: .empty)
      }
    }
    // Date.distantFuture is supported; an event there may not last past 9999-12-29.
    _ = try ActivityWatchEvent(timestamp: .distantFuture, duration: .seconds(60), data: .empty)
  }

  @Test("hostile lines are counted as malformed, each with its reason; none traps")
  func hostileLines() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let lines = [
      #"{"timestamp":"2026-03-08T09:00:00Z","duration":1e400,"data":{}}"#,
      #"{"timestamp":"2026-03-08T09:00:00Z","duration":-1,"data":{}}"#,
      #"{"timestamp":"2026-03-08T09:00:00Z","duration":NaN,"data":{}}"#,
      #"{"timestamp":"0000-01-01T00:00:00Z","duration":0,"data":{}}"#,
      #"{"timestamp":"2026-03-08T09:00:00Z","duration":0,"data":\#(deep)}"#,
      #"{"timestamp":"2026-03-08T09:00:00Z","duration":0,"data":{"a":\#(deep)}}"#,
      "", "\u{0}", String(repeating: " ", count: 1 << 20),
      #"{"timestamp":"2026-03-08T09:00:00Z","duration":0,"data":{"t":"\#(String(repeating: "x", count: 1 << 20))"}}"#,
    ]
    let result = ActivityWatchJSONLines.read(Data(lines.joined(separator: "\n").utf8))
    #expect(result.linesRead == lines.count)
    #expect(result.events.count == 1)
    #expect(result.malformedLineCount == lines.count - 1)
    let small = Data(lines.prefix(4).joined(separator: "\n").utf8)
    for limit in [Int.min, -1, 0, Int.max] {
      let limited = ActivityWatchJSONLines.read(small, maximumReportedErrors: limit)
      #expect(limited.malformedLineCount == 4)
      #expect(limited.malformedLines.count == max(0, min(limit, 4)))
    }
  }

  @Test("heartbeats out of order or at the ends of time merge into a defined list")
  func mergeHostileHeartbeats() throws {
    let start = try instant("2026-03-08T09:00:00Z")
    let heartbeats = try [
      ActivityWatchEvent(timestamp: .distantFuture, duration: .seconds(1), data: .empty),
      ActivityWatchEvent(timestamp: start, duration: .seconds(60), data: .empty),
      ActivityWatchEvent(
        timestamp: start.addingTimeInterval(-3_600), duration: .zero, data: .empty),
      ActivityWatchEvent(
        timestamp: Date(timeIntervalSince1970: -62_135_424_000), duration: .zero, data: .empty),
    ]
    for pulse in [
      PulseTime.fixed(.seconds(Int64.max)), .fixed(.seconds(Int64.min)), .adaptive(.standard),
    ] {
      let merged = ActivityWatchEvent.merge(heartbeats, pulseTime: pulse)
      #expect(!merged.isEmpty && merged.count <= heartbeats.count)
    }
  }

  @Test("a summary or malformed line with a negative count or line number does not decode")
  func negativeCounts() throws {
    for field in ["linesRead", "heartbeatsRead", "eventsWritten", "malformedLineCount"] {
      var values = [
        "linesRead": 1, "heartbeatsRead": 1, "eventsWritten": 1, "malformedLineCount": 0,
      ]
      values[field] = -1
      let text =
        "{" + values.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",")
        + #","malformedLines":[]}"#
      #expect(throws: DecodingError.self) { try decode(ActivityWatchMergeSummary.self, text) }
    }
    for line in [0, -1, Int.min] {
      #expect(throws: DecodingError.self) {
        try decode(MalformedLine.self, #"{"lineNumber":\#(line),"reason":"r"}"#)
      }
    }
    let line = try decode(MalformedLine.self, #"{"lineNumber":9223372036854775807,"reason":""}"#)
    #expect(line.description == "line 9223372036854775807: ")
  }
}
