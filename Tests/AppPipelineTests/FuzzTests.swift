import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// Hostile JSON for every `Codable` type of the pipeline, and a planted pipeline state behind
/// ``UsagePipeline``: decoding throws or gives a value that round-trips and survives its main
/// operations (a drain and a dashboard); it never traps or hangs.
@Suite("Decoding hostile JSON never traps")
struct FuzzTests {
  static let plan = Fuzz.Plan(seed: 0x5EED_000A, makeTargets)

  @Test("every input decodes to a usable value or throws a DecodingError", arguments: plan.targets)
  func fuzz(_ target: Fuzz.Target) throws {
    try Self.plan.run(target)
  }

  // MARK: - Inputs that once failed

  @Test(
    "replay: a ledger earning Int64.min XP in its identifier credits nothing extra and never traps")
  func replayNegativeEarnings() throws {
    // Found by this loop before the fix, when the state kept what was credited: crediting
    // usage subtracted the stored amount from what was owed, and Int64.min overflowed. What was
    // credited is now read from the ledger's earnings; a hostile one is planted there.
    var fixture = try InMemoryPipeline()
    let record =
      #"{"at":"2026-04-15T06:40:00Z","id":"usage:1776204000000|com.a|-9223372036854775808","#
      + #""type":"earn","xp":1}"#
    try fixture.store.append(
      [Data(record.utf8)], toLog: SharedFolderLayout.standard.appLedgerKey, capacity: 10)
    let before = try fixture.pipeline.ledger().balance.xp
    _ = try fixture.pipeline.dashboard(for: fixture.day, now: fixture.now)
    try fixture.pipeline.wake(.poll, now: fixture.now)
    #expect(try fixture.pipeline.ledger().balance.xp >= before)
  }

  // swift-format-ignore: FunctionBodyLength
  static func makeTargets() throws -> [Fuzz.Target] {
    let fixture = try InMemoryPipeline()
    let dashboard = try fixture.pipeline.dashboard(
      for: fixture.day, now: fixture.now)
    let state = try fixture.pipeline.state()
    let configuration = fixture.configuration

    return [
      .decoding([dashboard]),
      .decoding(dashboard.budgets),
      .decoding([dashboard.facts]),
      .decoding(dashboard.facts.rejected),
      .decoding([dashboard.facts.thresholds]),
      .decoding([configuration]) { configuration in
        _ = configuration.plan(for: fixture.day)
        _ = try? UsagePipeline(
          folder: SharedFolder.inMemory(layout: .standard(outboxCapacity: 2)),
          configuration: configuration)
      },
      .decoding([state]) { state in
        _ = (state.acknowledgedTrackerDown, state.losses.map(\.count), state.alerts)
      },
      .decoding(state.lastApplied.map { [$0] } ?? []),
      .decoding(configuration.rewards.map { [$0] } ?? []) { rewards in
        _ = rewards.experiencePoints(for: .seconds(Int64.max), in: .other)
      },
      Fuzz.Target(description: "stored pipeline state") { inputs, seed in
        try storedState(inputs: inputs, seed: seed)
      },
    ]
  }

  /// A planted consumer record under the pipeline's state key: a drain and a dashboard give an
  /// answer or a typed error, never a trap.
  static func storedState(inputs: Int, seed: UInt64) throws -> Fuzz.Tally {
    var fixture = try InMemoryPipeline()
    let key = SharedFolderLayout.standard.appStateKey
    let valid = try #require(try fixture.store.readLog(key, newest: 1)?.records.last?.bytes)
    return try Fuzz.runBytes(seeds: [Array(valid)], inputs: inputs, seed: seed) { bytes in
      // The consumer keeps its record as versions: the newest one is what it reads.
      try fixture.store.append([Data(bytes)], toLog: key, capacity: 16)
      do {
        _ = try fixture.pipeline.state()
      } catch {
        return false
      }
      // Only what decodes is worth the work of a drain and a dashboard.
      _ = try? fixture.pipeline.wake(.foreground, now: fixture.now)
      _ = try? fixture.pipeline.dashboard(
        for: fixture.day, now: fixture.now)
      return true
    }
  }
}
