import Foundation
import SharedStore
import Shielding
import TestSupport
import Testing
import TrackerSignals

/// A process killed after applying a decision and before recording it, or a record that fails,
/// never leaves a shield lifted that should be on: the decision is written ahead, and the next
/// one rewrites every store it may have changed.
///
/// The integrator's `ManagedSettingsStore`s are a ``ModelledDevice``; a kill is a decision
/// applied (wholly or in part) and never marked applied.
@Suite("A kill between applying and recording lifts nothing")
struct KillBetweenApplyAndRecordLiftsNothingTests {
  static let key = SharedFolderLayout.standard.shieldAppliedKey
  static let day: Set<ShieldTarget<String>> = [.application("a"), .application("b")]

  /// A profile that shields `a` and `b` from 8:00 to 20:00, and `c` from 20:00 to 22:00 with
  /// `evening`.
  static func recordProfiles(_ shields: ShieldController<String>, evening: Bool = false) throws {
    try shields.record(
      Fixture.intent(
        "profile", Fixture.at(0),
        .setProfile(
          try Fixture.profile("p", apps: ["a", "b"], schedules: [try Fixture.window("d", 8, 20)]))
      ))
    guard evening else { return }
    try shields.record(
      Fixture.intent(
        "evening", Fixture.at(0),
        .setProfile(
          try Fixture.profile("q", apps: ["c"], schedules: [try Fixture.window("e", 20, 22)]))))
  }

  /// A controller on `store` with the profiles recorded, and a device the day's shields were
  /// applied to and recorded.
  static func dayApplied(on store: any SharedStore, evening: Bool = false) throws
    -> (ShieldController<String>, ModelledDevice)
  {
    let shields = ShieldController<String>(store: store, timeZone: Fixture.utc)
    try recordProfiles(shields, evening: evening)
    var device = ModelledDevice()
    let morning = shields.decide(now: Fixture.at(9))
    device.apply(morning)
    try shields.markApplied(morning)
    #expect(device.shielded == day)
    return (shields, device)
  }

  @Test("a kill between applying a lift and recording it leaves the shields on the next morning")
  func killAfterALift() throws {
    let (shields, applied) = try Self.dayApplied(on: InMemoryStore())
    var device = applied
    let evening = shields.decide(now: Fixture.at(20))
    #expect(evening.clears == [0])
    device.apply(evening)  // killed before markApplied
    #expect(device.shielded.isEmpty)
    // The next morning the same apps are wanted in the same store: it must be written again.
    let morning = shields.decide(now: Fixture.at(8, day: 1))
    #expect(morning.writes.map(\.index) == [0])
    device.apply(morning)
    #expect(device.shielded == Self.day)
    #expect(device.holdsExactly(morning.state))
  }

  @Test("a kill between applying a shield and recording it: the next lift clears it")
  func killAfterAShield() throws {
    let shields = ShieldController<String>(store: InMemoryStore(), timeZone: Fixture.utc)
    try Self.recordProfiles(shields)
    var device = ModelledDevice()
    let morning = shields.decide(now: Fixture.at(8))
    device.apply(morning)  // killed before markApplied: the record says nothing is shielded
    #expect(device.shielded == Self.day)
    // Fail-safe without the write-ahead, but stuck: nothing would ever clear the store.
    let evening = shields.decide(now: Fixture.at(20))
    #expect(evening.clears == [0])
    device.apply(evening)
    #expect(device.shielded.isEmpty)
    #expect(device.holdsExactly(evening.state))
  }

  @Test("a markApplied that throws leaves the shields on the next morning")
  func markAppliedThrows() throws {
    let store = FullDiskStore(failing: Self.key)
    let (shields, applied) = try Self.dayApplied(on: store)
    var device = applied
    let evening = shields.decide(now: Fixture.at(20))
    device.apply(evening)
    store.isFull = true
    let full = ShieldingError.store(.io(operation: "write", path: Self.key, errno: .noSpace))
    #expect(throws: full) { try shields.markApplied(evening) }
    store.isFull = false
    let morning = shields.decide(now: Fixture.at(8, day: 1))
    device.apply(morning)
    try shields.markApplied(morning)
    #expect(device.shielded == Self.day)
    #expect(device.holdsExactly(morning.state))
  }

