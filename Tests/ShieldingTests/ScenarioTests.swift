import ActivityPlanning
import BudgetMath
import Foundation
import SharedStore
import Shielding
import Testing
import TrackerSignals
import UsageModel

/// The named scenarios: the break re-lock bug, several active profiles, bad input.
@Suite("Scenarios from the issue")
struct ScenarioTests {
  @Test("the break re-lock bug: coming to the foreground during a break does not re-lock its apps")
  func breakIsNotRelockedOnForeground() throws {
    let store = InMemoryStore()
    let shields = ShieldController<String>(store: store, timeZone: Fixture.utc)
    try shields.record(
      Fixture.intent(
        "profile", Fixture.at(8),
        .setProfile(try Fixture.profile("study", apps: ["game", "video"]))))
    try shields.record(
      Fixture.intent(
        "focus", Fixture.at(9),
        .startFocus(session: "deep", profiles: ["study"], focus: Fixture.minutes(50))))
    // The extension applies the focus shield at 9:00.
    let atNine = shields.decide(now: Fixture.at(9))
    #expect(atNine.writes.map(\.store.applications) == [["game", "video"]])
    try shields.markApplied(atNine)
    // A 10-minute break at 9:20: the extension lifts the shield.
    try shields.record(
      Fixture.intent(
        "break", Fixture.at(9, 20),
        .focus(session: "deep", event: .beginBreak, breakLength: Fixture.minutes(10))))
    let onBreak = shields.decide(now: Fixture.at(9, 20))
    #expect(onBreak.clears == [0])
    #expect(onBreak.nextChange == Fixture.at(9, 30))
    try shields.markApplied(onBreak)
    // The app comes to the foreground at 9:25 and re-derives, as the source app re-applied its
    // shields: the break's apps stay open, and applying again changes nothing.
    let foreground = try shields.derivation().state(at: Fixture.at(9, 25))
    #expect(!foreground.isShielded(.application("game")))
    let again = shields.decide(now: Fixture.at(9, 25))
    #expect(again.changesNothing)
    // The break ends by itself at 9:30, and the shield returns.
    let afterBreak = shields.decide(now: Fixture.at(9, 30))
    #expect(afterBreak.writes.map(\.store.applications) == [["game", "video"]])
  }

