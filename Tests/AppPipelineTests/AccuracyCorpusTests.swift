import Foundation
import TestSupport
import Testing

/// One scenario of the corpus with the library's reading of it.
struct CorpusRow: Sendable {
  /// The scenario.
  let scenario: PlatformScenario
  /// What the library concludes from the scenario's callbacks.
  let library: AppDayTotals

  /// The library's error against the truth over all days and apps, in percent.
  var libraryErrorPercent: Double { Self.percent(library.total, of: scenario.truth.total) }

  /// The library's largest error on one app and day, in ladder steps.
  var worstSteps: Double { Self.worstSteps(library, against: scenario.truth, scenario: scenario) }

  /// The largest difference between two readings on one app and day, in ladder steps.
  ///
  /// - Parameters:
  ///   - reading: A reading.
  ///   - truth: The reading it is compared with.
  ///   - scenario: The scenario whose ladder step is the unit.
  /// - Returns: The largest `|reading − truth|` over the app-days of either, over the step.
  /// - Complexity: O(*k*) for *k* app-days.
  static func worstSteps(
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
  static func percent(_ value: Int, of reference: Int) -> Double {
    reference == 0 ? 0 : Double(value - reference) / Double(reference) * 100
  }

  /// The table's header, as markdown.
  static let header = [
    "| scenario | truth s | revealed s | naive s | library s | naive err | library err "
      + "| worst steps |",
    "|---|--:|--:|--:|--:|--:|--:|--:|",
  ]

  /// The row, as markdown.
  var line: String {
    let cells = [
      scenario.name, "\(scenario.truth.total)", "\(scenario.revealed.total)",
      "\(scenario.naive.total)", "\(library.total)",
      String(format: "%+.1f%%", scenario.naiveErrorPercent),
      String(format: "%+.1f%%", libraryErrorPercent), String(format: "%.1f", worstSteps),
    ]
    return "| " + cells.joined(separator: " | ") + " |"
  }
}

/// Every scenario of the corpus read by the library, computed once for the whole suite.
private let corpusRows: Result<[CorpusRow], any Error> = Result {
  try PlatformCorpus.scenarios.map {
    CorpusRow(scenario: $0, library: try LibraryReading.totals(of: $0))
  }
}

/// The row of a scenario by name.
///
/// - Parameter name: A scenario's name.
/// - Returns: Its row.
/// - Throws: What reading the corpus threw, or an issue when no scenario has the name.
private func row(_ name: String) throws -> CorpusRow {
  try #require(try corpusRows.get().first { $0.scenario.name == name })
}

/// The scenarios in which the platform behaved (duplicates, reordering, a 23-hour day) and
/// every callback arrived in the interval it belongs to.
private let behaved = ["ideal", "duplicated", "out-of-order", "DST spring forward"]

/// The scenarios with one registration and every callback in its interval, where the library's
/// implausibility check has every phantom to reject.
private let oneRegistration = behaved + ["monitoring-start phantoms"]

/// The scenarios whose phantoms look plausible to the library, and the one whose zone changes:
/// every other scenario, so far, reads no more than its callbacks prove.
private let inventing = ["first-pickup phantoms", "charger phantoms", "travel Paris→New York"]

/// The scenarios whose phantoms, fired after the use they claim could have happened, the
/// library counts today (the other phantoms are rejected or lost: ``noInventedUse(name:)``).
private let plausiblePhantoms = ["first-pickup phantoms", "charger phantoms"]

/// The scenarios whose proven use the library loses today: thresholds delivered after their
/// interval ended, re-armed generations, and travel.
private let losing = [
  "late", "catch-up storm", "re-arm, counted from registration",
  "re-arm, counted from occurrence start (replays)", "midnight re-arm", "travel Paris→New York",
]

/// The library's accuracy on the platform simulator's corpus, side by side with the truth, the
/// revealed truth and the naive reading peers compute.
@Suite("Accuracy against the platform simulator")
struct AccuracyCorpusTests {
  /// Prints one markdown row per scenario, for the accuracy note to quote.
  @Test("the corpus side by side: truth, revealed, naive and library, with their errors")
  func table() throws {
    let rows = try corpusRows.get()
    #expect(rows.count == PlatformCorpus.scenarios.count)
    print((CorpusRow.header + rows.map(\.line)).joined(separator: "\n"))
  }

