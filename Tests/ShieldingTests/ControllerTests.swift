import Foundation
import SharedStore
import Shielding
import Testing
import TrackerSignals

/// The extension's entry point: intents in the shared folder, decisions, and the safe state on
/// every error.
@Suite("The shield controller")
struct ControllerTests {
  let store = InMemoryStore()
  var shields: ShieldController<String> { ShieldController(store: store, timeZone: Fixture.utc) }

  func setUp(apps: [String] = ["a", "b"]) throws {
    try shields.record(
      Fixture.intent(
        "profile", Fixture.at(0),
        .setProfile(
          try Fixture.profile("p", apps: apps, schedules: [try Fixture.window("day", 8, 20)]))))
  }

  @Test("recording an intent twice records it once; another intent with its identifier throws")
  func recordingIsIdempotent() throws {
    try setUp()
    let unlock = try Fixture.intent(
      "u", Fixture.at(9), .override(profileID: "p", mode: .unlock, until: Fixture.at(10)))
    #expect(try shields.record(unlock))
    #expect(try !shields.record(unlock))
    #expect(try shields.intentRecords().records.count == 2)
    #expect(throws: ShieldingError.conflictingIntent(id: "u")) {
      try shields.record(
        Fixture.intent(
          "u", Fixture.at(9), .override(profileID: "p", mode: .lock, until: Fixture.at(10))))
    }
  }

  @Test("applying the same decision twice changes nothing")
  func applyingTwiceChangesNothing() throws {
    try setUp()
    let first = shields.decide(now: Fixture.at(9))
    #expect(first.writes.count == 1)
    #expect(first.nextChange == Fixture.at(20))
    try shields.markApplied(first)
    #expect(shields.decide(now: Fixture.at(9)).changesNothing)
    #expect(shields.decide(now: Fixture.at(19)).changesNothing)
    let evening = shields.decide(now: Fixture.at(20))
    #expect(evening.clears == [0])
    try shields.markApplied(evening)
    #expect(shields.decide(now: Fixture.at(20)).changesNothing)
  }

  @Test("adding one app rewrites one store: targets keep their stores")
  func partitionIsStable() throws {
    try setUp(apps: (0..<120).map { "a\($0)" })
    let first = shields.decide(now: Fixture.at(9))
    #expect(first.writes.map(\.index) == [0, 1, 2])
    try shields.markApplied(first)
    // The new profile puts a new app first, which a fresh partition would place in store 0.
    try shields.record(
      Fixture.intent(
        "profile-2", Fixture.at(10),
        .setProfile(
          try Fixture.profile(
            "p", apps: ["new"] + (1..<120).map { "a\($0)" },
            schedules: [try Fixture.window("day", 8, 20)]))))
    let second = shields.decide(now: Fixture.at(10))
    #expect(second.writes.map(\.index) == [0])
    #expect(second.writes.first?.store.applications.contains("new") == true)
    #expect(second.writes.first?.store.applications.contains("a0") == false)
  }

  @Test("a clock that went backwards keeps what was applied, with anything newly required")
  func clockWentBackwardsKeepsShields() throws {
    try setUp()
    let applied = shields.decide(now: Fixture.at(19))
    try shields.markApplied(applied)
    // The clock jumps back to 7:00, before the schedule: nothing may lift.
    let back = shields.decide(now: Fixture.at(7))
    #expect(back.changesNothing)
    #expect(back.state.shieldedTargets == applied.state.shieldedTargets)
    #expect(
      back.diagnostics == [.clockWentBackwards(lastApplied: Fixture.at(19), now: Fixture.at(7))])
    #expect(back.state.reasons(for: .application("a")).map(\.source) == [.heldAfterError])
    // At 8:00 the schedule's own reason joins the held ones: a change, before 19:00.
    #expect(back.nextChange == Fixture.at(8))
    try shields.markApplied(back)
    // Still before the last applied instant: still held.
    #expect(shields.decide(now: Fixture.at(7, 30)).state.isShielded(.application("a")))
  }

  @Test("the clock control: without the rule, the clock going back would lift the schedule")
  func clockControl() throws {
    try setUp()
    #expect(!(try shields.derivation().state(at: Fixture.at(7)).isShielded(.application("a"))))
  }

  @Test("an undecodable record lets later intents add shields but not lift them")
  func undecodableRecordKeepsShields() throws {
    try setUp()
    try store.append(
      [Data("{not json".utf8)], toLog: SharedFolderLayout.standard.shieldIntentsKey, capacity: 4_096
    )
    try shields.record(
      Fixture.intent(
        "u", Fixture.at(9), .override(profileID: "p", mode: .unlock, until: Fixture.at(12))))
    let decision = shields.decide(now: Fixture.at(10))
    #expect(decision.state.isShielded(.application("a")))
    #expect(
      decision.diagnostics.contains {
        if case .undecodableIntent(2, _) = $0 { true } else { false }
      })
  }

  @Test("an intent log that evicted records keeps what was applied")
  func evictionKeepsShields() throws {
    try setUp()
    try shields.markApplied(shields.decide(now: Fixture.at(9)))
    // Another writer shrinks the log to one record: the profile is evicted.
    try store.append(
      [Data("{}".utf8)], toLog: SharedFolderLayout.standard.shieldIntentsKey, capacity: 1)
    let decision = shields.decide(now: Fixture.at(10))
    #expect(decision.changesNothing)
    #expect(decision.state.isShielded(.application("a")))
    #expect(decision.diagnostics.contains(.intentsEvicted(count: 1)))
  }

  @Test("an unreadable applied state: every store is written, none cleared")
  func unreadableAppliedStateClearsNothing() throws {
    try setUp()
    try store.write(Data("garbage".utf8), for: SharedFolderLayout.standard.shieldAppliedKey)
    let decision = shields.decide(now: Fixture.at(21))
    #expect(decision.clears.isEmpty)
    #expect(decision.diagnostics.contains { if case .unreadable = $0 { true } else { false } })
    let day = shields.decide(now: Fixture.at(9))
    #expect(day.writes.count == 1)
  }

  @Test("an unreadable intent log changes nothing and is not recorded")
  func unreadableIntentsChangeNothing() throws {
    try setUp()
    try shields.markApplied(shields.decide(now: Fixture.at(9)))
    try store.remove(SharedFolderLayout.standard.shieldIntentsKey)
    try store.write(Data("not a log".utf8), for: SharedFolderLayout.standard.shieldIntentsKey)
    let decision = shields.decide(now: Fixture.at(21))
    #expect(decision.changesNothing)
    #expect(!decision.isRecordable)
    #expect(decision.state.isShielded(.application("a")))
  }

  @Test("intents, profiles and states round-trip through their JSON forms")
  func jsonRoundTrips() throws {
    let intents = try PrecedenceTests.intents(PrecedenceTests.Source.allCases, profile: "p")
    let encoder = JSONEncoder()
    for intent in intents {
      let decoded = try JSONDecoder().decode(
        ShieldIntent<String>.self, from: try encoder.encode(intent))
      #expect(decoded == intent)
    }
    let state = ShieldDerivation(intents: intents, timeZone: Fixture.utc).state(
      at: Fixture.at(9, 30))
    let decoded = try JSONDecoder().decode(
      ShieldState<String>.self, from: try encoder.encode(state))
    #expect(decoded == state)
    let json = String(decoding: try encoder.encode(intents[1]), as: UTF8.self)
    #expect(json.contains("\"type\":\"startFocus\""))
  }
}