  @Test("a relaunched process finds the pending decision and rewrites every store it changes")
  func relaunchFindsThePendingDecision() throws {
    let store = InMemoryStore()
    let (killed, applied) = try Self.dayApplied(on: store)
    var device = applied
    let evening = killed.decide(now: Fixture.at(20))
    device.apply(evening)
    let record = try killed.appliedRecord()
    #expect(record?.applied?.shieldedTargets == Self.day)
    #expect(record?.pending?.changedStores == [0])
    #expect(record?.pending?.state.shieldedTargets == [])

    let relaunched = ShieldController<String>(store: store, timeZone: Fixture.utc)
    let token = try store.changeToken(for: Self.key)
    let again = relaunched.decide(now: Fixture.at(20, 1))
    #expect(again.clears == [0])
    #expect(try store.changeToken(for: Self.key) == token, "already written ahead")
    device.apply(again)
    try relaunched.markApplied(again)
    #expect(try relaunched.appliedRecord() == ShieldAppliedRecord(applied: again.state))
    let morning = relaunched.decide(now: Fixture.at(8, day: 1))
    device.apply(morning)
    #expect(device.shielded == Self.day)
  }

  @Test("marking a decision applied keeps a pending decision written ahead after it")
  func markAppliedKeepsALaterPendingDecision() throws {
    let store = InMemoryStore()
    let (first, applied) = try Self.dayApplied(on: store)
    var device = applied
    let lift = first.decide(now: Fixture.at(20))
    // Meanwhile a parent locks the profile, and a second process decides over the pending lift.
    try first.record(
      Fixture.intent(
        "lock", Fixture.at(20), .override(profileID: "p", mode: .lock, until: Fixture.at(21))))
    let second = ShieldController<String>(store: store, timeZone: Fixture.utc)
    let lock = second.decide(now: Fixture.at(20))
    #expect(lock.writes.map(\.index) == [0])
    device.apply(lift)
    device.apply(lock)  // and the second process is killed
    try first.markApplied(lift)
    #expect(try first.appliedRecord()?.pending?.state.shieldedTargets == Self.day)
    let expired = ShieldController<String>(store: store, timeZone: Fixture.utc)
      .decide(now: Fixture.at(21))
    #expect(expired.clears == [0])
    device.apply(expired)
    #expect(device.holdsExactly(expired.state))
  }

  @Test("a decision marked applied over another's leaves its stores to be written again")
  func markAppliedOverAnotherDecisionLeavesItsStoresUnsure() throws {
    let store = InMemoryStore()
    let (first, applied) = try Self.dayApplied(on: store)
    var device = applied
    let evening = first.decide(now: Fixture.at(20))
    device.apply(evening)
    try first.markApplied(evening)
    #expect(device.shielded.isEmpty)
    // A parent locks the profile until 20:30; the first process shields a and b again, and
    // stalls before marking it applied.
    try first.record(
      Fixture.intent(
        "lock", Fixture.at(20, 5),
        .override(profileID: "p", mode: .lock, until: Fixture.at(20, 30))))
    let lock = first.decide(now: Fixture.at(20, 5))
    device.apply(lock)
    // At 20:30 a second process clears the store the lock wrote, and marks that applied.
    let second = ShieldController<String>(store: store, timeZone: Fixture.utc)
    let expired = second.decide(now: Fixture.at(20, 30))
    device.apply(expired)
    try second.markApplied(expired)
    #expect(device.shielded.isEmpty)
    // The first process resumes: recorded as applied, its lock would say store 0 shields a and
    // b, and the morning's decision wanting them would write nothing.
    try first.markApplied(lock)
    let morning = ShieldController<String>(store: store, timeZone: Fixture.utc)
      .decide(now: Fixture.at(9, day: 1))
    device.apply(morning)
    #expect(device.shielded == Self.day)
    #expect(device.holdsExactly(morning.state))
  }