  @Test("several active profiles: the union of their targets, each with its own reasons")
  func severalActiveProfiles() throws {
    let derivation = ShieldDerivation(
      intents: [
        try Fixture.intent(
          "school", Fixture.at(0),
          .setProfile(
            try Fixture.profile(
              "school", apps: ["game", "chat"], schedules: [try Fixture.window("class", 8, 15)]))),
        try Fixture.intent(
          "social", Fixture.at(0),
          .setProfile(try Fixture.profile("social", apps: ["chat", "photos"], budgets: ["social"]))),
        try Fixture.intent(
          "budget", Fixture.at(10),
          .budget(name: "social", status: try Fixture.exhausted(), until: Fixture.at(24))),
        try Fixture.intent(
          "focus", Fixture.at(11),
          .startFocus(session: "deep", profiles: ["school", "social"], focus: Fixture.minutes(30))),
      ], timeZone: Fixture.utc)
    let state = derivation.state(at: Fixture.at(11, 10))
    #expect(
      state.shieldedTargets == [.application("game"), .application("chat"), .application("photos")])
    #expect(
      state.reasons(for: .application("chat")).map(\.source) == [
        .schedule, .focus, .focus, .budget,
      ])
    #expect(state.reasons(for: .application("photos")).map(\.profile) == ["social", "social"])
    #expect(derivation.nextChange(after: Fixture.at(11, 10)) == Fixture.at(11, 30))
    // After school, only the social profile's budget holds.
    #expect(Fixture.shielded(derivation, at: Fixture.at(16)) == ["chat", "photos"])
  }

  @Test("contradictory profiles naming the same app resolve to shielded")
  func contradictoryProfilesResolveToShielded() throws {
    let derivation = ShieldDerivation(
      intents: [
        try Fixture.intent(
          "a", Fixture.at(0),
          .setProfile(
            try Fixture.profile(
              "parent", apps: ["game"], schedules: [try Fixture.window("night", 20, 7)]))),
        try Fixture.intent(
          "b", Fixture.at(0), .setProfile(try Fixture.profile("reward", apps: ["game"]))),
        try Fixture.intent(
          "c", Fixture.at(21), .override(profileID: "reward", mode: .unlock, until: Fixture.at(23))),
        try Fixture.intent(
          "d", Fixture.at(21),
          .earnedTime(session: "e", duration: Fixture.minutes(60), profiles: nil)),
      ], timeZone: Fixture.utc)
    #expect(Fixture.shielded(derivation, at: Fixture.at(21, 30)) == ["game"])
  }

  @Test("a 10,000-app profile is a typed error, not a trap")
  func hugeProfileIsATypedError() {
    #expect(
      throws: ShieldingError.tooManyTargets(
        profile: "all", kind: .application, count: 10_000, limit: 2_500)
    ) {
      try Fixture.profile("all", apps: (0..<10_000).map { "a\($0)" })
    }
  }

  @Test("a schedule shorter than the platform's 15 minutes is a typed error")
  func shortScheduleIsATypedError() throws {
    let timer = ShieldSchedule.timer(
      name: "quick", window: try TimerWindow(start: Fixture.at(9), duration: Fixture.minutes(5)))
    #expect(
      throws: ShieldingError.scheduleTooShort(
        profile: "p", schedule: "quick", length: Fixture.minutes(5), minimum: Fixture.minutes(15))
    ) {
      try Fixture.profile("p", apps: ["a"], schedules: [timer])
    }
    #expect(throws: PlanningError.self) {
      try ScheduledWindow(
        name: "w", kind: .block,
        window: DailyWindow(start: TimeOfDay(hour: 9), end: TimeOfDay(hour: 9, minute: 10)))
    }
  }

  @Test("more applications than the stores hold shield every category, reported")
  func storeLimitExceededShieldsEverything() throws {
    let first = try Fixture.profile(
      "a", apps: (0..<2_000).map { "a\($0)" }, schedules: [try Fixture.window("w", 8, 20)])
    let second = try Fixture.profile(
      "b", apps: (1_500..<3_000).map { "a\($0)" }, schedules: [try Fixture.window("w", 8, 20)])
    let derivation = ShieldDerivation(
      intents: [
        try Fixture.intent("1", Fixture.at(0), .setProfile(first)),
        try Fixture.intent("2", Fixture.at(0), .setProfile(second)),
      ], timeZone: Fixture.utc)
    let state = derivation.state(at: Fixture.at(9))
    #expect(state.shieldsAllCategories)
    #expect(state.stores.count == ShieldLimits.maximumStores)
    #expect(state.stores.allSatisfy { $0.applications.count == ShieldLimits.tokensPerStore })
    #expect(
      state.diagnostics == [.storeLimitExceeded(kind: .application, count: 3_000, capacity: 2_500)])
    #expect(!derivation.state(at: Fixture.at(21)).shieldsAllCategories)
  }

  @Test("an intent naming an unknown profile is reported and shields or lifts nothing")
  func unknownProfileIsReported() throws {
    let derivation = ShieldDerivation(
      intents: [
        try Fixture.intent(
          "1", Fixture.at(0),
          .setProfile(
            try Fixture.profile("p", apps: ["a"], schedules: [try Fixture.window("w", 8, 20)]))),
        try Fixture.intent(
          "2", Fixture.at(9), .override(profileID: "q", mode: .unlock, until: Fixture.at(12))),
      ], timeZone: Fixture.utc)
    #expect(derivation.diagnostics == [.unknownProfile(intent: "2", profile: "q")])
    #expect(Fixture.shielded(derivation, at: Fixture.at(10)) == ["a"])
  }

  @Test("a focus event the state machine forbids is reported and ignored, keeping the shield")
  func illegalFocusEventKeepsTheShield() throws {
    let derivation = ShieldDerivation(
      intents: [
        try Fixture.intent("1", Fixture.at(0), .setProfile(try Fixture.profile("p", apps: ["a"]))),
        try Fixture.intent(
          "2", Fixture.at(9), .startFocus(session: "s", profiles: ["p"], focus: Fixture.minutes(60))
        ),
        try Fixture.intent(
          "3", Fixture.at(9, 10), .focus(session: "s", event: .endBreak, breakLength: nil)),
        try Fixture.intent(
          "4", Fixture.at(9, 20), .focus(session: "t", event: .cancel, breakLength: nil)),
      ], timeZone: Fixture.utc)
    #expect(derivation.diagnostics.count == 2)
    #expect(Fixture.shielded(derivation, at: Fixture.at(9, 30)) == ["a"])
    #expect(derivation.nextChange(after: Fixture.at(9, 30)) == Fixture.at(10))
  }

  @Test("earned time comes from a reward ledger's spending session and is spent by the wall clock")
  func earnedTimeFromTheLedger() throws {
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(LedgerTransaction(id: "task", at: Fixture.at(12), kind: .earn(xp: 300)))
    try ledger.apply(LedgerTransaction(id: "swap", at: Fixture.at(12), kind: .redeem(xp: 300)))
    let spend = try ledger.apply(
      LedgerTransaction(
        id: "play", at: Fixture.at(13),
        kind: .startSpending(session: "play", reserve: Fixture.minutes(30))))
    let earned = try ShieldIntent<String>.earnedTime(from: spend.entry)
    #expect(
      earned.action == .earnedTime(session: "play", duration: Fixture.minutes(30), profiles: nil))
    let derivation = ShieldDerivation(
      intents: [
        try Fixture.intent(
          "1", Fixture.at(0), .setProfile(try Fixture.profile("p", apps: ["a"], budgets: ["fun"]))),
        try Fixture.intent(
          "2", Fixture.at(12),
          .budget(name: "fun", status: try Fixture.exhausted(), until: Fixture.at(24))),
        earned,
      ], timeZone: Fixture.utc)
    #expect(Fixture.shielded(derivation, at: Fixture.at(12, 30)) == ["a"])
    #expect(Fixture.shielded(derivation, at: Fixture.at(13, 10)).isEmpty)
    #expect(derivation.nextChange(after: Fixture.at(13)) == Fixture.at(13, 30))
    #expect(throws: ShieldingError.self) {
      try ShieldIntent<String>.earnedTime(from: try #require(ledger.entry(for: "task")))
    }
  }
}
