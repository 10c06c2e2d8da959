import Foundation
import TestSupport
import Testing

/// Every scenario of the corpus read by the library, computed once for the whole suite.
private let corpusRows: Result<[CorpusRow], any Error> = Result {
  try PlatformCorpus.scenarios.map(CorpusRow.init(reading:))
}

/// The row of a scenario by name.
///
/// - Parameter name: A scenario's name.
/// - Returns: Its row.
/// - Throws: What reading the corpus threw, or an issue when no scenario has the name.
private func row(_ name: String) throws -> CorpusRow {
  try #require(try corpusRows.get().first { $0.scenario.name == name })
}

/// The scenarios where the platform behaved (see `CorpusRules`).
private let behaved = CorpusRules.behaved

/// The library's accuracy on the platform simulator's corpus, side by side with the truth, the
/// revealed truth and the naive reading peers compute.
@Suite("Accuracy against the platform simulator")
struct AccuracyCorpusTests {
  /// Prints one markdown row per scenario, for the accuracy note to quote.
  @Test("the corpus side by side: truth, revealed, naive, lower and upper, with their errors")
  func table() throws {
    let rows = try corpusRows.get()
    #expect(rows.count == PlatformCorpus.scenarios.count)
    print((CorpusRow.header + rows.map(\.line)).joined(separator: "\n"))
  }

  /// Per app and day, both bounds are within one rung of the ladder of the truth.
  @Test(
    "rule: where the platform behaved, both bounds are within one ladder step per app and day",
    arguments: behaved)
  func behavedWithinOneStep(name: String) throws {
    let row = try row(name)
    #expect(row.worstSteps <= 1, "\(name): upper worst \(row.worstSteps) steps")
    let lower = CorpusRow.worstSteps(
      row.confirmed, against: row.scenario.truth, scenario: row.scenario)
    #expect(lower <= 1, "\(name): lower worst \(lower) steps")
  }

  /// Per app and day, the lower bound counts no second the person did not use.
  @Test(
    "rule: the lower bound counts no phantom second: at most the truth per app and day",
    arguments: PlatformCorpus.names)
  func lowerHasNoPhantomSeconds(name: String) throws {
    let row = try row(name)
    for (day, app) in row.confirmed.keys {
      #expect(row.confirmed[day, app] <= row.scenario.truth[day, app], "\(day) \(app)")
    }
  }

  /// Per app and day, the lower bound never exceeds the upper.
  @Test("rule: the lower bound never exceeds the upper", arguments: PlatformCorpus.names)
  func lowerUnderUpper(name: String) throws {
    let row = try row(name)
    for (day, app) in row.confirmed.keys {
      #expect(row.confirmed[day, app] <= row.library[day, app], "\(day) \(app)")
    }
  }

  /// Per app and day, the upper bound keeps every second the delivered, real thresholds prove.
  @Test(
    "rule: the upper bound is at least what the delivered callbacks prove, per app and day",
    arguments: PlatformCorpus.names)
  func upperAtLeastRevealed(name: String) throws {
    let row = try row(name)
    for (day, app) in row.scenario.revealed.keys {
      #expect(row.library[day, app] >= row.scenario.revealed[day, app], "\(day) \(app)")
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
}
