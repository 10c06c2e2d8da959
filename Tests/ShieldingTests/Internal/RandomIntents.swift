import ActivityPlanning
import BudgetMath
import Foundation
import Shielding
import TestSupport
import UsageModel

/// Random profiles and intents over two days from `Fixture.monday`, for the property tests.
struct RandomIntents {
  static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe"]
  let intents: [ShieldIntent<String>]
  let profiles: [String]
  let zone: TimeZone

  init(seed: UInt64, apps: Int = 12) throws {
    var random = SplitMix64(seed: seed)
    zone = TimeZone(identifier: Self.zones.randomElement(using: &random) ?? "UTC") ?? Fixture.utc
    var intents: [ShieldIntent<String>] = []
    var sessions: [String] = []
    let profileIDs = ["p0", "p1", "p2"]
    profiles = profileIDs
    var serial = 0
    func instant() -> Date {
      Fixture.monday.addingTimeInterval(
        TimeInterval(Int.random(in: 0..<(48 * 60), using: &random) * 60))
    }
    func id() -> String {
      serial += 1
      return "i\(serial)"
    }
    func profile(_ name: String) throws -> ShieldProfile<String> {
      let appNames = (0..<apps).filter { _ in Bool.random(using: &random) }.map { "a\($0)" }
      var schedules: [ShieldSchedule] = []
      for index in 0..<Int.random(in: 0...2, using: &random) {
        let start = Int.random(in: 0..<24, using: &random)
        let length = Int.random(in: 1..<24, using: &random)
        let weekdays = Set(
          Weekday.allCases.filter { _ in Int.random(in: 0..<4, using: &random) > 0 })
        schedules.append(
          .daily(
            try ScheduledWindow(
              name: "w\(index)", kind: .block,
              window: DailyWindow(
                start: TimeOfDay(hour: start), end: TimeOfDay(hour: (start + length) % 24)),
              weekdays: weekdays.isEmpty ? [.monday] : weekdays)))
      }
      if Bool.random(using: &random) {
        schedules.append(
          .timer(
            name: "t",
            window: try TimerWindow(
              start: instant(), duration: .seconds(Int.random(in: 15...240, using: &random) * 60))))
      }
      return try ShieldProfile(
        id: name, targets: appNames.map { .application($0) } + [.webDomain("d-\(name)")],
        schedules: schedules, budgets: Bool.random(using: &random) ? ["b0"] : ["b1"],
        earnedTimeLiftsSchedules: Bool.random(using: &random))
    }
    for name in profileIDs {
      intents.append(
        try ShieldIntent(id: id(), at: Fixture.monday, action: .setProfile(try profile(name))))
    }
    for _ in 0..<Int.random(in: 4...16, using: &random) {
      let at = instant()
      let some = profileIDs.filter { _ in Bool.random(using: &random) }
      let action: ShieldIntent<String>.Action
      switch Int.random(in: 0..<8, using: &random) {
      case 0:
        let session = "s\(sessions.count)"
        sessions.append(session)
        action = .startFocus(
          session: session, profiles: some,
          focus: .seconds(Int.random(in: 10...180, using: &random) * 60))
      case 1, 2:
        guard let session = sessions.randomElement(using: &random) else { continue }
        let kind = FocusEventKind.allCases.randomElement(using: &random) ?? .beginBreak
        action = .focus(
          session: session, event: kind,
          breakLength: kind == .beginBreak && Bool.random(using: &random) ? .seconds(600) : nil)
      case 3:
        action = .earnedTime(
          session: id(), duration: .seconds(Int.random(in: 15...120, using: &random) * 60),
          profiles: Bool.random(using: &random) ? nil : some)
      case 4:
        action = .override(
          profileID: profileIDs.randomElement(using: &random) ?? "p0",
          mode: Bool.random(using: &random) ? .lock : .unlock,
          until: at.addingTimeInterval(TimeInterval(Int.random(in: 1...300, using: &random) * 60)))
      case 5:
        let used = Int.random(in: 0...90, using: &random)
        action = .budget(
          name: Bool.random(using: &random) ? "b0" : "b1",
          status: try BudgetStatus(used: .seconds(used * 60), allowance: .seconds(60 * 60)),
          until: at.addingTimeInterval(TimeInterval(Int.random(in: 1...24, using: &random) * 3600)))
      case 6:
        action = .setProfile(try profile(profileIDs.randomElement(using: &random) ?? "p0"))
      default:
        action = .removeProfile(id: profileIDs.randomElement(using: &random) ?? "p0")
      }
      intents.append(try ShieldIntent(id: id(), at: at, action: action))
    }
    self.intents = intents
  }

  /// A random instant of the two days and the morning after.
  static func instant(_ random: inout SplitMix64) -> Date {
    Fixture.monday.addingTimeInterval(
      TimeInterval(Int.random(in: 0..<(60 * 60 * 60), using: &random)))
  }
}
