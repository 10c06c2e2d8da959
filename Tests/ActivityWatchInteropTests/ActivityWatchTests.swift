import ActivityWatchInterop
import Foundation
import GapDetection
import TestSupport
import Testing

/// Reading and writing ActivityWatch's event form, strictly and line by line.
@Suite("ActivityWatch event form")
struct ActivityWatchTests {
  @Test("an event line reads exactly, with the fraction truncated to the millisecond")
  func readsEventLine() throws {
    let event = try ActivityWatchEvent(
      jsonLine:
        #" {"id": 3, "timestamp": "2026-03-08T07:00:00.1239996+01:00", "duration": 2.5, "data": {"app": "Mail"}} "#
    )
    #expect(try event.timestamp == instant("2026-03-08T06:00:00.123Z"))
    #expect(event.duration == .milliseconds(2500))
    #expect(event.data == ActivityWatchData(["app": "Mail"]))
    #expect(
      event.jsonLine
        == #"{"timestamp":"2026-03-08T06:00:00.123+00:00","duration":2.5,"data":{"app":"Mail"}}"#)
  }

  /// Each duration's microseconds as aw-core 0.5.18 holds them:
  /// `Event(timestamp=…, duration=json.loads(text)).duration`, printed by Python 3.11.
  @Test(
    "durations are held in microseconds, converted as aw-core converts them",
    arguments: [
      ("0", 0), ("0.0", 0), ("-0", 0), ("-0e5", 0), ("-0.0000001", 0), ("-0.0000005", 0),
      ("1", 1_000_000), ("2.5", 2_500_000), ("0.0005", 500), ("0.0004999", 500), ("0.0006", 600),
      ("0.0000005", 0), ("0.0000015", 2), ("0.0000025", 2), ("0.0000035", 4), ("1.5e-06", 2),
      ("1e-7", 0), ("0.00000150000000001", 2), ("25e-1", 2_500_000), ("1E3", 1_000_000_000),
      ("0.001", 1000), ("30.000000000000000000001", 30_000_000), ("12345.6789", 12_345_678_900),
      ("3153599999.123456", 3_153_599_999_123_456),
      ("3153599999.9999995", 3_153_600_000_000_000),
      ("2000000000.0000015", 2_000_000_000_000_001), ("0.1234565", 123_456),
      ("0.1234575", 123_458), ("4.0000005", 4_000_000), ("100000.0000005", 100_000_000_001),
    ] as [(String, Int64)])
  func durations(text: String, microseconds: Int64) throws {
    let event = try ActivityWatchEvent(
      jsonLine: #"{"timestamp":"2026-03-08T06:00:00Z","duration":"# + text + #","data":{}}"#)
    #expect(event.duration == .microseconds(microseconds))
  }

  @Test(
    "a written duration reads back as the same number of seconds",
    arguments: [
      0, 1, 10, 100, 600, 999, 1000, 1001, 1_000_000, 40_000_000, 40_000_600, 123_456_789_012,
    ] as [Int64])
  func writtenDurations(microseconds: Int64) throws {
    let event = try ActivityWatchEvent(
      timestamp: Date(timeIntervalSince1970: 0), duration: .microseconds(microseconds),
      data: .empty)
    let line = event.jsonLine
    #expect(try ActivityWatchEvent(jsonLine: line) == event)
    let seconds = try #require(line.split(separator: ",").dropFirst().first)
    #expect(seconds.contains("."), "written as a float, as ActivityWatch writes it: \(line)")
    #expect(!seconds.contains("e"), "written without an exponent: \(line)")
  }

  @Test("a sub-millisecond duration merges as ActivityWatch merges it")
  func subMillisecondDurationMerges() throws {
    // aw-core 0.5.18 (heartbeat_reduce, pulsetime=1) writes two events for these lines:
    // 06:00:00 + 0.0006 s + 1 s = 06:00:01.0006, before 06:00:01.001.
    let lines = [
      #"{"timestamp": "2026-03-08T06:00:00+00:00", "duration": 0.0006, "data": {"app": "A"}}"#,
      #"{"timestamp": "2026-03-08T06:00:01.001+00:00", "duration": 0, "data": {"app": "A"}}"#,
    ]
    let read = ActivityWatchJSONLines.read(Data((lines.joined(separator: "\n") + "\n").utf8))
    let merged = ActivityWatchEvent.merge(read.events, pulseTime: .fixed(.seconds(1)))
    #expect(merged.map(\.duration) == [.microseconds(600), .zero])
    // The control: 0.001 s ends exactly at the pulse time's edge, and merges.
    let touching =
      [
        try ActivityWatchEvent(
          timestamp: try instant("2026-03-08T06:00:00Z"), duration: .microseconds(1000),
          data: try ActivityWatchData(json: #"{"app": "A"}"#))
      ] + read.events.dropFirst()
    #expect(ActivityWatchEvent.merge(touching, pulseTime: .fixed(.seconds(1))).count == 1)
  }

  @Test("an event's interval ends where aw-core's does, and its duration is exact")
  func intervalAndDuration() throws {
    let event = try ActivityWatchEvent(
      jsonLine: #"{"timestamp": "2026-03-08T06:00:00.250Z", "duration": 0.0006, "data": {}}"#)
    #expect(event.interval.start == event.timestamp)
    #expect(event.interval.end == event.end)
    #expect(event.duration == .microseconds(600))
    #expect(abs(event.interval.duration - 0.000_6) < 0.000_001)
  }

  static let malformed: [(String, String)] = [
    ("", "expected '{'"),
    ("   ", "expected '{'"),
    ("[1, 2]", "expected '{'"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1}"#, "missing field \"data\""),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "data": {}}"#, "missing field \"duration\""),
    (#"{"duration": 1, "data": {}}"#, "missing field \"timestamp\""),
    (#"{"timestamp": "2026-03-08T06:00:00", "duration": 1, "data": {}}"#, "missing UTC offset"),
    (#"{"timestamp": "2026-02-30T06:00:00Z", "duration": 1, "data": {}}"#, "no such date"),
    (
      #"{"timestamp": "2026-03-08 06:00:00Z", "duration": 1, "data": {}}"#, "expected yyyy-MM-ddTHH"
    ),
    (#"{"timestamp": "2026-03-08T24:00:00Z", "duration": 1, "data": {}}"#, "no such time"),
    (#"{"timestamp": 5, "duration": 1, "data": {}}"#, "must be a string"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": -1, "data": {}}"#, "negative"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": -0.000001, "data": {}}"#, "negative"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": "1", "data": {}}"#, "must be a number"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": 01, "data": {}}"#, "expected ',' or '}'"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": []}"#, "must be an object"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {"a": tru}}"#, "expected true"),
    (
      #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {"a": "\x"}}"#,
      "invalid escape"
    ),
    (
      #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {}, "extra": 1}"#,
      "unknown field \"extra\""
    ),
    (
      #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "duration": 2, "data": {}}"#,
      "duplicate field \"duration\""
    ),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {}} x"#, "unexpected text"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {}"#, "expected ',' or '}'"),
    (#"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1e400, "data": {}}"#, "too long"),
    (
      #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 3153600000.000001, "data": {}}"#,
      "more than 100 years"
    ),
  ]

  @Test("each malformed line is reported with its line number and the others are read")
  func malformedLinesAreReported() throws {
    let good = #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {}}"#
    var lines: [String] = []
    var expected: [(Int, String)] = []
    for (line, reason) in Self.malformed {
      lines.append(good)
      lines.append(line)
      expected.append((lines.count, reason))
    }
    let result = ActivityWatchJSONLines.read(Data((lines.joined(separator: "\n") + "\n").utf8))
    #expect(result.events.count == Self.malformed.count)
    #expect(result.linesRead == lines.count)
    #expect(result.malformedLineCount == Self.malformed.count)
    #expect(result.malformedLines.map(\.lineNumber) == expected.map(\.0))
    for (reported, (number, reason)) in zip(result.malformedLines, expected) {
      #expect(reported.reason.contains(reason), "line \(number): \(reported.reason)")
    }
  }

  @Test("invalid UTF-8 inside a string is malformed")
  func invalidUTF8() {
    var bytes = Array(#"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {"a": ""#.utf8)
    bytes += [0xC3, 0x28] + Array(#""}}"#.utf8)
    let result = ActivityWatchJSONLines.read(Data(bytes))
    #expect(result.malformedLines.first?.reason.contains("UTF-8") == true)
  }

  @Test("CRLF line ends are accepted and a final line break is not a line")
  func lineEnds() {
    let line = #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {}}"#
    let result = ActivityWatchJSONLines.read(Data((line + "\r\n" + line + "\r\n").utf8))
    #expect(result.events.count == 2)
    #expect(result.linesRead == 2)
    #expect(result.malformedLineCount == 0)
  }

  @Test("only the first malformed lines are listed, all are counted")
  func reportLimit() {
    let text = String(repeating: "nonsense\n", count: 50)
    let result = ActivityWatchJSONLines.read(Data(text.utf8), maximumReportedErrors: 10)
    #expect(result.malformedLines.map(\.lineNumber) == Array(1...10))
    #expect(result.malformedLineCount == 50)
  }

  @Test(
    "data compare as Python compares decoded JSON",
    arguments: [
      (#"{"a": 1, "b": "x"}"#, #"{"b":"x","a":1}"#, true),
      (#"{"a": "Saf\u0061ri"}"#, #"{"a": "Safari"}"#, true),
      (#"{"a": "\ud83d\ude00"}"#, #"{"a": "😀"}"#, true),
      (#"{"a": 1}"#, #"{"a": 1.0}"#, true),
      (#"{"a": 1}"#, #"{"a": 1e0}"#, true),
      (#"{"a": true}"#, #"{"a": 1}"#, true),
      (#"{"a": false}"#, #"{"a": 0.0}"#, true),
      (#"{"a": 0.1}"#, #"{"a": 0.10000000000000001}"#, true),
      (#"{"a": -0.0}"#, #"{"a": 0}"#, true),
      (#"{"a": 1, "a": 2}"#, #"{"a": 2}"#, true),
      (#"{"a": 10000000000000000001}"#, #"{"a": 1e19}"#, false),
      (#"{"a": [1, 2]}"#, #"{"a": [2, 1]}"#, false),
      (#"{"a": null}"#, #"{}"#, false),
      (#"{"a": "1"}"#, #"{"a": 1}"#, false),
      (#"{"a": {"b": 1}}"#, #"{"a": {"b": 1, "c": 2}}"#, false),
    ] as [(String, String, Bool)])
  func dataEquality(left: String, right: String, equal: Bool) throws {
    let lhs = try ActivityWatchData(json: left)
    let rhs = try ActivityWatchData(json: right)
    #expect((lhs == rhs) == equal)
    if equal { #expect(lhs.hashValue == rhs.hashValue) }
  }

  @Test("data must be one valid object")
  func invalidData() {
    for text in ["[]", "{", #"{"a"}"#, #"{"a": 1} {}"#, #"{"a": NaN}"#] {
      #expect(throws: ActivityWatchError.self, "\(text)") { try ActivityWatchData(json: text) }
    }
  }

  @Test("encoded events read back equal, in order, whatever their data's spelling")
  func encodeRoundTrip() throws {
    var random = SeededGenerator(seed: 77)
    let spellings = [
      #"{"app": "app%d", "title": "t\"\\\n%d"}"#,
      "{\n  \"app\" : \"app%d\",\n\t\"title\": \"line\\nbreak %d\"\r\n}",
      #"{ "title" : "Saf\u0061ri \u00e9 😀 %d" , "app" : "app%d" , "n" : [ 1 , 2.50 , true ] }"#,
      #"{"nested": {"a": [ {}, [] , null ], "b": " spaced  out "}, "app": "app%d", "i": %d}"#,
    ]
    let events = try (0..<200).map { index in
      let text = spellings[index % spellings.count].replacingOccurrences(of: "%d", with: "\(index)")
      return try ActivityWatchEvent(
        timestamp: Date(
          timeIntervalSince1970: Double(
            Int64.random(in: -1_000_000_000_000...4_000_000_000_000, using: &random)) / 1000),
        duration: .microseconds(Int64.random(in: 0...10_000_000_000, using: &random)),
        data: try ActivityWatchData(json: text))
    }
    let encoded = ActivityWatchJSONLines.encode(events)
    let read = ActivityWatchJSONLines.read(encoded)
    #expect(read.malformedLines.isEmpty)
    #expect(read.linesRead == events.count)
    #expect(read.events == events)
    #expect(read.events.map(\.data.json) != events.map(\.data.json), "written compactly")
  }

  @Test("an event whose data text spans lines is still written on one line")
  func prettyPrintedDataStaysOneLine() throws {
    let data = try ActivityWatchData(json: "{\n  \"app\": \"Safari\",\n  \"title\": \"a b\"\n}")
    let event = try ActivityWatchEvent(
      timestamp: Date(timeIntervalSince1970: 1_772_949_600), duration: .seconds(1), data: data)
    #expect(!event.jsonLine.contains("\n"))
    #expect(event.jsonLine.hasSuffix(#""data":{"app":"Safari","title":"a b"}}"#))
    let back = ActivityWatchJSONLines.read(ActivityWatchJSONLines.encode([event, event]))
    #expect(back.malformedLineCount == 0)
    #expect(back.events == [event, event])
  }

  @Test("the control: one millisecond less pulse time no longer matches ActivityWatch")
  func fixtureControl() throws {
    let input = try ActivityWatchJSONLines.read(
      contentsOf: fixtureURL("ActivityWatch/boundaries.input.jsonl"))
    let expected = try ActivityWatchJSONLines.read(
      contentsOf: fixtureURL("ActivityWatch/boundaries.pulse-30.expected.jsonl"))
    let merged = ActivityWatchEvent.merge(
      input.events, pulseTime: .fixed(.milliseconds(29_999)))
    #expect(merged != expected.events)
  }
}
