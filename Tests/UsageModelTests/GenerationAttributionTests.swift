import Foundation
import TestSupport
import Testing
import UsageModel

/// The registration-generation rules of `IntervalAttribution.attribute(_:of:receivedAt:)`.
@Suite("Attributing events of registration generations")
struct GenerationAttributionTests {
  let zone: TimeZone
  let plan: MonitoringPlan
  let midnight: Date

  init() throws {
    zone = try TestSupport.zone("Europe/Paris")
    plan = try MonitoringPlan([
      MonitoredActivity(
        name: "daily",
        schedule: .daily(try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))))
    ])
    midnight = try instant("2026-04-14T00:00:00+02:00")
  }

  /// An instant of 2026-04-14 in Paris.
  func at(_ time: String) throws -> Date { try instant("2026-04-14T\(time)+02:00") }

  func name(_ minutes: Int, generation: UInt32?) throws -> ThresholdEventName {
    try ThresholdEventName(
      app: try app("com.a"), threshold: .minutes(minutes), generation: generation)
  }

  func registration(
    _ generation: UInt32, at time: String, _ counting: ThresholdCounting, past: Bool = true
  ) throws -> MonitoringRegistration {
    try MonitoringRegistration(
      activity: "daily", generation: generation, registeredAt: try at(time),
      includesPastActivity: past, counting: counting)
  }

  /// Generation 0 at midnight, generation 1 at noon, counted as `counting`; the platform's
  /// starts at midnight and at noon recorded.
  func rearmed(_ counting: ThresholdCounting) throws -> IntervalAttribution {
    var attribution = IntervalAttribution(
      plan: plan, timeZone: zone,
      registrations: [
        try registration(0, at: "00:00:00", .fromOccurrenceStart),
        try registration(1, at: "12:00:00", counting, past: counting == .fromOccurrenceStart),
      ])
    attribution.recordStart(of: "daily", at: midnight)
    attribution.recordStart(of: "daily", at: try at("12:00:00"))
    return attribution
  }

  /// The day's total of com.a: the events attributed and counted, summed over intervals.
  func total(
    _ events: [(name: ThresholdEventName, at: Date)], attribution: IntervalAttribution,
    fallbackPast: Bool = false
  ) throws -> Duration {
    var accountant = ThresholdAccountant(timeZone: zone)
    for event in events {
      guard
        case .interval(let start, let registration) = attribution.attribute(
          event.name, of: "daily", receivedAt: event.at)
      else { continue }
      _ = accountant.record(
        try ThresholdEvent(
          name: event.name, intervalStart: start, receivedAt: event.at,
          includesPastActivity: registration?.includesPastActivity ?? fallbackPast))
    }
    let com = try app("com.a")
    return accountant.intervals.reduce(.zero) {
      $0
        + $1.apps.filter { $0.app == com }
        .map(\.highest).reduce(.zero, +)
    }
  }

  @Test("an event without a generation, or of an activity without registrations, is as before")
  func withoutGenerationsNothingChanges() throws {
    let attribution = try rearmed(.fromRegistration)
    let plain = try name(30, generation: nil)
    #expect(
      try attribution.attribute(plain, of: "daily", receivedAt: at("13:00:00"))
        == .interval(start: at("12:00:00"), registration: nil))
    var other = IntervalAttribution(plan: nil, timeZone: zone, registrations: [])
    other.recordStart(of: "focus", at: midnight)
    #expect(
      other.attribute(try name(30, generation: 7), of: "focus", receivedAt: try at("10:00:00"))
        == .interval(start: midnight, registration: nil))
  }

  @Test("an older generation received once a newer one is registered is a replay: no count")
  func olderGenerationIsAReplay() throws {
    let attribution = try rearmed(.fromOccurrenceStart)
    let old = try name(30, generation: 0)
    let verdict = attribution.attribute(old, of: "daily", receivedAt: try at("12:00:00"))
    #expect(
      try verdict
        == .replay(
          generation: 0, current: registration(1, at: "12:00:00", .fromOccurrenceStart)))
    // Before the re-registration, generation 0 is the current one.
    #expect(
      try attribution.attribute(old, of: "daily", receivedAt: at("11:59:59"))
        == .interval(
          start: midnight, registration: registration(0, at: "00:00:00", .fromOccurrenceStart)))
  }

  @Test("a generation with no registration, or registered after the event, is unknown")
  func unknownGenerations() throws {
    let attribution = try rearmed(.fromOccurrenceStart)
    #expect(
      attribution.attribute(try name(5, generation: 9), of: "daily", receivedAt: try at("13:00:00"))
        == .unknownGeneration(9))
    #expect(
      attribution.attribute(try name(5, generation: 1), of: "daily", receivedAt: try at("11:00:00"))
        == .unknownGeneration(1))
  }

  @Test("counted from the occurrence start: the re-registration's own start is no restart")
  func occurrenceStartKeepsTheOccurrence() throws {
    let attribution = try rearmed(.fromOccurrenceStart)
    #expect(attribution.intervalStart(of: "daily", containing: try at("12:30:00")) == midnight)
    #expect(
      try attribution.attribute(
        name(45, generation: 1), of: "daily", receivedAt: at("12:40:00"))
        == .interval(
          start: midnight, registration: registration(1, at: "12:00:00", .fromOccurrenceStart)))
  }

  @Test("a start more than 60 s after the re-registration is a restart")
  func laterStartIsARestart() throws {
    var attribution = try rearmed(.fromOccurrenceStart)
    #expect(attribution.intervalStart(of: "daily", containing: try at("12:01:00")) == midnight)
    attribution.recordStart(of: "daily", at: try at("12:01:01"))
    #expect(
      try attribution.intervalStart(of: "daily", containing: at("12:30:00"))
        == at("12:01:01"))
  }

  @Test("the first registration's start is kept: it is no re-registration")
  func firstRegistrationStartIsKept() throws {
    var attribution = IntervalAttribution(
      plan: nil, timeZone: zone,
      registrations: [try registration(0, at: "09:00:00", .fromOccurrenceStart)])
    attribution.recordStart(of: "daily", at: try at("09:00:00"))
    #expect(
      try attribution.intervalStart(of: "daily", containing: at("10:00:00")) == at("09:00:00")
    )
  }

  @Test("counted from registration: the interval starts at the registration")
  func registrationBeginsItsInterval() throws {
    var attribution = IntervalAttribution(
      plan: plan, timeZone: zone,
      registrations: [
        try registration(0, at: "00:00:00", .fromOccurrenceStart),
        try registration(1, at: "12:00:00", .fromRegistration, past: false),
      ])
    attribution.recordStart(of: "daily", at: midnight)  // no start recorded at noon
    #expect(
      try attribution.attribute(
        name(15, generation: 1), of: "daily", receivedAt: at("12:20:00"))
        == .interval(
          start: at("12:00:00"),
          registration: registration(1, at: "12:00:00", .fromRegistration, past: false)))
  }

  @Test("re-armed from the occurrence start with replays, the day is the highest: 2,700 s")
  func reproductionFromOccurrenceStart() throws {
    let attribution = try rearmed(.fromOccurrenceStart)
    let events = [
      (try name(30, generation: 0), try at("10:00:00")),
      (try name(30, generation: 1), try at("12:00:05")),  // the platform's replay
      (try name(45, generation: 1), try at("12:40:00")),
    ]
    #expect(try total(events.map { ($0.0, $0.1) }, attribution: attribution) == .seconds(2_700))
  }

  @Test("re-armed from registration, each registration's highest adds up: 30m + 15m = 2,700 s")
  func reproductionFromRegistration() throws {
    let attribution = try rearmed(.fromRegistration)
    let events = [
      (try name(30, generation: 0), try at("10:00:00")),
      (try name(15, generation: 1), try at("12:20:00")),
    ]
    #expect(try total(events.map { ($0.0, $0.1) }, attribution: attribution) == .seconds(2_700))
  }

  @Test("counted from registration, plausibility is measured from the registration")
  func plausibilityFromRegistration() throws {
    let attribution = try rearmed(.fromRegistration)
    // 15 minutes 10 minutes after the re-registration cannot have happened since it.
    let events = [(try name(15, generation: 1), try at("12:10:00"))]
    #expect(try total(events.map { ($0.0, $0.1) }, attribution: attribution) == .zero)
  }

  @Test(
    "property: replaying older generations' events, in any subset, order or number, changes no total",
    arguments: 1...40)
  func replaysChangeNothing(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let counting: ThresholdCounting = seed % 2 == 0 ? .fromOccurrenceStart : .fromRegistration
    let attribution = try rearmed(counting)
    let real: [(name: ThresholdEventName, at: Date)] = [
      (try name(10, generation: 0), try at("09:00:00")),
      (try name(30, generation: 0), try at("10:00:00")),
      (try name(45, generation: 1), try at("12:50:00")),
    ]
    let before = try total(real, attribution: attribution)
    var replays: [(name: ThresholdEventName, at: Date)] = []
    for _ in 0..<Int(random.next() % 12) {
      let minutes = 5 * Int(1 + random.next() % 36)
      let received = try at("12:00:00").addingTimeInterval(Double(random.next() % 40_000))
      replays.append((try name(minutes, generation: 0), received))
    }
    var all = real + replays + replays.prefix(Int(random.next() % 3))
    all.shuffle(using: &random)
    #expect(try total(all, attribution: attribution) == before)
  }
}
