import Foundation
import TestSupport
import Testing

/// The corpus, built once for every test of the file.
private let corpus = PlatformCorpus.scenarios

/// A scenario of the corpus by name.
private func scenario(_ name: String) throws -> PlatformScenario {
  try #require(corpus.first { $0.name == name })
}

/// The simulator's own rules: its truth is possible, its platform fires what it should, and its
/// readings relate as they must.
@Suite("Platform simulator: ground truth, platform model and corpus")
struct PlatformSimulatorTests {
  // MARK: - Ground truth

  @Test(
    "truth has one foreground app at a time: a day's total is at most its length, the union",
    arguments: PlatformCorpus.names)
  func oneAppAtATime(name: String) throws {
    let scenario = try scenario(name)
    let sessions = scenario.plan.sessions
    #expect(!sessions.isEmpty)
    for (earlier, later) in zip(sessions, sessions.dropFirst()) {
      #expect(earlier.start < earlier.end && earlier.end <= later.start)
    }
    for day in scenario.truth.days {
      let intervals = scenario.simulator.intervals.filter { $0.day == day }
      let length = intervals.reduce(0) { $0 + $1.length }
      let union = intervals.reduce(0) { $0 + unionOfSessions(sessions, $1.start, $1.end) }
      #expect(scenario.truth.total(day: day) <= length)
      #expect(scenario.truth.total(day: day) == union)
    }
  }

  /// The seconds covered by any session between two instants, merged independently of the plan.
  private func unionOfSessions(_ sessions: [UsageSession], _ from: Int, _ to: Int) -> Int {
    let spans = sessions.map { (max($0.start, from), min($0.end, to)) }.filter { $0.0 < $0.1 }
    var covered = 0
    var reach = Int.min
    for (start, end) in spans.sorted(by: { $0.0 < $1.0 }) where end > reach {
      covered += end - max(start, reach)
      reach = end
    }
    return covered
  }

  @Test("a DST spring-forward day is 23 hours long, and its use stays in it")
  func dstDay() throws {
    let scenario = try scenario("DST spring forward")
    let day = try #require(scenario.simulator.intervals.first { $0.day == "2026-03-08" })
    #expect(day.length == 23 * 3_600)
    #expect(scenario.truth.total(day: "2026-03-08") <= 23 * 3_600)
  }

  @Test("after flying west, two intervals share the day and the truth adds them")
  func travel() throws {
    let scenario = try scenario("travel Paris→New York")
    let days = scenario.simulator.intervals.filter { $0.day == "2026-04-14" }
    #expect(days.map(\.timeZone.identifier) == ["Europe/Paris", "America/New_York"])
    let use = days.reduce(0) { $0 + scenario.plan.use(of: nil, from: $1.start, to: $1.end) }
    #expect(scenario.truth.total(day: "2026-04-14") == use)
  }

  // MARK: - Platform model

  @Test(
    "under .ideal thresholds arrive when reached; naive is within one step of truth per app and day"
  )
  func ideal() throws {
    let scenario = try scenario("ideal")
    let intervals = scenario.simulator.intervals
    for delivery in scenario.deliveries where delivery.threshold != nil {
      let threshold = try #require(delivery.threshold)
      let at = LocalClock.seconds(delivery.callback.at)
      let start = intervals[delivery.interval].start
      #expect(at == delivery.firedAt && !delivery.isPhantom)
      #expect(scenario.plan.use(of: delivery.app, from: start, to: at) == threshold)
    }
    #expect(withinOneStep(scenario))
  }

  @Test("control: a phantom scenario is caught outside one ladder step")
  func idealControl() throws {
    #expect(!withinOneStep(try scenario("first-pickup phantoms")))
  }

  /// Whether the naive reading is within one step below the truth for every app and day.
  private func withinOneStep(_ scenario: PlatformScenario) -> Bool {
    let keys = scenario.truth.keys + scenario.naive.keys
    return keys.allSatisfy { key in
      let gap = scenario.truth[key.day, key.app] - scenario.naive[key.day, key.app]
      return gap >= 0 && gap < scenario.ladderStep
    }
  }

  @Test(
    "duplicates, delays, reordering, storms keep the distinct (name, interval) thresholds",
    arguments: [
      Behaviour.duplicated(probability: 0.6), .late(maxSeconds: 3_600), .outOfOrder,
      .catchUpStorm(
        from: PlatformCorpus.paris("2026-04-13T20:00:00"),
        to: PlatformCorpus.paris("2026-04-14T09:00:00")),
    ])
  func deliveryKeepsThresholds(behaviour: Behaviour) {
    let ideal = PlatformScenario(name: "ideal", seed: 7, behaviours: [.ideal])
    let moved = PlatformScenario(name: "moved", seed: 7, behaviours: [behaviour])
    #expect(distinctThresholds(moved) == distinctThresholds(ideal))
    #expect(moved.callbacks != ideal.callbacks)
    #expect(moved.revealed == ideal.revealed)
  }

  private func distinctThresholds(_ scenario: PlatformScenario) -> Set<[String]> {
    Set(
      scenario.deliveries.compactMap { delivery in
        delivery.callback.event.map { [$0, String(delivery.interval)] }
      })
  }