  @Test("a write-ahead over a record another process changed since is refused and lifts nothing")
  func writeAheadOverAChangedRecordIsRefused() throws {
    let store = InterleavedStore(interleaving: Self.key)
    let (first, _) = try Self.dayApplied(on: store)
    // Between the first process's decision and its write-ahead, a second one records a profile
    // and writes its own decision ahead.
    store.beforeNextUpdate {
      let second = ShieldController<String>(store: store, timeZone: Fixture.utc)
      do {
        try second.record(
          Fixture.intent(
            "late", Fixture.at(20),
            .setProfile(
              try Fixture.profile("r", apps: ["z"], schedules: [try Fixture.window("r", 8, 22)]))
          ))
      } catch {
        Issue.record(error)
      }
      #expect(second.decide(now: Fixture.at(20)).writes.map(\.index) == [0])
    }
    let lift = first.decide(now: Fixture.at(20))
    #expect(lift.changesNothing)
    #expect(lift.state.shieldedTargets == Self.day)
    #expect(
      lift.diagnostics.contains {
        if case .writeAheadFailed(_, let reason) = $0 {
          reason.contains("another decision")
        } else {
          false
        }
      })
    #expect(try first.appliedRecord()?.pending?.state.shieldedTargets == [.application("z")])
  }

  @Test("a write-ahead that fails lifts nothing, says why, and is tried again")
  func failedWriteAheadLiftsNothing() throws {
    let store = FullDiskStore(failing: Self.key)
    let (shields, applied) = try Self.dayApplied(on: store)
    var device = applied
    store.isFull = true
    let evening = shields.decide(now: Fixture.at(20))
    #expect(evening.changesNothing)
    #expect(evening.state.shieldedTargets == Self.day)
    #expect(
      evening.state.reasons(for: .application("a")).map(\.name) == ["writeAheadFailed"])
    #expect(
      evening.diagnostics.contains {
        if case .writeAheadFailed(Self.key, _) = $0 { true } else { false }
      })
    device.apply(evening)
    try shields.markApplied(evening)  // changes nothing: writes nothing
    #expect(device.shielded == Self.day)
    // With room again, the next callback lifts them.
    store.isFull = false
    let later = shields.decide(now: Fixture.at(20, 1))
    #expect(later.clears == [0])
    #expect(later.diagnostics.isEmpty)
  }

  @Test("a write-ahead that fails still adds what is newly required")
  func failedWriteAheadStillAdds() throws {
    let store = FullDiskStore(failing: Self.key)
    let (shields, applied) = try Self.dayApplied(on: store, evening: true)
    var device = applied
    store.isFull = true
    let evening = shields.decide(now: Fixture.at(20))
    #expect(evening.clears.isEmpty)
    device.apply(evening)  // and killed: the record still says a and b
    #expect(device.shielded == Self.day.union([.application("c")]))
    store.isFull = false
    let night = shields.decide(now: Fixture.at(22))
    device.apply(night)
    try shields.markApplied(night)
    #expect(device.shielded.isSuperset(of: night.state.shieldedTargets))
  }

  /// A store that loses the write-ahead: it reports an update that records a pending decision
  /// as done, and keeps the old bytes.
  final class LosingStore: ForwardingStore {
    let base: any SharedStore = InMemoryStore()

    func update<Result>(
      _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
    ) throws(SharedStoreError) -> Result {
      try base.update(key) { (data: inout Data?) throws(SharedStoreError) -> Result in
        var changed = data
        let result = try body(&changed)
        let json = changed.map { String(decoding: $0, as: UTF8.self) } ?? ""
        if key != KillBetweenApplyAndRecordLiftsNothingTests.key || !json.contains("\"pending\"") {
          data = changed
        }
        return result
      }
    }
  }

  @Test("the control: without the write-ahead, a kill after a lift leaves the apps open")
  func control() throws {
    let (shields, applied) = try Self.dayApplied(on: LosingStore())
    var device = applied
    device.apply(shields.decide(now: Fixture.at(20)))
    let morning = shields.decide(now: Fixture.at(8, day: 1))
    device.apply(morning)
    #expect(morning.changesNothing)
    #expect(device.shielded.isEmpty)
  }

  // MARK: - Random kills

  /// How a callback ends.
  enum Ending: CaseIterable {
    case markedApplied, killedAfterApplying, killedMidway, markAppliedThrows
  }

  /// Runs 60 callbacks over random intents, each ending at random, and checks the device after
  /// every decision applied whole.
  ///
  /// - Parameters:
  ///   - seed: The seed of the intents, the clock's steps and the endings.
  ///   - failingWriteAheads: Whether the write-ahead itself fails now and then.
  ///   - check: What must hold of the device, the decision and the wanted targets.
  /// - Throws: What recording an intent or deriving the wanted targets throws.
  static func randomCallbacks(
    seed: UInt64, failingWriteAheads: Bool,
    check: (ModelledDevice, ShieldDecision<String>, Set<ShieldTarget<String>>, String) -> Void
  ) throws {
    let input = try RandomIntents(seed: seed, apps: 120)
    let store = FullDiskStore(failing: key)
    var shields = ShieldController<String>(store: store, timeZone: input.zone)
    var random = SplitMix64(seed: seed &* 13)
    var device = ModelledDevice()
    var intents = input.intents.sorted { $0.at < $1.at }[...]
    var now = Fixture.monday
    for step in 0..<60 {
      while let next = intents.first, next.at <= now {
        try shields.record(next)
        intents = intents.dropFirst()
      }
      if Int.random(in: 0..<6, using: &random) == 0 {
        shields = ShieldController<String>(store: store, timeZone: input.zone)  // relaunched
      }
      store.isFull = failingWriteAheads && Int.random(in: 0..<5, using: &random) == 0
      let decision = shields.decide(now: now)
      store.isFull = false
      let wanted = try shields.derivation().state(at: now).shieldedTargets
      let ending = Ending.allCases.randomElement(using: &random) ?? .markedApplied
      switch ending {
      case .killedMidway:
        let steps = ModelledDevice.steps(of: decision)
        device.apply(decision, stoppingAfter: Int.random(in: 0...steps, using: &random))
      case .killedAfterApplying:
        device.apply(decision)
        check(device, decision, wanted, "step \(step) at \(now), killed after applying")
      case .markAppliedThrows:
        device.apply(decision)
        store.isFull = true
        if !decision.changesNothing {  // one that changes nothing writes nothing, and cannot fail
          #expect(throws: ShieldingError.self) { try shields.markApplied(decision) }
        }
        store.isFull = false
        check(device, decision, wanted, "step \(step) at \(now), markApplied threw")
      case .markedApplied:
        device.apply(decision)
        try shields.markApplied(decision)
        check(device, decision, wanted, "step \(step) at \(now)")
      }
      let jump = Int.random(in: -600..<7_200, using: &random)
      now = now.addingTimeInterval(TimeInterval(max(0, jump)))
    }
  }

  @Test(
    "random kills: after every decision applied, the device holds exactly what is wanted",
    arguments: Array(UInt64(1)...16))
  func randomKillsLeaveExactlyTheWantedShields(seed: UInt64) throws {
    try Self.randomCallbacks(seed: seed, failingWriteAheads: false) {
      device, decision, wanted, step in
      #expect(device.shielded.isSuperset(of: wanted), "\(step)")
      #expect(device.holdsExactly(decision.state), "\(step)")
    }
  }

  @Test(
    "random kills and failing write-aheads: the device never shields less than is wanted",
    arguments: Array(UInt64(1)...16))
  func randomFailuresNeverLiftAWantedShield(seed: UInt64) throws {
    try Self.randomCallbacks(seed: seed, failingWriteAheads: true) {
      device, _, wanted, step in
      #expect(device.shielded.isSuperset(of: wanted), "\(step)")
    }
  }
}
