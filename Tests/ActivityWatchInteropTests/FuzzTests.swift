import ActivityWatchInterop
import Foundation
import GapDetection
import TestSupport
import Testing

/// Hostile JSON for ActivityWatch interop: event lines, event data and the merge summary parse,
/// write back and merge, or are rejected; they never trap or hang.
@Suite("Parsing hostile JSON never traps")
struct FuzzTests {
  /// Inputs per target; 4 targets.
  static let inputsPerTarget = 1_000

  @Test("an event line that parses writes a line that parses to the same event")
  func eventLines() throws {
    let lines = [
      #"{"id": 3, "timestamp": "2026-03-08T07:00:00.1239996+01:00", "duration": 2.5, "data": {"app": "Mail", "title": "Inbox (3)"}}"#,
      #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1e3, "data": {"nested": {"a": [1, 2.5e-3, null, true]}}}"#,
    ]
    var heartbeats: [ActivityWatchEvent] = []
    let tally = try Fuzz.runBytes(
      seeds: lines.map { Array($0.utf8) }, inputs: Self.inputsPerTarget, seed: 0x5EED_0006
    ) { bytes in
      guard let event = try? ActivityWatchEvent(jsonLine: String(decoding: bytes, as: UTF8.self))
      else { return false }
      let again = try ActivityWatchEvent(jsonLine: event.jsonLine)
      #expect(again == event, "\(String(decoding: bytes, as: UTF8.self))")
      _ = (event.end, event.interval, event.duration)
      heartbeats.append(event)
      return true
    }
    #expect(tally.inputs == Self.inputsPerTarget)
    _ = ActivityWatchEvent.merge(heartbeats, pulseTime: .fixed(.seconds(5)))
    _ = ActivityWatchEvent.merge(heartbeats.reversed(), pulseTime: .adaptive(.standard))
  }

  @Test("event data that parses is equal to itself written back")
  func eventData() throws {
    let data = ActivityWatchData(["app": "Mail", "title": "a \"quoted\" title\n"])
    let tally = try Fuzz.runBytes(
      seeds: [Array(data.json.utf8)], inputs: Self.inputsPerTarget, seed: 0x5EED_0007
    ) { bytes in
      guard let parsed = try? ActivityWatchData(json: String(decoding: bytes, as: UTF8.self))
      else { return false }
      let again = try ActivityWatchData(json: parsed.json)
      #expect(again == parsed)
      return true
    }
    #expect(tally.inputs == Self.inputsPerTarget)
  }

  @Test("a merge summary and a malformed line decode to usable values or throw")
  func summaries() throws {
    var summary = ActivityWatchMergeSummary()
    summary.linesRead = 10
    summary.heartbeatsRead = 8
    summary.eventsWritten = 2
    summary.malformedLineCount = 2
    summary.malformedLines = [MalformedLine(lineNumber: 3, reason: "missing field \"duration\"")]
    let summaries = try Fuzz.run(
      ActivityWatchMergeSummary.self, seeds: [summary], inputs: Self.inputsPerTarget,
      seed: 0x5EED_0008
    ) { _ = $0.isClean }
    let lines = try Fuzz.run(
      MalformedLine.self, seeds: summary.malformedLines, inputs: Self.inputsPerTarget,
      seed: 0x5EED_0009
    ) { _ = $0.description }
    #expect(summaries.inputs + lines.inputs == 2 * Self.inputsPerTarget)
  }
}