  @Test(
    "phantom scenarios make the naive reading exceed the truth",
    arguments: ["first-pickup phantoms", "charger phantoms", "monitoring-start phantoms"])
  func phantoms(name: String) throws {
    let scenario = try scenario(name)
    #expect(scenario.deliveries.contains { $0.isPhantom })
    #expect(scenario.naive.total > scenario.truth.total)
    let ratio = Double(scenario.naive.total) / Double(max(1, scenario.truth.total))
    print("\(name): naive/truth = \(String(format: "%.2f", ratio))")
  }

  @Test("late callbacks arrive no earlier than fired and no later than the maximum delay")
  func late() throws {
    let scenario = try scenario("late")
    let delays = scenario.deliveries.map { LocalClock.seconds($0.callback.at) - $0.firedAt }
    #expect(delays.allSatisfy { (0...(45 * 60)).contains($0) })
    #expect(delays.contains { $0 > 60 })
  }

  @Test("out-of-order delivery puts some callbacks after ones fired later")
  func outOfOrder() throws {
    let fired = try scenario("out-of-order").deliveries.map(\.firedAt)
    #expect(zip(fired, fired.dropFirst()).contains { $0 > $1 })
    let ideal = try scenario("ideal").deliveries.map(\.firedAt)
    #expect(zip(ideal, ideal.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test("a catch-up storm holds every callback of its span and delivers them at its end")
  func storm() throws {
    let scenario = try scenario("catch-up storm")
    let from = LocalClock.seconds(PlatformCorpus.paris("2026-04-13T21:30:00"))
    let to = LocalClock.seconds(PlatformCorpus.paris("2026-04-14T07:30:00"))
    let instants = scenario.deliveries.map { LocalClock.seconds($0.callback.at) }
    #expect(instants.allSatisfy { $0 < from || $0 >= to })
    #expect(instants.filter { $0 == to }.count > 1)
  }

  @Test("more than half the threshold callbacks come twice when duplicated at 0.6")
  func duplicated() throws {
    let scenario = try scenario("duplicated")
    let thresholds = scenario.deliveries.filter { $0.threshold != nil }
    let copies = thresholds.filter(\.isDuplicate).count
    #expect(copies * 2 > thresholds.count - copies)
  }

  @Test("a re-arm counted from the occurrence start replays, at registration, what was reached")
  func replays() throws {
    let scenario = try scenario("re-arm, counted from occurrence start (replays)")
    let registration = try #require(scenario.simulator.registrations.last)
    let replays = scenario.deliveries.filter {
      $0.generation == registration.generation && $0.firedAt == registration.at
    }
    #expect(!replays.isEmpty && replays.allSatisfy { !$0.isPhantom })
  }

  @Test("a midnight re-arm replays yesterday's thresholds into today as phantoms")
  func midnightReplays() throws {
    let scenario = try scenario("midnight re-arm")
    #expect(scenario.deliveries.contains { $0.isPhantom && $0.generation > 0 })
    #expect(scenario.naive.total > scenario.truth.total)
  }

  @Test("event names round-trip through the ladder's writing", arguments: [0, 1, 12])
  func eventNames(generation: Int) throws {
    for threshold in [90, 300, 14_400] {
      let name = ThresholdLadder.eventName(
        threshold: threshold, app: "com.a", generation: generation)
      let parsed = try #require(ThresholdLadder.parse(name))
      #expect(parsed.threshold == threshold && parsed.app == "com.a")
      #expect(parsed.generation == generation)
    }
    #expect(
      ThresholdLadder.eventName(threshold: 900, app: "com.a", generation: 2) == "stk:g2:15m:com.a")
  }

  // MARK: - Readings

  @Test("revealed truth never exceeds the truth", arguments: PlatformCorpus.names)
  func revealedBelowTruth(name: String) throws {
    let scenario = try scenario(name)
    for key in scenario.revealed.keys {
      #expect(scenario.revealed[key.day, key.app] <= scenario.truth[key.day, key.app])
    }
  }

  @Test("control: counting phantoms as proof makes the revealed truth exceed the truth")
  func revealedControl() throws {
    let scenario = try scenario("first-pickup phantoms")
    let simulator = scenario.simulator
    let credulous = SimulationReadings.revealed(
      deliveries: scenario.deliveries, windows: simulator.windows,
      intervals: simulator.intervals, includingPhantoms: true)
    #expect(credulous.total > scenario.truth.total)
  }

  @Test("generations matter: after a re-arm counted from registration, revealed beats naive")
  func generationsMatter() throws {
    let scenario = try scenario("re-arm, counted from registration")
    #expect(scenario.revealed.total > scenario.naive.total + scenario.ladderStep)
  }

  @Test("equal seeds give equal scenarios, and another seed another one")
  func determinism() {
    let again = PlatformCorpus.scenarios
    #expect(again == corpus)
    let other = PlatformScenario(name: "ideal", seed: 9_999, behaviours: [.ideal])
    #expect(other.plan != corpus[0].plan)
  }

  @Test("the corpus's readings, one line per scenario")
  func summary() {
    #expect(corpus.count == 13)
    for scenario in corpus {
      print(scenario.summary)
    }
  }

  @Test("the corpus's readings per day")
  func dailySummary() {
    for line in corpus.flatMap(\.dayLines) {
      print(line)
    }
  }
}
