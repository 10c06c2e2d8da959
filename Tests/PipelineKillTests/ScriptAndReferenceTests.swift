import Foundation
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// What the kill test stands on: a script that holds every quirk the rules must survive, and a
/// reference that lays use out as the rules say.
@Suite("The kill test's script and reference")
struct ScriptAndReferenceTests {
  /// Threshold deliveries of the script: activity, event name, threshold, second.
  static func thresholds(_ script: PipelineScript) throws -> [(String, String, Int64, Int64)] {
    try script.entries.compactMap { entry in
      guard case .callback(.eventDidReachThreshold, let activity, let event?) = entry.kind else {
        return nil
      }
      return (activity, event, try ReferenceUsage.parse(event).0, entry.second)
    }
  }

  @Test(
    "the script holds duplicates, late events, implausible bursts, a dead stretch and the DST day",
    arguments: [PipelineKillTests.seed, 1, 2, 3])
  func scriptHoldsEveryQuirk(seed: UInt64) throws {
    let script = try PipelineScript(seed: seed)
    #expect(try script.entries == (PipelineScript(seed: seed)).entries, "deterministic")
    let calendar = try PipelineScript.calendar()
    let lengths = try script.days.map { day in
      try ReferenceUsage.bounds(of: day, calendar).count
    }
    #expect(lengths == [86_400, 82_800, 86_400])

    // Each day, each activity starts and ends once.
    let intervalCallbacks = script.entries.filter {
      if case .callback(.intervalDidStart, _, _) = $0.kind { return true }
      if case .callback(.intervalDidEnd, _, _) = $0.kind { return true }
      return false
    }
    #expect(intervalCallbacks.count == 12)

    let events = try Self.thresholds(script)
    let duplicates = events.enumerated().filter { index, event in
      events[..<index].contains { $0.0 == event.0 && $0.1 == event.1 && event.3 - $0.3 <= 20 }
    }
    // A threshold again after a higher one of the same app, within 5 minutes of its first time.
    let late = events.enumerated().filter { index, event in
      let app = event.1.split(separator: ":").last
      return events[..<index].contains {
        $0.0 == event.0 && $0.1 == event.1 && event.3 - $0.3 >= 30
      }
        && events[..<index].contains {
          $0.0 == event.0 && $0.1.split(separator: ":").last == app && $0.2 > event.2
            && event.3 - $0.3 <= 300
        }
    }
    #expect(duplicates.count > 5)
    #expect(late.count > 5)
    // Each morning, a burst of thresholds above the time since 07:00, within 2 s.
    for day in script.days {
      let morning = try #require(
        try ReferenceUsage.occurrence(
          of: "morning", at: try ReferenceUsage.bounds(of: day, calendar).lowerBound + 8 * 3_600,
          calendar))
      let implausible = events.filter {
        $0.0 == "morning" && morning.contains($0.3) && $0.2 > $0.3 - morning.lowerBound
      }
      #expect(implausible.count >= 2, "\(day)")
      #expect((implausible.map(\.3).max() ?? 0) - (implausible.map(\.3).min() ?? 0) <= 2)
    }

    // 40 minutes with nothing at all; elsewhere never more than 2 minutes without a tick.
    #expect(script.deadStretch.count == 40 * 60)
    #expect(!script.entries.contains { script.deadStretch.contains($0.second) })
    let ticks = script.entries.filter { !$0.isCallback }.map(\.second)
    for (before, after) in zip(ticks, ticks.dropFirst()) where after - before > 120 {
      #expect(before < script.deadStretch.lowerBound && after >= script.deadStretch.upperBound)
    }
    // Use across the missing hour, and during the dead stretch.
    let change = try ReferenceUsage.bounds(of: script.days[1], calendar).lowerBound + 2 * 3_600
    #expect(script.sessions.contains { $0.start < change && $0.end > change })
    #expect(script.sessions.contains { script.deadStretch.overlaps($0.start..<$0.end) })
    #expect(script.entries.count { $0.killsControl } > 5)
  }

  @Test("the reference lays each step out as late as the reports allow, from the interval start")
  func referenceLaysOutAsLateAsAllowed() {
    // 60 s by 100 and 120 s by 150: one stretch ending at 150.
    #expect(ReferenceUsage.secondsInUse(0, [60: 100, 120: 150]) == Array(30..<150))
    // Two stretches when the reports are far apart.
    #expect(
      ReferenceUsage.secondsInUse(0, [60: 100, 120: 500]) == Array(40..<100) + Array(440..<500))
    // A lower threshold reported after a higher one: the higher report bounds it.
    #expect(ReferenceUsage.secondsInUse(0, [60: 200, 120: 150]) == Array(30..<150))
    // Never before the interval's start.
    #expect(ReferenceUsage.secondsInUse(50, [120: 150]) == Array(50..<150))
  }

  @Test("the reference gives each second of an interval to one app, the step due latest first")
  func referenceLaysOutOneAppAtATime() {
    // Alone, b would be in use from 130 to 190, while a is: b's step, due earlier, goes before.
    let apart = ReferenceUsage.secondsInUse(
      0, ["a": [60: 200], "b": [60: 190]], lastReport: 200)
    #expect(apart.mapValues { $0.sorted() } == ["a": Array(140..<200), "b": Array(80..<140)])
    // Alone, b's whole step fits after the start; beside a, 20 s of it do not, and go to the
    // latest seconds still free before the last report (a duplicate at 300).
    let crowded = ReferenceUsage.secondsInUse(
      0, ["a": [60: 100], "b": [60: 90]], lastReport: 300)
    #expect(
      crowded.mapValues { $0.sorted() } == [
        "a": Array(40..<100), "b": Array(0..<40) + Array(280..<300),
      ])
    // Control: the same reports laid out app by app overlap, which one foreground app forbids.
    let alone = Set(ReferenceUsage.secondsInUse(0, [60: 200]))
    #expect(!alone.isDisjoint(with: ReferenceUsage.secondsInUse(0, [60: 190])))
  }

  @Test("the reference parses threshold event names in minutes and in seconds")
  func referenceParsesNames() throws {
    #expect(try ReferenceUsage.parse("stk:15m:com.example.app") == (900, "com.example.app"))
    #expect(try ReferenceUsage.parse("stk:90s:com.example.app") == (90, "com.example.app"))
    #expect(throws: FixtureError.self) { try ReferenceUsage.parse("dam:15m:com.example.app") }
  }
}
