import ActivityPlanning
import Foundation
import SharedStore
import Shielding
import Testing
import UsageModel

/// The snippets of the article *Deciding what to shield*, verbatim, so that they compile and do
/// what the article says.
@Suite struct ArticleSnippetTests {
  func recordEvening(_ shields: ShieldController<String>, now: Date) throws {
    let bedtime = try ScheduledWindow(
      name: "bedtime", kind: .block,
      window: DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7)))
    let social = try ShieldProfile<String>(
      id: "social", targets: [.application("instagram"), .webDomain("reddit.com")],
      schedules: [.daily(bedtime)], budgets: ["social_media"])
    try shields.record(ShieldIntent(id: "profile-social-1", at: now, action: .setProfile(social)))
    try shields.record(
      ShieldIntent(
        id: "focus-1", at: now,
        action: .startFocus(session: "homework", profiles: ["social"], focus: .seconds(45 * 60))))
  }

  func applyShields(
    _ shields: ShieldController<String>, now: Date,
    write: (String, ShieldStore<String>) -> Void, clear: (String) -> Void
  ) throws -> Date? {
    let decision = shields.decide(now: now)
    for change in decision.writes {
      write(ShieldController<String>.storeName(change.index), change.store)
    }
    for index in decision.clears { clear(ShieldController<String>.storeName(index)) }
    try shields.markApplied(decision)
    return decision.nextChange  // start the next DeviceActivity interval then
  }

  @Test("the article's evening shields during focus, opens at its end, and shields at bedtime")
  func article() throws {
    let shields = ShieldController<String>(store: InMemoryStore(), timeZone: Fixture.utc)
    var applied: [String: ShieldStore<String>] = [:]
    func run(_ now: Date) throws -> Date? {
      try applyShields(
        shields, now: now, write: { applied[$0] = $1 }, clear: { applied[$0] = nil })
    }
    try recordEvening(shields, now: Fixture.at(20))
    #expect(try run(Fixture.at(20)) == Fixture.at(20, 45))
    #expect(applied["stk.shield.0"]?.applications == ["instagram"])
    #expect(applied["stk.shield.0"]?.webDomains == ["reddit.com"])
    #expect(try run(Fixture.at(20, 45)) == Fixture.at(21))
    #expect(applied.isEmpty)
    #expect(try run(Fixture.at(21)) == Fixture.at(7, day: 1))
    #expect(applied.count == 1)
  }
}
