import ActivityPlanning
import BudgetMath
import Foundation
import Shielding
import Testing
import UsageModel

/// The truth tables: every source alone and every pair of sources at once, on one profile
/// and across two profiles naming the same app.
@Suite("Precedence of the sources")
struct PrecedenceTests {
  /// One source, as intents and profile settings that make it in force at 10:00 on Monday.
  enum Source: String, CaseIterable, Sendable {
    case schedule, focus, focusOnBreak, budget, earned, lock, unlock
  }

  /// The expected state of one app with one source in force.
  static let single: [Source: Bool] = [
    .schedule: true, .focus: true, .focusOnBreak: false, .budget: true, .earned: false,
    .lock: true, .unlock: false,
  ]

  /// The expected state with two sources in force on the same profile, the second recorded
  /// after the first.
  static let pairs: [String: Bool] = [
    "schedule+focus": true, "schedule+focusOnBreak": true, "schedule+budget": true,
    "schedule+earned": true, "schedule+lock": true, "schedule+unlock": false,
    "focus+focusOnBreak": true, "focus+budget": true, "focus+earned": true, "focus+lock": true,
    "focus+unlock": false,
    "focusOnBreak+budget": true, "focusOnBreak+earned": false, "focusOnBreak+lock": true,
    "focusOnBreak+unlock": false,
    "budget+earned": false, "budget+lock": true, "budget+unlock": false,
    "earned+lock": true, "earned+unlock": false,
    "lock+unlock": false,
  ]

  static var allPairs: [(Source, Source)] {
    let all = Source.allCases
    return all.indices.flatMap { i in all[(i + 1)...].map { (all[i], $0) } }
  }

  /// The profile's schedules and budgets and the intents that put `sources` in force on
  /// `profile` at 10:00, each recorded one minute after the previous.
  static func intents(
    _ sources: [Source], profile: String, earnedLiftsSchedules: Bool = false, tag: String = ""
  ) throws -> [ShieldIntent<String>] {
    var schedules: [ShieldSchedule] = []
    var budgets: [String] = []
    var intents: [ShieldIntent<String>] = []
    var minute = 0
    func next() -> Date {
      minute += 1
      return Fixture.at(9, minute)
    }
    for source in sources {
      let id = "\(profile)-\(source.rawValue)\(tag)"
      switch source {
      case .schedule: schedules.append(try Fixture.window("school", 8, 15))
      case .focus:
        intents.append(
          try Fixture.intent(
            id, next(), .startFocus(session: id, profiles: [profile], focus: Fixture.minutes(120))))
      case .focusOnBreak:
        intents.append(
          try Fixture.intent(
            id, next(), .startFocus(session: id, profiles: [profile], focus: Fixture.minutes(120))))
        intents.append(
          try Fixture.intent(
            id + "-break", next(),
            .focus(session: id, event: .beginBreak, breakLength: Fixture.minutes(90))))
      case .budget:
        budgets.append("social")
        intents.append(
          try Fixture.intent(
            id, next(),
            .budget(name: "social", status: try Fixture.exhausted(), until: Fixture.at(24))))
      case .earned:
        intents.append(
          try Fixture.intent(
            id, next(),
            .earnedTime(session: id, duration: Fixture.minutes(120), profiles: [profile])))
      case .lock, .unlock:
        intents.append(
          try Fixture.intent(
            id, next(),
            .override(
              profileID: profile, mode: source == .lock ? .lock : .unlock, until: Fixture.at(12))))
      }
    }
    let profileIntent = try Fixture.intent(
      "\(profile)-profile\(tag)", Fixture.at(8),
      .setProfile(
        try Fixture.profile(
          profile, apps: ["app"], schedules: schedules, budgets: budgets,
          earnedTimeLiftsSchedules: earnedLiftsSchedules)))
    return [profileIntent] + intents
  }

  static func isShielded(_ intents: [ShieldIntent<String>]) -> Bool {
    ShieldDerivation(intents: intents, timeZone: Fixture.utc).state(at: Fixture.at(10))
      .isShielded(.application("app"))
  }

  @Test("each source alone shields or lifts as the table says", arguments: Source.allCases)
  func singleSource(source: Source) throws {
    #expect(Self.isShielded(try Self.intents([source], profile: "p")) == Self.single[source])
  }

  @Test("every pair of sources on one profile follows the precedence table", arguments: allPairs)
  func pairOnOneProfile(first: Source, second: Source) throws {
    let key = "\(first.rawValue)+\(second.rawValue)"
    let expected = try #require(Self.pairs[key] as Bool?)
    #expect(Self.isShielded(try Self.intents([first, second], profile: "p")) == expected)
  }

  @Test(
    "every pair of sources on two profiles is the union: a lift never crosses profiles",
    arguments: allPairs)
  func pairOnTwoProfiles(first: Source, second: Source) throws {
    let intents =
      try Self.intents([first], profile: "a") + Self.intents([second], profile: "b")
    let expected = (Self.single[first] ?? false) || (Self.single[second] ?? false)
    #expect(Self.isShielded(intents) == expected)
  }

  @Test("earned time lifts a schedule only when the profile allows it")
  func earnedTimeLiftsScheduleWhenConfigured() throws {
    #expect(Self.isShielded(try Self.intents([.schedule, .earned], profile: "p")))
    #expect(
      !Self.isShielded(
        try Self.intents([.schedule, .earned], profile: "p", earnedLiftsSchedules: true)))
  }

  @Test("a later lock replaces an unlock, and an unlock a lock")
  func latestOverrideWins() throws {
    #expect(!Self.isShielded(try Self.intents([.lock, .unlock], profile: "p")))
    #expect(Self.isShielded(try Self.intents([.unlock, .lock], profile: "p")))
  }

  @Test("a manual override expires")
  func overrideExpires() throws {
    let derivation = ShieldDerivation(
      intents: try Self.intents([.schedule, .unlock], profile: "p"), timeZone: Fixture.utc)
    #expect(!derivation.state(at: Fixture.at(11, 59)).isShielded(.application("app")))
    #expect(derivation.state(at: Fixture.at(12)).isShielded(.application("app")))
    #expect(derivation.nextChange(after: Fixture.at(10)) == Fixture.at(12))
  }

  @Test("the table is a specification: a state that ignored earned time would fail it")
  func controlTableCatchesAWrongRule() throws {
    // The control drops the earned-time intent, as a derivation that ignored earned time would.
    let intents = try Self.intents([.budget, .earned], profile: "p").filter {
      !$0.id.hasSuffix("earned")
    }
    #expect(Self.isShielded(intents) != Self.pairs["budget+earned"])
  }

  @Test("reasons name the source, the profile and when it ends")
  func reasonsForTheUI() throws {
    let intents = try Self.intents([.schedule, .budget], profile: "kids")
    let state = ShieldDerivation(intents: intents, timeZone: Fixture.utc).state(at: Fixture.at(10))
    #expect(
      state.reasons(for: .application("app")) == [
        ShieldReason(source: .schedule, profile: "kids", name: "school", until: Fixture.at(15)),
        ShieldReason(source: .budget, profile: "kids", name: "social", until: Fixture.at(24)),
      ])
  }
}
