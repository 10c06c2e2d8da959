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

  @Test("replay: a stored state crediting Int64.min XP is refused (its dashboard trapped)")
  func replayNegativeEarnings() throws {
    // Found by this loop before the fix: crediting usage subtracted the stored amount from
    // what was owed, and Int64.min overflowed.
    let input =
      #"{"cursor":{"checksum":846211901,"last":{"epoch":"30074a1c47c8cb76","value":11}},"revision":1,"state":{"alerts":{"reported":[],"thresholds":[50,80,100]},"earned":{"1776204000000|com.a":-9223372036854775808},"facts":[{"activity":"daily","at":"2026-04-14T22:00:00Z","callback":"intervalDidStart"},{"activity":"daily","at":"2026-04-15T06:05:00Z","callback":"eventDidReachThreshold","event":"stk:5m:com.a"},{"activity":"daily","at":"2026-04-15T06:10:00Z","callback":"eventDidReachThreshold","event":"stk:10m:com.a"},{"activity":"daily","at":"2026-04-15T06:15:00Z","callback":"eventDidReachThreshold","event":"stk:15m:com.a"},{"activity":"daily","at":"2026-04-15T06:20:00Z","callback":"eventDidReachThreshold","event":"stk:20m:com.a"},{"activity":"daily","at":"2026-04-15T06:25:00Z","callback":"eventDidReachThreshold","event":"stk:25m:com.a"},{"activity":"daily","at":"2026-04-15T06:30:00Z","callback":"eventDidReachThreshold","event":"stk:30m:com.a"},{"activity":"daily","at":"2026-04-15T06:35:00Z","callback":"eventDidReachThreshold","event":"stk:35m:com.a"},{"activity":"daily","at":"2026-04-15T06:40:00Z","callback":"eventDidReachThreshold","event":"stk:40m:com.a"},{"activity":"daily","at":"2026-04-15T07:00:00Z","callback":"eventDidReachThreshold","event":"bogus"},{"activity":"daily","at":"2026-04-15T07:00:00Z","callback":"eventDidReachThreshold","event":"stk:7d:com.b"}],"lastApplied":{"at":"2026-04-15T07:00:00Z","number":{"epoch":"30074a1c47c8cb76","value":11}},"ledger":{"rate":{"timeMs":60000,"xp":10},"transactions":[{"at":"2026-04-15T06:40:00Z","id":"usage:1776204000000|com.a|120","type":"earn","xp":120}]},"losses":[],"acknowledgedTrackerDown":[],"sequence":{"counts":{"duplicates":0,"givenUp":0,"received":315537551999999,"recovered":0,"resets":0,"stale":0},"run":{"epoch":"30074a1c47c8cb76","floor":1,"highest":11,"outstanding":[],"retired":[]}},"undecodable":[]}}"#
    let fixture = try InMemoryPipeline()
    try fixture.store.write(Data(input.utf8), for: SharedFolderLayout.standard.appStateKey)
    #expect(throws: PipelineError.self) { try fixture.pipeline.state() }
    #expect(throws: PipelineError.self) {
      try fixture.pipeline.dashboard(for: fixture.day, now: fixture.now)
    }
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
        _ = (state.acknowledgedTrackerDown, state.losses.map(\.count), state.ledger.balance)
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
    let valid = try #require(try fixture.store.read(key))
    return try Fuzz.runBytes(seeds: [Array(valid)], inputs: inputs, seed: seed) { bytes in
      try fixture.store.write(Data(bytes), for: key)
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
