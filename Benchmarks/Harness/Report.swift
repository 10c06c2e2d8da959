import Foundation

/// The rows of one benchmark run, each a figure compared with a baseline measured in the same
/// run, and the targets they meet or miss.
struct Report {
  /// One line of the table.
  struct Row {
    /// The suite that measured it, for example `sharedstore`.
    var suite: String
    /// What was measured, as the table prints it; `--filter` matches it.
    var scenario: String
    /// How much work one sample is, and how many samples: `256-byte value × 400`.
    var workSize: String
    /// The measured figure.
    var figure: Figure
    /// What the figure is compared with, measured in the same run.
    var baseline: Baseline?
    /// The bound on ``ratio``, or `nil` for a row that informs only.
    var target: Target?
    /// The physical limit behind the target, one sentence: why the ratio cannot be much lower,
    /// and what would push it past the target.
    var limit: String?
    /// Free text: the workload's details and figures that are not in the columns.
    var note: String

    /// The figure's median over the baseline's, or `nil` without a usable baseline.
    var ratio: Double? {
      guard let baseline, baseline.median > 0, figure.median.isFinite else { return nil }
      return figure.median / baseline.median
    }

    /// Whether the target was met, or `nil` for a row without a target; a target without a
    /// ratio (a baseline of zero) is missed, never passed.
    var result: Result? {
      guard let target else { return nil }
      guard let ratio else { return .miss }
      return ratio <= target.maximumRatio ? .pass : .miss
    }
  }

  /// A row's measured figure: a median and a 99th percentile in one unit.
  struct Figure {
    var unit: Unit
    var median: Double
    var p99: Double

    /// The median and 99th percentile of a timing.
    init(_ measurement: Measurement) {
      unit = measurement.clock == .cpu ? .cpuSeconds : .seconds
      median = measurement.median.seconds
      p99 = measurement.p99.seconds
    }

    /// A count of bytes, measured once.
    init(bytes: Int) {
      unit = .bytes
      median = Double(bytes)
      p99 = Double(bytes)
    }
  }

  /// What a figure counts.
  enum Unit: String {
    /// Elapsed seconds.
    case seconds
    /// Seconds of the process's CPU time (``TimeBase/cpu``).
    case cpuSeconds = "cpu-seconds"
    case bytes

    /// `value` in this unit, for a person: `41.3 µs`, `1.52 s CPU`, `724,992 B`.
    func format(_ value: Double) -> String {
      switch self {
      case .seconds: return Duration.seconds(value).formatted
      case .cpuSeconds: return Duration.seconds(value).formatted + " CPU"
      case .bytes: return Int(value.rounded()).grouped + " B"
      }
    }
  }

  /// What a figure is compared with: a name and a median in the figure's unit.
  struct Baseline {
    var name: String
    var median: Double

    /// The median of a timing measured in the same run.
    init(_ measurement: Measurement) {
      name = measurement.name
      median = measurement.median.seconds
    }

    /// A count of bytes.
    init(name: String, bytes: Int) {
      self.name = name
      median = Double(bytes)
    }
  }

  /// A bound on the ratio of a row: its median over its baseline's.
  struct Target {
    /// The largest ratio that meets the target.
    var maximumRatio: Double
    /// The target as the table prints it.
    var text: String

    /// The ratio must be at most `limit`: `≤ 1.3×`.
    static func atMost(_ limit: Double) -> Target {
      Target(maximumRatio: limit, text: String(format: "≤ %g×", limit))
    }

    /// The figure must be at least `factor` times smaller than the baseline: `≥ 50× faster`.
    static func atLeastFaster(_ factor: Double) -> Target {
      Target(maximumRatio: 1 / factor, text: String(format: "≥ %.0f× faster", factor))
    }
  }

  /// Whether a row met its target.
  enum Result: String {
    case pass = "PASS"
    case miss = "MISS"
  }

  /// The rows added so far, in order.
  private(set) var rows: [Row] = []
  /// The scenarios the running scenario declared; ``add(_:)`` refuses any other.
  var expectedScenarios: Set<String> = []
  /// Which of the added rows to keep.
  var filter = Filter()
  /// Called with each row kept, as it is added, to show progress.
  var onAdd: (Row) -> Void = { _ in }

  /// Adds a row, if the filter keeps it.
  ///
  /// A row whose scenario its scenario did not declare is a mistake in the benchmark: the
  /// filter and `--list` could not know it.
  mutating func add(_ row: Row) {
    precondition(
      expectedScenarios.contains(row.scenario),
      "the row '\(row.scenario)' is not declared by its scenario")
    guard filter.keeps(suite: row.suite, scenario: row.scenario) else { return }
    rows.append(row)
    onAdd(row)
  }

