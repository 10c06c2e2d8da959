import ActivityPlanning
import Foundation
import Shielding
import TestSupport
import Testing
import UsageModel

/// Daily schedules across midnight and clock changes, in several zones.
@Suite("Schedules across midnight and daylight-saving changes")
struct ScheduleTests {
  /// A zone and a night on which its clock changes, as `YYYY-MM-DD` of the evening.
  struct Night: Sendable, CustomTestStringConvertible {
    let zone: String
    let evening: String
    /// The length of 21:00 to 07:00 that night, in hours.
    let hours: Double

    var testDescription: String { "\(zone) \(evening)" }
  }

  static let nights: [Night] = [
    Night(zone: "Europe/Berlin", evening: "2026-03-28", hours: 9),
    Night(zone: "Europe/Berlin", evening: "2026-10-24", hours: 11),
    Night(zone: "America/New_York", evening: "2026-03-07", hours: 9),
    Night(zone: "America/New_York", evening: "2026-10-31", hours: 11),
    Night(zone: "Australia/Lord_Howe", evening: "2026-04-04", hours: 10.5),
    Night(zone: "Asia/Kolkata", evening: "2026-03-28", hours: 10),
    Night(zone: "Pacific/Chatham", evening: "2026-04-04", hours: 11),
    Night(zone: "UTC", evening: "2026-03-09", hours: 10),
  ]

  /// The instant the wall clock of `zone` shows `day` at `hour`:`minute` (first occurrence).
  static func local(_ day: LocalDay, _ hour: Int, _ minute: Int = 0, in zone: TimeZone) throws
    -> Date
  {
    try DailyWindow(
      start: TimeOfDay(hour: hour, minute: minute), end: TimeOfDay(hour: (hour + 1) % 24)
    ).occurrence(startingOn: day, in: zone).start
  }

  static func bedtime(weekdays: Set<Weekday> = Set(Weekday.allCases)) throws -> ShieldSchedule {
    .daily(
      try ScheduledWindow(
        name: "bedtime", kind: .block,
        window: DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7)),
        weekdays: weekdays))
  }

  static func derivation(_ schedule: ShieldSchedule, zone: TimeZone) throws
    -> ShieldDerivation<String>
  {
    let profile = try Fixture.profile("kids", apps: ["game"], schedules: [schedule])
    return ShieldDerivation(
      intents: [try Fixture.intent("p", Fixture.at(0, day: -3650), .setProfile(profile))],
      timeZone: zone)
  }

  @Test(
    "a 21:00–07:00 window shields across midnight and lasts the night's real length",
    arguments: nights)
  func acrossMidnightAndClockChanges(night: Night) throws {
    let zone = try #require(TimeZone(identifier: night.zone))
    let evening = try LocalDay(parsing: night.evening)
    let derivation = try Self.derivation(try Self.bedtime(), zone: zone)
    let start = try Self.local(evening, 21, in: zone)
    let end = try Self.local(evening.advanced(by: 1), 7, in: zone)
    #expect(end.timeIntervalSince(start) == night.hours * 3600)
    let before = start.addingTimeInterval(-1)
    #expect(Fixture.shielded(derivation, at: before).isEmpty)
    #expect(Fixture.shielded(derivation, at: start) == ["game"])
    #expect(Fixture.shielded(derivation, at: end.addingTimeInterval(-1)) == ["game"])
    #expect(Fixture.shielded(derivation, at: end).isEmpty)
    #expect(derivation.nextChange(after: before) == start)
    #expect(derivation.nextChange(after: start) == end)
    #expect(derivation.nextChange(after: start.addingTimeInterval(3600)) == end)
    let reason = derivation.state(at: start).reasons(for: .application("game"))
    #expect(reason.map(\.until) == [end])
  }

  @Test("a window shields only on its weekdays, by the day its occurrence starts")
  func weekdaysCountTheStartingDay() throws {
    // Monday evening only: Monday 21:00 to Tuesday 07:00 shields, Tuesday evening does not.
    let derivation = try Self.derivation(try Self.bedtime(weekdays: [.monday]), zone: Fixture.utc)
    #expect(Fixture.shielded(derivation, at: Fixture.at(22)) == ["game"])
    #expect(Fixture.shielded(derivation, at: Fixture.at(6, day: 1)) == ["game"])
    #expect(Fixture.shielded(derivation, at: Fixture.at(22, day: 1)).isEmpty)
    #expect(derivation.nextChange(after: Fixture.at(8, day: 1)) == Fixture.at(21, day: 7))
  }

  @Test("a window near the last supported day neither traps nor lifts a shield")
  func windowAtTheEdgeOfTheSupportedYears() throws {
    // Saturdays only; from 9999-12-27 (a Monday) the search for the next start looks past
    // 9999-12-31, which has no day after it.
    let derivation = try Self.derivation(
      try Self.bedtime(weekdays: [.saturday]), zone: Fixture.utc)
    let late = try instant("9999-12-27T12:00:00Z")
    #expect(derivation.nextChange(after: late) == nil)
    #expect(Fixture.shielded(derivation, at: late).isEmpty)
    // The control: the Saturday before, the window shields and ends on Sunday morning.
    let saturday = try instant("9999-12-25T22:00:00Z")
    #expect(Fixture.shielded(derivation, at: saturday) == ["game"])
    let sunday = try instant("9999-12-26T07:00:00Z")
    #expect(derivation.nextChange(after: saturday) == sunday)
    // Past the last supported instant (9999-12-29T23:59:59.999Z) no day can be computed: the
    // schedule is held as active, as a schedule never lifts on an error.
    #expect(Fixture.shielded(derivation, at: try instant("9999-12-29T22:00:00Z")).isEmpty)
    #expect(Fixture.shielded(derivation, at: try instant("9999-12-31T22:00:00Z")) == ["game"])
  }

  @Test("a timer shields from its start for its length, across midnight, with its dates")
  func timerAcrossMidnight() throws {
    let timer = ShieldSchedule.timer(
      name: "homework",
      window: try TimerWindow(start: Fixture.at(23, 30), duration: Fixture.minutes(60)))
    let derivation = try Self.derivation(timer, zone: Fixture.utc)
    #expect(Fixture.shielded(derivation, at: Fixture.at(0, 15, day: 1)) == ["game"])
    #expect(Fixture.shielded(derivation, at: Fixture.at(0, 30, day: 1)).isEmpty)
    #expect(derivation.nextChange(after: Fixture.at(12)) == Fixture.at(23, 30))
    #expect(derivation.nextChange(after: Fixture.at(23, 30)) == Fixture.at(0, 30, day: 1))
    #expect(derivation.nextChange(after: Fixture.at(0, 30, day: 1)) == nil)
  }

  @Test("two windows that touch shield without a gap; the reasons change where they meet")
  func touchingWindowsChangeOnceAtTheEnd() throws {
    let profile = try Fixture.profile(
      "kids", apps: ["game"],
      schedules: [try Fixture.window("morning", 8, 12), try Fixture.window("afternoon", 12, 15)])
    let derivation = ShieldDerivation(
      intents: [try Fixture.intent("p", Fixture.at(0), .setProfile(profile))], timeZone: Fixture.utc
    )
    // The reasons change at 12:00 (another schedule, another end), so that is a change.
    #expect(derivation.nextChange(after: Fixture.at(9)) == Fixture.at(12))
    #expect(Fixture.shielded(derivation, at: Fixture.at(12)) == ["game"])
    #expect(derivation.nextChange(after: Fixture.at(12)) == Fixture.at(15))
  }
}
