import Foundation

/// One scenario of the accuracy corpus with the library's reading of it: the row of the tables
/// that `AccuracyCorpusTests` prints and the Benchmarks' `accuracy` suite writes into
/// `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Accuracy.md`.
///
/// ```swift
/// let rows = try PlatformCorpus.scenarios.map(CorpusRow.init(reading:))
/// print((CorpusRow.header + rows.map(\.line)).joined(separator: "\n"))
/// ```
package struct CorpusRow: Sendable {
  /// The scenario.
  package let scenario: PlatformScenario
  /// What the library concludes from the scenario's callbacks: the upper bound.
  package let library: AppDayTotals
  /// The lower bound: what the evidence confirms.
  package let confirmed: AppDayTotals

  /// A row of readings already made.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - library: The upper bound.
  ///   - confirmed: The lower bound.
  package init(scenario: PlatformScenario, library: AppDayTotals, confirmed: AppDayTotals) {
    self.scenario = scenario
    self.library = library
    self.confirmed = confirmed
  }

  /// Reads a scenario through the library: ``LibraryReading/bounds(of:)``.
  ///
  /// - Parameter scenario: A scenario of the platform simulator.
  /// - Throws: What the folder or the pipeline throws.
  /// - Complexity: O(*d* · *n* log *n*) for *n* callbacks and *d* days.
  package init(reading scenario: PlatformScenario) throws {
    let bounds = try LibraryReading.bounds(of: scenario)
    self.init(scenario: scenario, library: bounds.upper, confirmed: bounds.lower)
  }

  /// The upper bound's error against the truth over all days and apps, in percent.
  package var libraryErrorPercent: Double {
    Self.percent(library.total, of: scenario.truth.total)
  }

  /// The lower bound's error against the truth over all days and apps, in percent.
  package var confirmedErrorPercent: Double {
    Self.percent(confirmed.total, of: scenario.truth.total)
  }

  /// The upper bound's largest error on one app and day, in ladder steps.
  package var worstSteps: Double {
    Self.worstSteps(library, against: scenario.truth, scenario: scenario)
  }

  /// The lower bound's largest error on one app and day, in ladder steps.
  package var confirmedWorstSteps: Double {
    Self.worstSteps(confirmed, against: scenario.truth, scenario: scenario)
  }

  /// The seconds the lower bound claims beyond the truth: the sum over its app-days of
  /// `max(0, lower − truth)`; 0 when the lower bound counts no phantom second.
  ///
  /// - Complexity: O(*k*) for *k* app-days.
  package var phantomSeconds: Int {
    confirmed.keys.reduce(0) { sum, key in
      sum + max(0, confirmed[key.day, key.app] - scenario.truth[key.day, key.app])
    }
  }

  /// The largest difference between two readings on one app and day, in ladder steps.
  ///
  /// - Parameters:
  ///   - reading: A reading.
  ///   - truth: The reading it is compared with.
  ///   - scenario: The scenario whose ladder step is the unit.
  /// - Returns: The largest `|reading − truth|` over the app-days of either, over the step.
  /// - Complexity: O(*k*) for *k* app-days.
  package static func worstSteps(
    _ reading: AppDayTotals, against truth: AppDayTotals, scenario: PlatformScenario
  ) -> Double {
    let keys = reading.keys + truth.keys
    let errors = keys.map { abs(reading[$0.day, $0.app] - truth[$0.day, $0.app]) }
    let worst = errors.max() ?? 0
    return Double(worst) / Double(scenario.ladderStep)
  }

  /// `value − reference` as a percentage of `reference`; 0 when the reference is 0.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - reference: The reference.
  /// - Returns: The signed error in percent.
  package static func percent(_ value: Int, of reference: Int) -> Double {
    reference == 0 ? 0 : Double(value - reference) / Double(reference) * 100
  }
}

// MARK: - The tests' table

extension CorpusRow {
  /// The header of the table `AccuracyCorpusTests` prints, as markdown.
  package static let header = [
    "| scenario | truth s | revealed s | naive s | lower s | upper s | naive err | lower err "
      + "| upper err | worst steps |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ]

  /// The row of the table `AccuracyCorpusTests` prints, as markdown.
  package var line: String {
    let cells = [
      scenario.name, "\(scenario.truth.total)", "\(scenario.revealed.total)",
      "\(scenario.naive.total)", "\(confirmed.total)", "\(library.total)",
      Self.signedPercent(scenario.naiveErrorPercent), Self.signedPercent(confirmedErrorPercent),
      Self.signedPercent(libraryErrorPercent), Self.steps(worstSteps),
    ]
    return "| " + cells.joined(separator: " | ") + " |"
  }

  /// An error in percent, signed: `+12.5%`.
  ///
  /// - Parameter percent: The error.
  /// - Returns: Its text.
  package static func signedPercent(_ percent: Double) -> String {
    String(format: "%+.1f%%", percent)
  }

  /// A count of ladder steps: `1.5`.
  ///
  /// - Parameter steps: The steps.
  /// - Returns: Its text.
  package static func steps(_ steps: Double) -> String { String(format: "%.1f", steps) }
}

// MARK: - The accuracy table

extension CorpusRow {
  /// The columns of the Benchmarks' accuracy table, in order.
  package static let accuracyColumns = [
    "scenario", "truth s", "naive s", "lower s", "upper s", "naive err", "lower err",
    "upper err", "lower worst steps", "upper worst steps", "lower phantom s",
  ]

  /// The cells of the row in the Benchmarks' accuracy table, in the order of
  /// ``accuracyColumns``.
  package var accuracyCells: [String] {
    [
      scenario.name, "\(scenario.truth.total)", "\(scenario.naive.total)",
      "\(confirmed.total)", "\(library.total)", Self.signedPercent(scenario.naiveErrorPercent),
      Self.signedPercent(confirmedErrorPercent), Self.signedPercent(libraryErrorPercent),
      Self.steps(confirmedWorstSteps), Self.steps(worstSteps), "\(phantomSeconds)",
    ]
  }
}
