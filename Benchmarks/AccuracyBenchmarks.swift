import Foundation
import TestSupport

/// The accuracy corpus read side by side, in one run: every scenario of the platform simulator's
/// corpus (`PlatformCorpus`) with its true use, the naive reading peers compute, and the
/// library's lower and upper bounds, read by the same `CorpusRow` as `AccuracyCorpusTests`.
///
/// This suite times nothing. The harness's ``Report`` holds rows of one figure (a median and a
/// p99) against a baseline and a target, in fixed columns; an accuracy row has none of those,
/// only seconds and errors against the truth. Forcing it into ``Report/Row`` would print
/// meaningless medians and count no target, so the suite keeps its own table, printed after the
/// timing table, and its own document: `--accuracy-markdown FILE` writes the whole of
/// `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Accuracy.md`
/// (``AccuracyBenchmarks/document(rows:machine:)``). It is listed by
/// `--list` and selected by `--filter` as the timing suites are: by the suite's name or by a
/// scenario's.
///
/// ```
/// swift run Benchmarks --filter accuracy \
///   --accuracy-markdown Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Accuracy.md
/// ```
enum AccuracyBenchmarks {
  /// The suite's name on the command line.
  static let name = "accuracy"

  /// One line saying what the suite compares.
  static let summary =
    "the platform corpus: truth vs the naive reading and the library's lower and upper bounds"

  /// The scenarios a `--quick` run reads: one where the platform behaved and one of each gap
  /// the tests name, so that the smoke run crosses every kind of reading in a few seconds.
  static let quickNames = [
    "ideal", "out-of-order", "catch-up storm", "first-pickup phantoms", "travel Paris→New York",
  ]

  /// The names of the corpus's scenarios, in the corpus's order.
  static var names: [String] { PlatformCorpus.names }

  /// The scenarios a run reads.
  ///
  /// - Parameters:
  ///   - filter: The `--filter` values.
  ///   - quick: Whether the run is a `--quick` smoke run, which reads ``quickNames`` only.
  /// - Returns: The names of the scenarios to read, in the corpus's order.
  static func selected(by filter: Report.Filter, quick: Bool) -> [String] {
    names.filter { name in
      filter.keeps(suite: Self.name, scenario: name) && (!quick || quickNames.contains(name))
    }
  }

  /// Reads the named scenarios through the library.
  ///
  /// - Parameters:
  ///   - names: Names of the corpus's scenarios.
  ///   - progress: Called with each row as it is read.
  /// - Returns: One row per scenario, in the corpus's order.
  /// - Throws: What the library's pipeline throws while reading a scenario.
  /// - Complexity: O(*s* · *d* · *n* log *n*) for *s* scenarios of *n* callbacks and *d* days.
  static func read(_ names: [String], progress: (CorpusRow) -> Void) throws -> [CorpusRow] {
    try PlatformCorpus.scenarios.filter { names.contains($0.name) }.map { scenario in
      let row = try CorpusRow(reading: scenario)
      progress(row)
      return row
    }
  }

  /// The rows as one Markdown table whose columns line up in a terminal, with the columns of
  /// `CorpusRow.accuracyColumns`.
  ///
  /// - Parameters:
  ///   - rows: The rows.
  ///   - escape: Applied to every cell of the body.
  /// - Returns: The table.
  static func table(_ rows: [CorpusRow], escape: (String) -> String = { $0 }) -> String {
    Report.alignedTable(
      header: CorpusRow.accuracyColumns, body: rows.map { $0.accuracyCells.map(escape) })
  }

  /// The line printed for a row as it is read: its bounds and errors in brief.
  ///
  /// - Parameter row: A row.
  /// - Returns: The line, for standard error.
  static func progressLine(_ row: CorpusRow) -> String {
    "    \(row.scenario.name): lower "
      + CorpusRow.signedPercent(row.confirmedErrorPercent) + ", upper "
      + CorpusRow.signedPercent(row.libraryErrorPercent) + ", naive "
      + CorpusRow.signedPercent(row.scenario.naiveErrorPercent)
  }
}
