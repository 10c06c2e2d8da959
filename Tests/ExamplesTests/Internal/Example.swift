import Foundation
import TestSupport

/// An example executable of this package, run as a person runs it: a separate process, its
/// output and exit status captured.
///
/// SwiftPM builds the examples beside the test bundle, because this test target depends on
/// them. Set `STK_EXAMPLES_DIRECTORY` to the folder that holds them to override the search.
struct Example {
  /// A failure to find or start the example.
  struct Failure: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String
  }

  /// What a run printed, and how it ended.
  struct Outcome {
    /// The exit status.
    var status: Int32
    /// Standard output.
    var stdout: String
    /// Standard error.
    var stderr: String

    /// Standard output's lines.
    var lines: [String] {
      stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
  }

  /// The executable's name, for example `usage-report`.
  let name: String

  /// The folder that holds the samples of this example.
  var samples: URL {
    Self.packageRoot.appendingPathComponent("Examples/\(name)/Samples", isDirectory: true)
  }

  /// The path of a sample file.
  func sample(_ file: String) -> String { samples.appendingPathComponent(file).path }

  /// Runs the example to completion.
  ///
  /// - Parameters:
  ///   - arguments: The command line, without the program's name.
  ///   - environment: Variables to set on top of this process's environment.
  ///   - directory: The working directory; a fresh temporary one by default.
  /// - Returns: Its output and exit status.
  /// - Throws: When the executable cannot be found or started.
  func run(
    _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil
  ) throws -> Outcome {
    let scratch = try TemporaryDirectory(prefix: "stk-example")
    let stdoutURL = scratch.url.appendingPathComponent("stdout")
    let stderrURL = scratch.url.appendingPathComponent("stderr")
    for url in [stdoutURL, stderrURL]
    where !FileManager.default.createFile(atPath: url.path, contents: nil) {
      throw Failure(description: "cannot create \(url.path)")
    }
    // Files rather than pipes: nothing can block on a full pipe.
    let stdout = try FileHandle(forWritingTo: stdoutURL)
    let stderr = try FileHandle(forWritingTo: stderrURL)
    let process = Process()
    process.executableURL = try executable()
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? scratch.url
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    process.waitUntilExit()
    try stdout.close()
    try stderr.close()
    return Outcome(
      status: process.terminationReason == .exit ? process.terminationStatus : -1,
      stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self))
  }

  /// The executable, found next to the test bundle.
  private func executable() throws -> URL {
    if let folder = ProcessInfo.processInfo.environment["STK_EXAMPLES_DIRECTORY"] {
      return URL(fileURLWithPath: folder).appendingPathComponent(name)
    }
    var candidates: [URL] = []
    #if os(Linux)
    candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath())
    #endif
    candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]))
    candidates += Bundle.allBundles.map(\.bundleURL)
    for candidate in candidates {
      var directory = candidate.deletingLastPathComponent()
      for _ in 0..<4 {
        let executable = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: executable.path) { return executable }
        directory = directory.deletingLastPathComponent()
      }
    }
    throw Failure(
      description: "\(name) not found near \(candidates.map(\.path)); build it with "
        + "`swift build --build-tests` or set STK_EXAMPLES_DIRECTORY")
  }

  /// The package's root folder, found from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Internal
    .deletingLastPathComponent()  // ExamplesTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
}

/// Writes `text` to a new file in `directory` and returns its path.
func write(_ text: String, to name: String, in directory: TemporaryDirectory) throws -> String {
  let url = directory.url.appendingPathComponent(name)
  try Data(text.utf8).write(to: url)
  return url.path
}
