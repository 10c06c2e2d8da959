import Foundation

/// A group of benchmarks for one module or concern, selected on the command line by its name.
struct BenchmarkSuite: Sendable {
  /// The name used on the command line and in the table's first column, for example
  /// `sharedstore`.
  var name: String
  /// One line saying what the suite compares.
  var summary: String
  /// The suite's scenarios, run in this order.
  var scenarios: [Scenario]
}

/// Work that shares one setup and adds one or more rows to the report.
struct Scenario: Sendable {
  /// The scenario names of the rows it adds, known before it runs, so that `--filter` can select
  /// it and `--list` can show it.
  var rows: [String]
  /// Runs the scenario, adding its rows to the report.
  var run: @Sendable (_ options: BenchmarkOptions, _ report: inout Report) throws -> Void

  init(
    _ rows: [String],
    run: @escaping @Sendable (_ options: BenchmarkOptions, _ report: inout Report) throws -> Void
  ) {
    self.rows = rows
    self.run = run
  }
}

/// Command-line options shared by all suites.
struct BenchmarkOptions: Sendable {
  /// Fewer iterations and smaller inputs, for a smoke run; the figures are not for recording.
  var quick = false
  /// A directory on the disk to benchmark; defaults to a fresh folder under `.build/`.
  var scratchDirectory: URL

  /// Scales an iteration count down in quick mode.
  func iterations(_ full: Int) -> Int { quick ? max(3, full / 20) : full }

  /// `full`, or `smoke` in quick mode.
  func size(_ full: Int, quick smoke: Int) -> Int { quick ? smoke : full }

  /// A fresh, empty directory under the scratch directory.
  func freshDirectory(_ name: String) throws -> URL {
    let url = scratchDirectory.appendingPathComponent(name + "-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// A benchmark that did not see what it set up.
struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension Int {
  /// The number with thousands separators, the same in every locale: `1,000,000`.
  var grouped: String {
    let digits = String(magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return (self < 0 ? "-" : "") + result
  }
}
