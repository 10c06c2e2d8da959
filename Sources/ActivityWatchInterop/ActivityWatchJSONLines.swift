import Foundation
import GapDetection

/// Reads, writes and merges ActivityWatch events as JSON Lines: one event object per line.
///
/// Existing ActivityWatch exports (one event per line) can be merged with
/// ActivityWatch's heartbeat rule or an adaptive pulse time, and the result compared with
/// ActivityWatch's own. Every line that is not a valid event is reported with its line number
/// (``MalformedLine``) and takes no part; none is skipped silently. An empty line is malformed;
/// a final line break is not a line; a line longer than ``maximumLineLength`` is malformed too,
/// and reading goes on after it.
///
/// ```swift
/// let summary = try ActivityWatchJSONLines.merge(
///   contentsOf: export, into: merged, pulseTime: .fixed(.seconds(30)))
/// for problem in summary.malformedLines { print(problem) }
/// ```
///
/// The file merge streams: it holds one megabyte of input, one of output and the open event,
/// whatever the file's size (<doc:/ScreenTimeKit/Performance>: a million lines in well under two
/// seconds and a few megabytes).
public enum ActivityWatchJSONLines {
  /// The longest line accepted: 16 MiB, not counting its `\n`.
  public static let maximumLineLength = 16 << 20

  /// Reads every event of a JSON Lines text.
  ///
  /// - Parameters:
  ///   - data: UTF-8 text, one event per line.
  ///   - maximumReportedErrors: How many malformed lines to list; all are counted.
  /// - Returns: The events and the malformed lines.
  /// - Complexity: O(*n*) in the length of the text.
  public static func read(_ data: Data, maximumReportedErrors: Int = 1000)
    -> ActivityWatchReadResult
  {
    var collector = EventCollector(maximumReportedErrors: maximumReportedErrors)
    data.withUnsafeBytes { bytes in
      var start = 0
      var number = 0
      while start < bytes.count {
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        number += 1
        if end - start > maximumLineLength {
          collector.report(.tooLong(lineNumber: number, length: end - start))
        } else {
          collector.consume(
            LineReader.trimmed(UnsafeRawBufferPointer(rebasing: bytes[start..<end])),
            number: number)
        }
        start = end + 1
      }
      collector.result.linesRead = number
    }
    return collector.result
  }

  /// Reads every event of a JSON Lines file.
  ///
  /// - Parameters:
  ///   - url: A file URL.
  ///   - maximumReportedErrors: How many malformed lines to list; all are counted.
  /// - Returns: The events and the malformed lines.
  /// - Throws: ``ActivityWatchError/io(operation:path:errno:)``.
  public static func read(
    contentsOf url: URL, maximumReportedErrors: Int = 1000
  ) throws(ActivityWatchError) -> ActivityWatchReadResult {
    var collector = EventCollector(maximumReportedErrors: maximumReportedErrors)
    let reader = try LineReader(path: url.path, limit: maximumLineLength)
    try reader.forEachLine { line, number throws(ActivityWatchError) in
      switch line {
      case .text(let bytes): collector.consume(bytes, number: number)
      case .tooLong(let length): collector.report(.tooLong(lineNumber: number, length: length))
      }
    }
    collector.result.linesRead = reader.lineNumber
    return collector.result
  }

  /// Encodes events as JSON Lines, each line ending in `\n`.
  ///
  /// - Parameter events: The events.
  /// - Returns: UTF-8 text in ActivityWatch's event form (see ``ActivityWatchEvent``).
  public static func encode(_ events: some Sequence<ActivityWatchEvent>) -> Data {
    var output: [UInt8] = []
    var writer = EventLineWriter()
    for event in events {
      var json = event.data.json
      json.withUTF8 { bytes in
        writer.append(
          timestamp: event.startInstant, durationMicroseconds: event.durationMicroseconds,
          data: UnsafeRawBufferPointer(bytes), to: &output)
      }
    }
    return Data(output)
  }

  /// Merges the heartbeats of one JSON Lines file into events written to another, streaming.
  ///
  /// Heartbeats are merged in file order by ``/GapDetection/HeartbeatMerger``'s rule; with a fixed
  /// pulse time the output equals ActivityWatch's `heartbeat_reduce` on the same lines (timestamps
  /// to the millisecond, durations to the microsecond).
  /// The output is written to a temporary file in the same directory and renamed into place, so
  /// a failure leaves any existing `output` untouched.
  ///
  /// - Parameters:
  ///   - input: The heartbeats, one event per line.
  ///   - output: Where to write the merged events; replaced if it exists.
  ///   - pulseTime: A fixed pulse time (ActivityWatch's `pulsetime`) or an adaptive one.
  ///   - maximumReportedErrors: How many malformed lines to list; all are counted.
  /// - Returns: What was read, written and rejected.
  /// - Throws: ``ActivityWatchError/io(operation:path:errno:)`` when a file cannot be read or
  ///   written; `output` is then left as it was.
  /// - Complexity: O(*n*) in the size of the input, in constant memory.
  public static func merge(
    contentsOf input: URL, into output: URL, pulseTime: PulseTime,
    maximumReportedErrors: Int = 1000
  ) throws(ActivityWatchError) -> ActivityWatchMergeSummary {
    let reader = try LineReader(path: input.path, limit: maximumLineLength)
    let writer = try LineFileWriter(path: output.path)
    var merge = StreamingMerge(pulseTime: pulseTime, maximumReportedErrors: maximumReportedErrors)
    try reader.forEachLine { line, number throws(ActivityWatchError) in
      switch line {
      case .text(let bytes):
        try writer.append { buffer in merge.consume(bytes, number: number, output: &buffer) }
      case .tooLong(let length):
        merge.consumeTooLong(length: length, number: number)
      }
    }
    try writer.append { buffer in merge.close(into: &buffer) }
    try writer.commit()
    var summary = merge.summary
    summary.linesRead = reader.lineNumber
    return summary
  }
}

/// Collects the events of ``ActivityWatchJSONLines/read(_:maximumReportedErrors:)``.
private struct EventCollector {
  var parser = EventLineParser()
  let maximumReportedErrors: Int
  var result = ActivityWatchReadResult(
    events: [], malformedLineCount: 0, malformedLines: [], linesRead: 0)

  init(maximumReportedErrors: Int) {
    self.maximumReportedErrors = maximumReportedErrors
  }

  mutating func consume(_ line: UnsafeRawBufferPointer, number: Int) {
    do throws(JSONFailure) {
      let parsed = try parser.parse(line)
      let data = UnsafeRawBufferPointer(rebasing: line[parsed.data])
      let canonical = try ActivityWatchData.canonicalObject(data)
      result.events.append(
        ActivityWatchEvent(
          start: parsed.timestamp, durationMicroseconds: parsed.durationMicroseconds,
          data: ActivityWatchData(
            unchecked: String(decoding: data, as: UTF8.self), canonical: canonical)))
    } catch {
      report(MalformedLine(lineNumber: number, reason: error.reason))
    }
  }

  mutating func report(_ line: MalformedLine) {
    result.malformedLineCount += 1
    if result.malformedLines.count < maximumReportedErrors { result.malformedLines.append(line) }
  }
}
