import Foundation
import Shielding
import TestSupport
import Testing
import UsageModel

/// Properties over random profiles and intents, each against a simple reference.
@Suite("Properties of the derivation")
struct PropertyTests {
  static let seeds: [UInt64] = Array(1...60)

  static func tokens(_ state: ShieldState<String>) -> Set<ShieldTarget<String>> {
    state.shieldedTargets
  }

  /// The reference: each profile derived alone, with only its own profile intents.
  static func unionOfProfiles(_ input: RandomIntents, at instant: Date) -> Set<ShieldTarget<String>>
  {
    var union: Set<ShieldTarget<String>> = []
    for profile in input.profiles {
      let own = input.intents.filter { intent in
        switch intent.action {
        case .setProfile(let other): return other.id == profile
        case .removeProfile(let id): return id == profile
        default: return true
        }
      }
      union.formUnion(
        tokens(ShieldDerivation(intents: own, timeZone: input.zone).state(at: instant)))
    }
    return union
  }

  @Test("the state is the union of what each profile requires alone", arguments: seeds)
  func stateIsTheUnionOfProfiles(seed: UInt64) throws {
    let input = try RandomIntents(seed: seed)
    let derivation = ShieldDerivation(intents: input.intents, timeZone: input.zone)
    var random = SplitMix64(seed: seed &* 31)
    for _ in 0..<20 {
      let instant = RandomIntents.instant(&random)
      #expect(
        Self.tokens(derivation.state(at: instant)) == Self.unionOfProfiles(input, at: instant))
    }
  }

  /// Whether `stores` hold exactly `targets`, each once, at most 50 of a kind per store.
  static func partitionHolds(_ state: ShieldState<String>) -> Bool {
    var seen: [ShieldTarget<String>] = []
    for store in state.stores {
      for kind in ShieldTargetKind.allCases {
        let tokens = store.tokens(of: kind)
        guard tokens.count <= ShieldLimits.tokensPerStore else { return false }
        seen += tokens.map { ShieldTarget(kind: kind, token: $0) }
      }
    }
    return seen.count == Set(seen).count && Set(seen) == state.shieldedTargets
  }

  @Test(
    "no store holds more than 50 tokens of a kind, and the stores hold exactly the shielded targets",
    arguments: seeds)
  func storesRespectTheLimit(seed: UInt64) throws {
    let input = try RandomIntents(seed: seed, apps: 160)
    let derivation = ShieldDerivation(intents: input.intents, timeZone: input.zone)
    var random = SplitMix64(seed: seed &* 17)
    var previous: ShieldState<String>?
    for _ in 0..<10 {
      let state = derivation.state(at: RandomIntents.instant(&random), previous: previous)
      #expect(Self.partitionHolds(state))
      previous = state
    }
  }

  @Test("the partition control: a store of 51 applications is caught")
  func partitionControl() {
    let tokens = (0...50).map { "a\($0)" }
    let state = ShieldState<String>(
      instant: Fixture.monday,
      targets: tokens.map {
        ShieldedTarget(
          target: .application($0),
          reasons: [ShieldReason(source: .lock, profile: "p", name: "x", until: nil)])
      },
      stores: [ShieldStore(applications: tokens)], shieldsAllCategories: false, diagnostics: [])
    #expect(!Self.partitionHolds(state))
  }

  /// Whether nothing changes strictly between `instant` and `next` (sampled), and something does
  /// at `next`.
  static func nothingChangesBefore(
    _ next: Date?, after instant: Date, in derivation: ShieldDerivation<String>,
    random: inout SplitMix64
  ) -> Bool {
    let base = derivation.state(at: instant)
    let end = next ?? instant.addingTimeInterval(9 * 86_400)
    let span = end.timeIntervalSince(instant)
    guard span > 0 else { return false }
    var samples = (0..<30).map { _ in
      instant.addingTimeInterval(Double.random(in: 0..<span, using: &random))
    }
    samples.append(end.addingTimeInterval(-0.001))
    for sample in samples where sample > instant && sample < end {
      guard derivation.state(at: sample).shieldsSame(as: base) else { return false }
    }
    if let next { return !derivation.state(at: next).shieldsSame(as: base) }
    return true
  }

  @Test(
    "nothing changes strictly between an instant and its next change, and something does then",
    arguments: seeds)
  func nextChangeIsExact(seed: UInt64) throws {
    let input = try RandomIntents(seed: seed)
    let derivation = ShieldDerivation(intents: input.intents, timeZone: input.zone)
    var random = SplitMix64(seed: seed &* 7)
    for _ in 0..<8 {
      let instant = RandomIntents.instant(&random)
      let next = derivation.nextChange(after: instant)
      #expect(Self.nothingChangesBefore(next, after: instant, in: derivation, random: &random))
    }
  }

  @Test("the next-change control: an answer a day late is caught")
  func nextChangeControl() throws {
    let profile = try Fixture.profile("p", apps: ["a"], schedules: [try Fixture.window("w", 9, 17)])
    let derivation = ShieldDerivation(
      intents: [try Fixture.intent("p", Fixture.monday, .setProfile(profile))],
      timeZone: Fixture.utc)
    var random = SplitMix64(seed: 1)
    let late = Fixture.at(9, day: 1)
    #expect(!Self.nothingChangesBefore(late, after: Fixture.at(8), in: derivation, random: &random))
    #expect(
      Self.nothingChangesBefore(
        derivation.nextChange(after: Fixture.at(8)), after: Fixture.at(8), in: derivation,
        random: &random))
  }

  @Test(
    "an undecodable intent never removes a shield the intents before it require",
    arguments: seeds)
  func undecodableIntentNeverUnshields(seed: UInt64) throws {
    let input = try RandomIntents(seed: seed)
    var random = SplitMix64(seed: seed &* 13)
    let bad = Int.random(in: 1..<input.intents.count, using: &random)
    var records: [ShieldIntentRecord<String>] = input.intents.map { .intent($0) }
    records[bad] = .undecodable(position: UInt64(bad + 1), reason: "garbled")
    let damaged = ShieldDerivation(records: records, timeZone: input.zone)
    let before = ShieldDerivation(intents: Array(input.intents[..<bad]), timeZone: input.zone)
    var readable = input.intents
    readable.remove(at: bad)
    let rest = ShieldDerivation(intents: readable, timeZone: input.zone)
    #expect(
      damaged.diagnostics.contains(.undecodableIntent(position: UInt64(bad + 1), reason: "garbled"))
    )
    for _ in 0..<20 {
      let instant = RandomIntents.instant(&random)
      let shielded = Self.tokens(damaged.state(at: instant))
      #expect(shielded.isSuperset(of: Self.tokens(before.state(at: instant))))
      #expect(shielded.isSuperset(of: Self.tokens(rest.state(at: instant))))
    }
  }

  @Test("the undecodable control: skipping the bad record would lift a shield after it")
  func undecodableControl() throws {
    let profile = try Fixture.profile("p", apps: ["a"], schedules: [try Fixture.window("w", 9, 17)])
    let intents = [
      try Fixture.intent("1", Fixture.monday, .setProfile(profile)),
      try Fixture.intent("2", Fixture.at(9), .setProfile(profile)),
      try Fixture.intent(
        "3", Fixture.at(10), .override(profileID: "p", mode: .unlock, until: Fixture.at(17))),
    ]
    let skipping = ShieldDerivation(intents: [intents[0], intents[2]], timeZone: Fixture.utc)
    let damaged = ShieldDerivation(
      records: [
        .intent(intents[0]), .undecodable(position: 2, reason: "garbled"), .intent(intents[2]),
      ],
      timeZone: Fixture.utc)
    #expect(Fixture.shielded(skipping, at: Fixture.at(11)).isEmpty)
    #expect(Fixture.shielded(damaged, at: Fixture.at(11)) == ["a"])
  }
}
