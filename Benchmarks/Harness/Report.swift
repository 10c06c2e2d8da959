import Foundation

/// The rows a benchmark run prints, as a Markdown table ready for `Documentation/Performance.md`.
struct Report {
  /// One line of the table: a measurement compared with a baseline from the same run.
  struct Row {
    var suite: String
    var measurement: Measurement
    var baseline: Measurement?
    /// What the ratio must satisfy, for example `≤ 1.3×`; `nil` when the row is informative.
    var target: Target?
    /// Free text shown in the last column.
    var note: String = ""
    /// For a row that compares quantities other than time (bytes written, say): the ratio to
    /// show and to hold the target to, in place of the medians'; the note says what it is.
    var ratioOverride: Double? = nil
  }

  /// A bound on `median / baseline median`.
  enum Target {
    case atMost(Double)
    case atLeastFaster(Double)

    func isMet(by ratio: Double) -> Bool {
      switch self {
      case .atMost(let limit): return ratio <= limit
      case .atLeastFaster(let factor): return ratio > 0 && 1 / ratio >= factor
      }
    }

    var text: String {
      switch self {
      case .atMost(let limit): return String(format: "≤ %.1f×", limit)
      case .atLeastFaster(let factor): return String(format: "≥ %.0f× faster", factor)
      }
    }
  }

  private(set) var rows: [Row] = []

  /// Adds a row and prints it at once, so that a long run shows progress.
  mutating func add(_ row: Row) {
    rows.append(row)
    print(Self.format(row))
  }

  /// Whether every row with a target met it.
  var allTargetsMet: Bool {
    rows.allSatisfy { row in
      guard let target = row.target, let ratio = Self.ratio(row) else { return true }
      return target.isMet(by: ratio)
    }
  }

  static let header = """
    | suite | measurement | median | p99 | baseline | baseline median | ratio | target | met | note |
    |---|---|---|---|---|---|---|---|---|---|
    """

  static func ratio(_ row: Row) -> Double? {
    if let ratio = row.ratioOverride { return ratio }
    guard let baseline = row.baseline else { return nil }
    return row.measurement.median.seconds / baseline.median.seconds
  }

  static func format(_ row: Row) -> String {
    let ratio = ratio(row)
    let ratioText = ratio.map { String(format: "%.2f×", $0) } ?? "—"
    let met: String
    if let target = row.target, let ratio {
      met = target.isMet(by: ratio) ? "yes" : "**no**"
    } else {
      met = "—"
    }
    return [
      row.suite, row.measurement.name, row.measurement.median.formatted,
      row.measurement.p99.formatted, row.baseline?.name ?? "—",
      row.baseline?.median.formatted ?? "—", ratioText, row.target?.text ?? "—", met, row.note,
    ].joined(separator: " | ").wrapped
  }
}

extension String {
  fileprivate var wrapped: String { "| " + self + " |" }
}
