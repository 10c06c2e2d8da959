import ActivityWatchInterop
import Foundation
import GapDetection

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `gap-check merge`: ActivityWatch heartbeats in, merged events out, streaming.
struct Merge {
  var pulseTime: PulseTime?
  var skipMalformed = false
  var files: [String] = []

  /// Reads the subcommand's options.
  init(_ arguments: [String]) throws(Failure) {
    var arguments = arguments[...]
    while let argument = arguments.popFirst() {
      switch argument {
      case "--adaptive": pulseTime = .adaptive(.standard)
      case "--skip-malformed": skipMalformed = true
      case "--pulsetime":
        guard let text = arguments.popFirst() else { throw .usage("--pulsetime needs a value") }
        guard let milliseconds = Self.milliseconds(text) else {
          throw .usage(
            "--pulsetime: \(text.debugDescription) is not a number of seconds such as 31 or 0.5")
        }
        pulseTime = .fixed(.milliseconds(milliseconds))
      default:
        guard !argument.hasPrefix("-") else {
          throw .usage("unknown option \(argument) of merge")
        }
        files.append(argument)
      }
    }
    guard pulseTime != nil else { throw .usage("merge needs --pulsetime SECONDS or --adaptive") }
    guard files.count == 2 else { throw .usage("merge needs an INPUT and an OUTPUT file") }
  }

  /// Seconds as exact milliseconds: `31`, `0.5`, `-2.250`; at most three decimals.
  static func milliseconds(_ text: String) -> Int64? {
    let negative = text.hasPrefix("-")
    let parts = text.dropFirst(negative ? 1 : 0).split(
      separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = parts.first, (1...12).contains(whole.count),
      whole.allSatisfy(\.isASCII), let seconds = Int64(whole)
    else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
      let digits = parts[1]
      guard (1...3).contains(digits.count), digits.allSatisfy(\.isASCII), let value = Int64(digits)
      else { return nil }
      fraction = value * [100, 10, 1][digits.count - 1]
    }
    return (negative ? -1 : 1) * (seconds * 1000 + fraction)
  }

  /// Merges INPUT into OUTPUT: into a file beside OUTPUT first, renamed over it only when the
  /// input was clean (or `--skip-malformed`), so that a damaged export writes nothing.
  func run() throws(Failure) {
    guard let pulseTime else { return }
    let (input, output) = (files[0], files[1])
    let size = try inputSize(input)
    let partial = URL(fileURLWithPath: output + ".partial-\(getpid())")
    let result = withProgress(of: input, size: size) { () throws(ActivityWatchError) in
      try ActivityWatchJSONLines.merge(
        contentsOf: URL(fileURLWithPath: input), into: partial, pulseTime: pulseTime,
        maximumReportedErrors: 1)
    }
    let summary: ActivityWatchMergeSummary
    switch result {
    case .success(let value):
      summary = value
    case .failure(.io(let operation, let path, let code)):
      // The library writes beside the file it is given, then renames: either is OUTPUT's.
      let file = path.hasPrefix(partial.path) ? output : path
      throw .input(file, "\(operation) failed: \(code)")
    case .failure(let error):
      throw .input(input, "\(error)")
    }
    if let first = summary.malformedLines.first {
      let count = summary.malformedLineCount
      let others =
        count == 1 ? "" : " (and \(count - 1) more malformed line\(count == 2 ? "" : "s"))"
      guard skipMalformed else {
        unlink(partial.path)
        throw .input(
          "\(input):\(first.lineNumber)",
          first.reason + others + "; nothing written (--skip-malformed merges the valid lines)")
      }
      FileHandle.standardError.write(
        Data("gap-check: \(input):\(first.lineNumber): \(first.reason)\(others); skipped\n".utf8))
    }
    guard rename(partial.path, output) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(partial.path)
      throw .input(output, "cannot be written: \(reason)")
    }
    print(
      "merged \(summary.heartbeatsRead) heartbeats of \(input) into \(summary.eventsWritten) "
        + "events in \(output)")
  }

  /// The size of the input in bytes; a missing file is reported here, with its name.
  private func inputSize(_ input: String) throws(Failure) -> Int64 {
    var status = stat()
    guard stat(input, &status) == 0 else { throw .input(input, String(cString: strerror(errno))) }
    guard status.st_mode & S_IFMT != S_IFDIR else {
      throw .input(input, "is a directory, not a file")
    }
    return Int64(status.st_size)
  }

  /// Runs `work` on another thread; on a terminal, shows a progress line once it has taken
  /// more than two seconds, and erases it at the end.
  private func withProgress(
    of input: String, size: Int64,
    _ work: @escaping @Sendable () throws(ActivityWatchError) -> ActivityWatchMergeSummary
  ) -> Result<ActivityWatchMergeSummary, ActivityWatchError> {
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      do throws(ActivityWatchError) {
        outcome.result = .success(try work())
      } catch {
        outcome.result = .failure(error)
      }
      done.signal()
    }
    let started = Date()
    var shown = false
    while done.wait(timeout: .now() + .seconds(1)) == .timedOut {
      let elapsed = Int(Date().timeIntervalSince(started))
      guard isatty(2) == 1, elapsed >= 2 else { continue }
      let megabytes = Int((Double(size) / 1_000_000).rounded())
      FileHandle.standardError.write(
        Data("\rgap-check: merging \(input) (\(megabytes) MB): \(elapsed) s".utf8))
      shown = true
    }
    if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    return outcome.result ?? .failure(.malformedEvent(reason: "the merge ended without a result"))
  }
}

/// The merge's result, handed from its thread to the main thread: the semaphore orders the
/// write before the read.
private final class Outcome: @unchecked Sendable {
  var result: Result<ActivityWatchMergeSummary, ActivityWatchError>?
}
