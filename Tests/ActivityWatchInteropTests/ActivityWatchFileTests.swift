import ActivityWatchInterop
import Foundation
import GapDetection
import TestSupport
import Testing

/// ActivityWatch JSON Lines files: over-long lines, failed merges and malformed lines.
@Suite("ActivityWatch files")
struct ActivityWatchFileTests {
  /// A line longer than the limit between valid ones.
  static func overLongText() -> Data {
    let good = #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 1, "data": {}}"#
    var text = Data((good + "\n").utf8)
    text.append(Data(repeating: 0x20, count: ActivityWatchJSONLines.maximumLineLength + 10))
    text.append(Data(("\n" + good + "\n" + good).utf8))
    return text
  }

  @Test("a line longer than 16 MiB is reported as malformed and the lines after it are read")
  func overLongLineIsMalformed() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("stk-aw-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.jsonl")
    try Self.overLongText().write(to: input)
    let length = ActivityWatchJSONLines.maximumLineLength + 10
    for result in [
      ActivityWatchJSONLines.read(Self.overLongText()),
      try ActivityWatchJSONLines.read(contentsOf: input),
    ] {
      #expect(result.events.count == 3)
      #expect(result.linesRead == 4)
      #expect(result.malformedLines.map(\.lineNumber) == [2])
      #expect(result.malformedLines.first?.reason.hasPrefix("\(length) bytes, longer than") == true)
    }
    let summary = try ActivityWatchJSONLines.merge(
      contentsOf: input, into: directory.appendingPathComponent("out.jsonl"),
      pulseTime: .fixed(.seconds(30)))
    #expect(summary.heartbeatsRead == 3)
    #expect(summary.linesRead == 4)
    #expect(summary.malformedLines.map(\.lineNumber) == [2])
    // The control: a line of exactly the limit is read (and is malformed only as JSON).
    var exact = Data(repeating: 0x20, count: ActivityWatchJSONLines.maximumLineLength)
    exact.append(Data("\n".utf8))
    let read = ActivityWatchJSONLines.read(exact)
    #expect(read.malformedLines.first?.reason.contains("expected '{'") == true)
  }

  @Test("a failed merge leaves an existing output untouched")
  func failedMergeLeavesOutput() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("stk-aw-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("out.jsonl")
    try Data("previous".utf8).write(to: output)
    let missing = directory.appendingPathComponent("missing.jsonl")
    #expect(throws: ActivityWatchError.self) {
      try ActivityWatchJSONLines.merge(
        contentsOf: missing, into: output, pulseTime: .fixed(.seconds(1)))
    }
    #expect(try Data(contentsOf: output) == Data("previous".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.jsonl"])
  }

  @Test("the file merge reports malformed lines and merges the rest")
  func mergeReportsMalformedLines() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("stk-aw-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.jsonl")
    let output = directory.appendingPathComponent("out.jsonl")
    let lines = [
      #"{"timestamp": "2026-03-08T06:00:00Z", "duration": 0, "data": {"app": "a"}}"#,
      "garbage",
      #"{"timestamp": "2026-03-08T06:00:10Z", "duration": 0, "data": {"app": "a"}}"#,
      #"{"timestamp": "2026-03-08T06:00:20Z", "duration": 0, "data": {"app": "b"}}"#,
    ]
    try Data(lines.joined(separator: "\n").utf8).write(to: input)
    let summary = try ActivityWatchJSONLines.merge(
      contentsOf: input, into: output, pulseTime: .fixed(.seconds(30)))
    #expect(summary.linesRead == 4)
    #expect(summary.heartbeatsRead == 3)
    #expect(summary.eventsWritten == 2)
    #expect(summary.malformedLines.map(\.lineNumber) == [2])
    #expect(!summary.isClean)
    let written = try String(contentsOf: output, encoding: .utf8)
    #expect(
      written
        == #"{"timestamp":"2026-03-08T06:00:00+00:00","duration":10.0,"data":{"app":"a"}}"# + "\n"
        + #"{"timestamp":"2026-03-08T06:00:20+00:00","duration":0.0,"data":{"app":"b"}}"# + "\n")
  }
}