  /// Scenarios that could not be measured on this system, with the reason.
  private(set) var skipped: [(scenario: String, reason: String)] = []

  /// Records that `scenario` could not be measured here, and why.
  mutating func skip(_ scenario: String, reason: String) {
    skipped.append((scenario, reason))
    FileHandle.standardError.write(Data("  skipped \(scenario): \(reason)\n".utf8))
  }

  /// The scenarios that threw instead of measuring, with the error.
  private(set) var failures: [(scenario: String, error: String)] = []

  /// Records that `scenario` failed to run: its targets count as neither PASS nor MISS, and the
  /// summary line says so.
  mutating func fail(_ scenario: String, error: String) {
    failures.append((scenario, error))
  }

  /// The rows with a target, and how many passed and missed.
  var summary: (targets: Int, passed: Int, missed: Int) {
    let results = rows.compactMap(\.result)
    let passed = results.filter { $0 == .pass }.count
    return (results.count, passed, results.count - passed)
  }

  /// The run's last line: `12 targets: 11 PASS, 1 MISS`, then the scenarios skipped or failed,
  /// if any: `; 1 skipped; 1 FAILED to run`.
  var summaryLine: String {
    let (targets, passed, missed) = summary
    var line = "\(targets) targets: \(passed) PASS, \(missed) MISS"
    if !skipped.isEmpty { line += "; \(skipped.count) skipped" }
    if !failures.isEmpty { line += "; \(failures.count) FAILED to run" }
    return line
  }
}

// MARK: - Selecting rows

extension Report {
  /// The `--filter` values, which select scenarios.
  ///
  /// A scenario is selected when a value names its suite or is part of its name (both ignoring
  /// case). No values select everything.
  struct Filter {
    var values: [String] = []

    /// Whether `scenario` of `suite` is selected.
    func keeps(suite: String, scenario: String) -> Bool {
      values.isEmpty
        || values.contains { value in
          suite.caseInsensitiveCompare(value) == .orderedSame
            || scenario.range(of: value, options: .caseInsensitive) != nil
        }
    }
  }
}

// MARK: - The table

extension Report {
  /// The columns of the table, as printed and as written into Performance.md.
  static let columns = [
    "suite", "scenario", "work size", "median", "p99", "baseline", "baseline median", "ratio",
    "target", "result",
  ]

  /// The cells of `row`, in the order of ``columns``.
  static func cells(_ row: Row) -> [String] {
    let unit = row.figure.unit
    var ratio = row.ratio.map(ratioText) ?? "—"
    if let value = row.ratio, let target = row.target, target.maximumRatio < 1, value > 0 {
      ratio += String(format: " (%.0f× faster)", 1 / value)
    }
    return [
      row.suite, row.scenario, row.workSize, unit.format(row.figure.median),
      unit.format(row.figure.p99), row.baseline?.name ?? "—",
      row.baseline.map { unit.format($0.median) } ?? "—", ratio, row.target?.text ?? "—",
      row.result?.rawValue ?? "—",
    ]
  }

  /// The rows as one Markdown table whose columns line up in a terminal.
  ///
  /// - Parameters:
  ///   - extraColumns: Columns after ``columns``.
  ///   - escape: Applied to every cell of the body.
  ///   - extraCells: The cells of the extra columns of a row, given its index.
  /// - Returns: The table, a line per row after the header and the rule.
  func table(
    extraColumns: [String] = [], escape: (String) -> String = { $0 },
    extraCells: (Int, Row) -> [String] = { _, _ in [] }
  ) -> String {
    let header = Self.columns + extraColumns
    let body = rows.enumerated().map { index, row in
      (Self.cells(row) + extraCells(index, row)).map(escape)
    }
    return Self.alignedTable(header: header, body: body)
  }

  /// A Markdown table whose columns line up in a terminal.
  ///
  /// - Parameters:
  ///   - header: The header's cells.
  ///   - body: The cells of each line, as many as the header's.
  /// - Returns: The table, a line per body line after the header and the rule.
  static func alignedTable(header: [String], body: [[String]]) -> String {
    var widths = header.map(\.count)
    for cells in body {
      for (index, cell) in cells.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
      let padded = cells.enumerated().map { index, cell in
        cell + String(repeating: " ", count: widths[index] - cell.count)
      }
      return "| " + padded.joined(separator: " | ") + " |"
    }
    let rule =
      "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
    return ([line(header), rule] + body.map(line)).joined(separator: "\n")
  }
}

/// A ratio as printed: three significant digits, `0.0102×`, `1.17×`, `28.6×`.
func ratioText(_ ratio: Double) -> String {
  switch ratio {
  case ..<0.1: return String(format: "%.3g×", ratio)
  case ..<10: return String(format: "%.2f×", ratio)
  default: return String(format: "%.1f×", ratio)
  }
}
