import Foundation
import GapDetection

/// The merge of ``ActivityWatchJSONLines/merge(contentsOf:into:pulseTime:maximumReportedErrors:)``,
/// one line at a time: it keeps only the open event (its data as the raw bytes of the first
/// heartbeat), so memory does not grow with the file.
///
/// Data are compared byte for byte first; only when the bytes differ are both canonicalised
/// (see ``ActivityWatchData``), and the open event's canonical form is kept for the next line.
/// The open event's start and end are in microseconds, as aw-core holds them.
struct StreamingMerge {
  private var parser = EventLineParser()
  private var writer = EventLineWriter()
  private var estimator: PulseEstimator
  /// The open event's start and end, in microseconds.
  private var openStart: Int64 = 0
  private var openEnd: Int64 = 0
  private var isOpen = false
  private var openData: [UInt8] = []
  private var openCanonical: [UInt8]?
  private let maximumReportedErrors: Int
  private(set) var summary = ActivityWatchMergeSummary()

  init(pulseTime: PulseTime, maximumReportedErrors: Int) {
    estimator = PulseEstimator(pulseTime)
    self.maximumReportedErrors = maximumReportedErrors
  }

  mutating func consume(_ line: UnsafeRawBufferPointer, number: Int, output: inout [UInt8]) {
    summary.linesRead = number
    let parsed: EventLineParser.Parsed
    do {
      parsed = try parser.parse(line)
    } catch {
      report(MalformedLine(lineNumber: number, reason: error.reason))
      return
    }
    let data = UnsafeRawBufferPointer(rebasing: line[parsed.data])
    summary.heartbeatsRead += 1
    let start = parsed.timestamp * 1000
    let end = start + parsed.durationMicroseconds
    let withinPulse = isOpen && estimator.allows(gapMicroseconds: start - openEnd)
    estimator.observe(start: parsed.timestamp)
    if withinPulse, start >= openStart {
      switch sameData(data) {
      case .success(true):
        openEnd = max(openEnd, end)
        return
      case .success(false):
        break
      case .failure(let failure):
        report(MalformedLine(lineNumber: number, reason: "data: " + failure.reason))
        return
      }
    }
    close(into: &output)
    isOpen = true
    openStart = start
    openEnd = end
    openData.removeAll(keepingCapacity: true)
    openData.append(contentsOf: data)
    openCanonical = nil
  }

  /// Writes the open event, if any.
  mutating func close(into output: inout [UInt8]) {
    guard isOpen else { return }
    openData.withUnsafeBytes { data in
      writer.append(
        timestamp: openStart / 1000, durationMicroseconds: openEnd - openStart, data: data,
        to: &output)
    }
    summary.eventsWritten += 1
    isOpen = false
  }

  private mutating func sameData(_ data: UnsafeRawBufferPointer) -> Result<Bool, JSONFailure> {
    let identical = openData.withUnsafeBytes { open in
      guard open.count == data.count else { return false }
      guard let left = open.baseAddress, let right = data.baseAddress else { return true }
      return memcmp(left, right, data.count) == 0
    }
    if identical {
      return .success(true)
    }
    do throws(JSONFailure) {
      let canonical = try ActivityWatchData.canonicalObject(data)
      if openCanonical == nil {
        openCanonical = try openData.withUnsafeBytes { bytes in
          Result { () throws(JSONFailure) in try ActivityWatchData.canonicalObject(bytes) }
        }.get()
      }
      return .success(canonical == openCanonical)
    } catch {
      return .failure(error)
    }
  }

  /// Reports a line longer than the reader accepts; it takes no part in the merge.
  mutating func consumeTooLong(length: Int, number: Int) {
    summary.linesRead = number
    report(MalformedLine.tooLong(lineNumber: number, length: length))
  }

  private mutating func report(_ line: MalformedLine) {
    summary.malformedLineCount += 1
    if summary.malformedLines.count < maximumReportedErrors { summary.malformedLines.append(line) }
  }
}
