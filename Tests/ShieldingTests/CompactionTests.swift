import BudgetMath
import Foundation
import SharedStore
import Shielding
import TestSupport
import Testing
import TrackerSignals

/// Compacting the intent log changes nothing from the cutoff on.
@Suite("Compacting the intent log")
struct CompactionTests {
  /// Records `intents` into a fresh store and compacts before `cutoff`.
  static func compacted(_ intents: [ShieldIntent<String>], zone: TimeZone, cutoff: Date) throws
    -> (controller: ShieldController<String>, removed: Int)
  {
    let shields = ShieldController<String>(store: InMemoryStore(), timeZone: zone)
    for intent in intents { try shields.record(intent) }
    return (shields, try shields.compactIntents(before: cutoff))
  }

  @Test(
    "the compacted log derives the same state at every instant from the cutoff on",
    arguments: Array(UInt64(1)...40))
  func compactionKeepsTheStateFromTheCutoff(seed: UInt64) throws {
    let input = try RandomIntents(seed: seed)
    var random = SplitMix64(seed: seed &* 101)
    let cutoff = RandomIntents.instant(&random)
    let (shields, _) = try Self.compacted(input.intents, zone: input.zone, cutoff: cutoff)
    let full = ShieldDerivation(intents: input.intents, timeZone: input.zone)
    let compacted = try shields.derivation()
    for _ in 0..<20 {
      let instant = cutoff.addingTimeInterval(Double.random(in: 0..<(3 * 86_400), using: &random))
      #expect(compacted.state(at: instant).shieldsSame(as: full.state(at: instant)))
    }
    #expect(compacted.nextChange(after: cutoff) == full.nextChange(after: cutoff))
  }

  @Test("the random logs of the property do compact: it is not vacuous")
  func randomLogsCompact() throws {
    var removed = 0
    var total = 0
    for seed in UInt64(1)...40 {
      let input = try RandomIntents(seed: seed)
      var random = SplitMix64(seed: seed &* 101)
      let cutoff = RandomIntents.instant(&random)
      removed += try Self.compacted(input.intents, zone: input.zone, cutoff: cutoff).removed
      total += input.intents.count
    }
    #expect(removed > total / 10)
  }

  @Test("a week of focus sessions and earned time compacts to what is still in force")
  func aWeekCompacts() throws {
    var intents = [
      try Fixture.intent(
        "profile", Fixture.at(0), .setProfile(try Fixture.profile("p", apps: ["a"])))
    ]
    for day in 0..<7 {
      intents += [
        try Fixture.intent(
          "focus-\(day)", Fixture.at(9, day: day),
          .startFocus(session: "s\(day)", profiles: ["p"], focus: Fixture.minutes(50))),
        try Fixture.intent(
          "break-\(day)", Fixture.at(9, 20, day: day),
          .focus(session: "s\(day)", event: .beginBreak, breakLength: Fixture.minutes(10))),
        try Fixture.intent(
          "done-\(day)", Fixture.at(9, 40, day: day),
          .focus(session: "s\(day)", event: .complete, breakLength: nil)),
        try Fixture.intent(
          "earned-\(day)", Fixture.at(17, day: day),
          .earnedTime(session: "e\(day)", duration: Fixture.minutes(30), profiles: nil)),
      ]
    }
    let (shields, removed) = try Self.compacted(
      intents, zone: Fixture.utc, cutoff: Fixture.at(12, day: 6))
    // Everything but the profile and the last day's earned time.
    #expect(removed == 27)
    #expect(try shields.intentRecords().records.count == 2)
  }

  @Test("a superseded override stays superseded when an earlier one is recorded after compaction")
  func lateOverrideStaysSuperseded() throws {
    let intents = [
      try Fixture.intent(
        "profile", Fixture.at(0),
        .setProfile(
          try Fixture.profile("p", apps: ["a"], schedules: [try Fixture.window("day", 8, 20)]))),
      try Fixture.intent(
        "lock", Fixture.at(11), .override(profileID: "p", mode: .lock, until: Fixture.at(12))),
    ]
    let (shields, _) = try Self.compacted(intents, zone: Fixture.utc, cutoff: Fixture.at(13))
    // An app offline since 9:30 records its unlock now: the 11:00 lock, expired, still
    // supersedes it, as it would have without compaction.
    try shields.record(
      Fixture.intent(
        "late", Fixture.at(9, 30), .override(profileID: "p", mode: .unlock, until: Fixture.at(23))))
    #expect(try shields.derivation().state(at: Fixture.at(14)).isShielded(.application("a")))
  }

  @Test("a log with an undecodable record is not compacted")
  func undecodableLogIsLeftAlone() throws {
    let shields = ShieldController<String>(store: InMemoryStore(), timeZone: Fixture.utc)
    try shields.record(
      Fixture.intent(
        "e", Fixture.at(9), .earnedTime(session: "e", duration: Fixture.minutes(30), profiles: nil))
    )
    try shields.store.append(
      [Data("{".utf8)], toLog: SharedFolderLayout.standard.shieldIntentsKey, capacity: 4_096)
    #expect(try shields.compactIntents(before: Fixture.at(20)) == 0)
    #expect(try shields.intentRecords().records.count == 2)
  }
}
