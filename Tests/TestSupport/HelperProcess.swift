import Foundation
import SharedStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The `stk-test-helper` executable that multi-process tests spawn.
///
/// SwiftPM builds it beside the test bundle. Set `STK_TEST_HELPER` to its path to override the
/// search.
package enum HelperProcess {
  /// A failure to find, start or finish the helper.
  package struct Failure: Error, CustomStringConvertible {
    /// What went wrong.
    package var description: String

    /// A failure described by `description`.
    ///
    /// - Parameter description: What went wrong.
    package init(description: String) {
      self.description = description
    }
  }

  /// The helper executable's URL.
  ///
  /// - Returns: The URL of `stk-test-helper`.
  /// - Throws: ``Failure`` when it cannot be found.
  package static func executable() throws -> URL {
    if let override = ProcessInfo.processInfo.environment["STK_TEST_HELPER"] {
      return URL(fileURLWithPath: override)
    }
    var candidates: [URL] = []
    #if os(Linux)
    candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
    #endif
    candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]))
    if let helper = helper(near: candidates) { return helper }
    // The loaded bundles last, and only when needed: listing them crashes Swift 6.0.3's
    // Foundation as Debian packages it (a null dereference in Bundle.allBundles).
    let bundles = Bundle.allBundles.map(\.bundleURL)
    if let helper = helper(near: bundles) { return helper }
    throw Failure(
      description: "stk-test-helper not found near \((candidates + bundles).map(\.path)); "
        + "build it with `swift build --build-tests` or set STK_TEST_HELPER")
  }

  /// The helper in the folder of one of `candidates`, or up to three folders above it.
  private static func helper(near candidates: [URL]) -> URL? {
    for candidate in candidates {
      var directory = candidate.deletingLastPathComponent()
      for _ in 0..<4 {
        let helper = directory.appendingPathComponent("stk-test-helper")
        if FileManager.default.isExecutableFile(atPath: helper.path) { return helper }
        directory = directory.deletingLastPathComponent()
      }
    }
    return nil
  }

  /// Starts the helper with `arguments`, its standard output piped back.
  ///
  /// - Parameters:
  ///   - arguments: The subcommand and its options.
  ///   - mergingErrors: Whether its standard error goes to the same pipe, rather than to this
  ///     process's standard error.
  /// - Returns: The running process and the read end of its standard output.
  /// - Throws: ``Failure`` or an error from `Process.run()`.
  package static func start(_ arguments: [String], mergingErrors: Bool = false) throws -> (
    Process, FileHandle
  ) {
    let process = Process()
    process.executableURL = try executable()
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    if mergingErrors { process.standardError = output }
    try process.run()
    return (process, output.fileHandleForReading)
  }

  /// Runs the helper to completion and returns its standard output as lines.
  ///
  /// - Parameter arguments: The subcommand and its options.
  /// - Returns: The lines it printed.
  /// - Throws: ``Failure`` when it exits with a non-zero status.
  package static func run(_ arguments: [String]) throws -> [String] {
    let (process, output) = try start(arguments)
    let data = output.readDataToEndOfFile()
    waitForExit(process)
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw Failure(
        description: "stk-test-helper \(arguments.joined(separator: " ")) ended with status "
          + "\(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Runs the helper to completion within `timeLimit` and returns its output as lines; a helper
  /// still running then is killed, so that a hang fails the test instead of the run.
  ///
  /// Its standard error is part of the output, so that what a failing or crashing helper said
  /// is in the ``Failure``, not in the test run's log.
  ///
  /// - Parameters:
  ///   - arguments: The subcommand and its options.
  ///   - timeLimit: How long the helper may take.
  /// - Returns: The lines it printed.
  /// - Throws: ``Failure`` when it runs out of time, or ends with a signal or a non-zero status.
  package static func run(_ arguments: [String], timeLimit: Duration) throws -> [String] {
    let (process, output) = try start(arguments, mergingErrors: true)
    let data = LockedValue(Data())
    let reading = DispatchGroup()
    DispatchQueue.global().async(group: reading) {
      let bytes = output.readDataToEndOfFile()
      data.withLock { $0 = bytes }
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeLimit)
    while process.isRunning, clock.now < deadline { usleep(1_000) }
    let timedOut = process.isRunning
    if timedOut { kill(process) }
    waitForExit(process)
    reading.wait()
    let text = String(decoding: data.withLock { $0 }, as: UTF8.self)
    let command = "stk-test-helper \(arguments.joined(separator: " "))"
    guard !timedOut else {
      throw Failure(description: "\(command) was still running after \(timeLimit); output: \(text)")
    }
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw Failure(
        description:
          "\(command) ended with \(process.terminationReason == .exit ? "status" : "signal") "
          + "\(process.terminationStatus); output: \(text)")
    }
    return text.split(separator: "\n").map(String.init)
  }

  /// Runs several helpers at once and returns each one's output lines, in argument order.
  ///
  /// - Parameters:
  ///   - invocations: One argument list per process.
  ///   - barrier: A file to create once every process has started, for helpers started with
  ///     `--barrier` so that their loops begin together.
  /// - Returns: The lines each process printed.
  /// - Throws: ``Failure`` when any process fails.
  package static func runConcurrently(
    _ invocations: [[String]],
    releasing barrier: URL? = nil
  ) throws -> [[String]] {
    let started = try invocations.map { try start($0) }
    if let barrier, !FileManager.default.createFile(atPath: barrier.path, contents: Data()) {
      throw Failure(description: "cannot create the barrier file \(barrier.path)")
    }
    // Read every pipe on its own thread so that no child blocks on a full pipe.
    let outputs = LockedValue([Data](repeating: Data(), count: started.count))
    let group = DispatchGroup()
    for (index, (_, handle)) in started.enumerated() {
      DispatchQueue.global().async(group: group) {
        let data = handle.readDataToEndOfFile()
        outputs.withLock { $0[index] = data }
      }
    }
    group.wait()
    for (index, (process, _)) in started.enumerated() {
      waitForExit(process)
      guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        throw Failure(
          description: "stk-test-helper \(invocations[index].joined(separator: " ")) ended with "
            + "status \(process.terminationStatus)")
      }
    }
    return outputs.withLock { $0 }.map {
      String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)
    }
  }

  /// The next line of a helper's `output`, without its newline, read byte by byte so that nothing
  /// after it is consumed; what is left when the output ends without a newline.
  ///
  /// - Parameter output: The read end of a helper's standard output.
  /// - Returns: The line.
  package static func readLine(_ output: FileHandle) -> String {
    var bytes: [UInt8] = []
    while true {
      let byte = output.readData(ofLength: 1)
      guard let first = byte.first, first != UInt8(ascii: "\n") else { break }
      bytes.append(first)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Sends `SIGKILL` to a running helper and waits for it to end.
  ///
  /// - Parameter process: The helper to kill.
  package static func kill(_ process: Process) {
    posixKill(process.processIdentifier)
    waitForExit(process)
  }

  /// Waits for a helper to end, within a millisecond of its end.
  ///
  /// `Process.waitUntilExit()` alone runs the current run loop in 50 ms steps on Linux, so it
  /// returns up to 50 ms late: a suite that kills or ends hundreds of helpers waits seconds for
  /// nothing. Polling `isRunning`, which Foundation updates from its own thread, returns as soon
  /// as the end is known; `waitUntilExit()` then returns at once.
  ///
  /// - Parameter process: A helper that was started.
  package static func waitForExit(_ process: Process) {
    while process.isRunning { usleep(200) }
    process.waitUntilExit()
  }
}

private func posixKill(_ pid: Int32) { _ = kill(pid, SIGKILL) }
