import Foundation
import SharedStore
import Shielding
import TestSupport
import Testing

/// A controller kept for the extension's process remembers its inputs between callbacks; what it
/// remembers never changes a decision, and a clock that goes back never removes a shield.
@Suite("What a controller remembers between callbacks")
struct MemoryTests {
  @Test(
    "a long-lived controller decides as a fresh one at every callback",
    arguments: Array(UInt64(1)...12))
  func rememberingChangesNoDecision(seed: UInt64) throws {
    let input = try RandomIntents(seed: seed, apps: 70)
    let store = InMemoryStore()
    let kept = ShieldController<String>(store: store, timeZone: input.zone)
    var random = SplitMix64(seed: seed &* 5)
    var pending = input.intents.sorted { $0.at < $1.at }[...]
    var now = Fixture.monday
    for step in 0..<40 {
      // Intents arrive when their instant has passed; now and then the clock goes back.
      while let next = pending.first, next.at <= now {
        try kept.record(next)
        pending = pending.dropFirst()
      }
      let fresh = ShieldController<String>(store: store, timeZone: input.zone)
      let decision = kept.decide(now: now)
      #expect(decision == fresh.decide(now: now), "step \(step) at \(now)")
      // An error never removes a shield: with the clock behind the applied state, everything
      // applied stays shielded.
      if let applied = try kept.appliedRecord()?.applied, now < applied.instant {
        #expect(decision.state.shieldedTargets.isSuperset(of: applied.shieldedTargets))
        #expect(decision.clears.isEmpty)
      }
      try kept.markApplied(decision)
      let jump = Double.random(in: -1_800..<7_200, using: &random)
      now = now.addingTimeInterval(step % 10 == 9 ? jump : abs(jump))
    }
  }
}
