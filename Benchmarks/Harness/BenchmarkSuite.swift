import Foundation

/// A group of benchmarks for one module, run by name from the command line.
struct BenchmarkSuite: Sendable {
  /// The name used on the command line, for example `sharedstore`.
  var name: String
  /// One line saying what the suite compares.
  var summary: String
  /// Runs the suite, adding rows to the report.
  var run: @Sendable (_ options: BenchmarkOptions, _ report: inout Report) throws -> Void
}

/// Command-line options shared by all suites.
struct BenchmarkOptions {
  /// Fewer iterations and smaller inputs, for a smoke run; the figures are not for recording.
  var quick = false
  /// A directory on the disk to benchmark; defaults to a fresh folder under `.build/`.
  var scratchDirectory: URL

  /// Scales an iteration count down in quick mode.
  func iterations(_ full: Int) -> Int { quick ? max(3, full / 20) : full }

  /// A fresh, empty directory under the scratch directory.
  func freshDirectory(_ name: String) throws -> URL {
    let url = scratchDirectory.appendingPathComponent(name + "-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