  /// Per app and day, the library is off the truth by at most one rung of the ladder.
  @Test(
    "rule: where the platform behaved, the library is within one ladder step per app and day",
    arguments: behaved)
  func behavedWithinOneStep(name: String) throws {
    let row = try row(name)
    #expect(row.worstSteps <= 1, "\(name): worst \(row.worstSteps) steps")
  }

  /// The library reads exactly the highest real threshold delivered per app and interval.
  @Test(
    "rule: with one registration and no late crossing, the library reads what the callbacks prove",
    arguments: oneRegistration)
  func oneRegistrationReadsRevealed(name: String) throws {
    let row = try row(name)
    #expect(row.library == row.scenario.revealed)
  }

  /// Per app and day, the library reads no more than the delivered, real thresholds prove.
  @Test(
    "rule: unless a phantom looks plausible or the zone changes, the library invents no use",
    arguments: PlatformCorpus.names.filter { !inventing.contains($0) })
  func noInventedUse(name: String) throws {
    let row = try row(name)
    for (day, app) in row.library.keys {
      #expect(row.library[day, app] <= row.scenario.revealed[day, app], "\(day) \(app)")
    }
  }

  /// Shuffles a scenario's callbacks and delivers five of them twice: the reading is unchanged.
  @Test(
    "rule: duplicating callbacks or permuting their delivery changes no library total",
    arguments: [("duplicated", UInt64(1)), ("charger phantoms", 2), ("midnight re-arm", 3)])
  func orderAndDuplicatesChangeNothing(name: String, seed: UInt64) throws {
    let row = try row(name)
    var random = SplitMix64(seed: seed)
    var callbacks = row.scenario.callbacks.shuffled(using: &random)
    for _ in 0..<5 {
      let copy = try #require(callbacks.randomElement(using: &random))
      callbacks.insert(copy, at: Int.random(in: 0...callbacks.count, using: &random))
    }
    let reading = try LibraryReading.totals(of: row.scenario, callbacks: callbacks)
    #expect(reading == row.library)
  }

  /// The control of the property above: a reading that loses callbacks compares unequal.
  @Test("control: losing one app's callbacks does change the library's reading")
  func losingCallbacksIsSeen() throws {
    let row = try row("ideal")
    let kept = row.scenario.callbacks.filter { $0.event?.hasSuffix(":com.a") != true }
    let reading = try LibraryReading.totals(of: row.scenario, callbacks: kept)
    #expect(reading != row.library)
    #expect(reading.keys.allSatisfy { $0.app != "com.a" })
  }

  // MARK: - Known gaps

  /// Per app and day, no phantom second reaches the reading: it stays at or under the truth.
  @Test(
    "rule: a lower bound counts no phantom second: at most the truth per app and day",
    .disabled("issue 18: phantom thresholds that look plausible are counted as use"),
    arguments: plausiblePhantoms)
  func noPhantomSeconds(name: String) throws {
    let row = try row(name)
    for (day, app) in row.library.keys {
      #expect(row.library[day, app] <= row.scenario.truth[day, app], "\(day) \(app)")
    }
  }

  /// Per app and day, the reading keeps every second the delivered, real thresholds prove.
  @Test(
    "rule: an upper bound is at least what the delivered callbacks prove, per app and day",
    .disabled(
      "issue 18: late deliveries across midnight, re-armed generations and travel lose use"),
    arguments: losing)
  func atLeastRevealed(name: String) throws {
    let row = try row(name)
    for (day, app) in row.scenario.revealed.keys {
      #expect(row.library[day, app] >= row.scenario.revealed[day, app], "\(day) \(app)")
    }
  }
}
