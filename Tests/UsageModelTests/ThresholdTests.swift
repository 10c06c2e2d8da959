import Foundation
import TestSupport
import Testing
import UsageModel

@Suite("Threshold events and accounting")
struct ThresholdTests {
  let timeZone: TimeZone
  let instagram: AppID
  let midnight: Date

  init() throws {
    timeZone = try zone("America/New_York")
    instagram = try app("com.instagram.instagram")
    midnight = try instant("2026-01-02T00:00:00-05:00")
  }

  func event(
    _ minutes: Int, at received: String, intervalStart: Date? = nil, pastActivity: Bool = false,
    app: AppID? = nil
  ) throws -> ThresholdEvent {
    try ThresholdEvent(
      name: try ThresholdEventName(app: app ?? instagram, threshold: .minutes(minutes)),
      intervalStart: intervalStart ?? midnight, receivedAt: try instant(received),
      includesPastActivity: pastActivity)
  }

  // MARK: - Names

  @Test(
    "event names encode the app and threshold and parse back to the same value",
    arguments: [
      (900, "stk:15m:com.instagram.instagram"), (90, "stk:90s:com.instagram.instagram"),
      (604_800, "stk:10080m:com.instagram.instagram"), (1, "stk:1s:com.instagram.instagram"),
    ])
  func eventNamesRoundTrip(seconds: Int, name: String) throws {
    let value = try ThresholdEventName(app: instagram, threshold: .seconds(seconds))
    #expect(value.rawValue == name)
    #expect(try ThresholdEventName(parsing: name) == value)
    #expect(try json(value) == "\"\(name)\"")
  }

  @Test("an app ID containing ':' survives the name")
  func appWithColon() throws {
    let token = try app("token:AbC/+=")
    let name = try ThresholdEventName(app: token, threshold: .minutes(2))
    #expect(try ThresholdEventName(parsing: name.rawValue).app == token)
  }

  @Test(
    "malformed or non-canonical names are rejected with a typed error",
    arguments: [
      "", "stk", "stk:15m", "usage:15m:com.a", "stk:15:com.a", "stk:60s:com.a", "stk:015m:com.a",
      "stk:0m:com.a", "stk:-5m:com.a", "stk:10081m:com.a", "stk:15m:", "stk:15m:com a",
      "STK:15m:com.a",
    ])
  func malformedNames(name: String) {
    #expect(throws: UsageModelError.self) { try ThresholdEventName(parsing: name) }
  }

  @Test("thresholds must be whole seconds between 1 second and 7 days")
  func thresholdRange() throws {
    for threshold in [Duration.zero, .milliseconds(1500), .seconds(7 * 86_400 + 1), .seconds(-60)] {
      #expect(throws: UsageModelError.self) {
        try ThresholdEventName(app: instagram, threshold: threshold)
      }
    }
  }

  // MARK: - Accounting

  @Test("usage is the highest threshold reached, counted as the increase over the last one")
  func highestThresholdReached() throws {
    var accountant = ThresholdAccountant(timeZone: timeZone)
    #expect(
      accountant.record(try event(1, at: "2026-01-02T09:01:00-05:00"))
        == .counted(added: .minutes(1), total: .minutes(1)))
    #expect(
      accountant.record(try event(2, at: "2026-01-02T09:02:00-05:00"))
        == .counted(added: .minutes(1), total: .minutes(2)))
    #expect(
      accountant.record(try event(5, at: "2026-01-02T09:10:00-05:00"))
        == .counted(added: .minutes(3), total: .minutes(5)))
    #expect(accountant.usage(of: instagram, inIntervalStartingAt: midnight) == .minutes(5))
  }

  /// One 15-minute threshold as the platform may deliver it: the event, the very same event
  /// again, and a copy received 7 seconds later.
  func deliveriesOfOneThreshold() throws -> [ThresholdEvent] {
    let first = try event(15, at: "2026-01-02T10:00:00-05:00")
    return [first, first, try event(15, at: "2026-01-02T10:00:07-05:00")]
  }

  /// Whether booking `deliveries` with `book` — which returns the usage a delivery adds —
  /// counts the threshold once: the additions sum to exactly the threshold.
  static func countsOnce(_ deliveries: [ThresholdEvent], book: (ThresholdEvent) -> Duration)
    -> Bool
  {
    deliveries.reduce(Duration.zero) { $0 + book($1) } == deliveries[0].name.threshold
  }

  @Test("a duplicate event adds no usage")
  func duplicateThresholdEventAddsNoUsage() throws {
    var accountant = ThresholdAccountant(timeZone: timeZone)
    var outcomes: [ThresholdOutcome] = []
    #expect(
      Self.countsOnce(try deliveriesOfOneThreshold()) { delivery in
        outcomes.append(accountant.record(delivery))
        return outcomes[outcomes.count - 1].added
      })
    #expect(
      outcomes == [
        .counted(added: .minutes(15), total: .minutes(15)), .duplicate(total: .minutes(15)),
        .duplicate(total: .minutes(15)),
      ])
    #expect(accountant.usage(of: instagram, inIntervalStartingAt: midnight) == .minutes(15))
  }

  @Test("the duplicate check catches a counter that books every delivery (control)")
  func duplicateCheckCatchesPerDeliveryCounters() throws {
    let deliveries = try deliveriesOfOneThreshold()
    // A minimal recording path that books every delivery adds usage each time.
    #expect(!Self.countsOnce(deliveries) { $0.name.threshold })
    // Deduplicating identical deliveries is not enough: the copy received later still counts.
    var seen: Set<ThresholdEvent> = []
    #expect(!Self.countsOnce(deliveries) { seen.insert($0).inserted ? $0.name.threshold : .zero })
  }

  @Test("late and out-of-order events add nothing; the total does not depend on the order")
  func reorderedEvents() throws {
    let events = try [1, 2, 3, 4, 5, 10].map { try event($0, at: "2026-01-02T12:00:00-05:00") }
    var forward = ThresholdAccountant(timeZone: timeZone)
    var random = SplitMix64(seed: 7)
    for event in events { _ = forward.record(event) }
    for _ in 0..<20 {
      var shuffled = ThresholdAccountant(timeZone: timeZone)
      var added = Duration.zero
      for event in (events + events).shuffled(using: &random) {
        added += shuffled.record(event).added
      }
      #expect(added == .minutes(10))
      #expect(
        shuffled.usage(inIntervalStartingAt: midnight)
          == forward.usage(inIntervalStartingAt: midnight))
    }
    var late = ThresholdAccountant(timeZone: timeZone)
    _ = late.record(try event(10, at: "2026-01-02T12:00:00-05:00"))
    #expect(
      late.record(try event(3, at: "2026-01-02T12:05:00-05:00")) == .superseded(total: .minutes(10))
    )
  }

  @Test("a new monitoring interval starts from zero; a late event counts only in its own interval")
  func newIntervalResetsAccumulation() throws {
    var accountant = ThresholdAccountant(timeZone: timeZone)
    let nextMidnight = try instant("2026-01-03T00:00:00-05:00")
    _ = accountant.record(try event(30, at: "2026-01-02T20:00:00-05:00"))
    #expect(
      accountant.record(try event(5, at: "2026-01-03T08:00:00-05:00", intervalStart: nextMidnight))
        == .counted(added: .minutes(5), total: .minutes(5)))
    #expect(
      accountant.record(try event(40, at: "2026-01-03T08:01:00-05:00"))
        == .counted(added: .minutes(10), total: .minutes(40)))
    #expect(accountant.usage(of: instagram, inIntervalStartingAt: midnight) == .minutes(40))
    #expect(accountant.usage(of: instagram, inIntervalStartingAt: nextMidnight) == .minutes(5))
    #expect(accountant.intervals.map(\.start) == [midnight, nextMidnight])
    #expect(accountant.removeIntervals(startingBefore: nextMidnight) == 1)
    #expect(accountant.intervals.map(\.start) == [nextMidnight])
  }

  @Test("apps are accounted separately")
  func appsAreSeparate() throws {
    var accountant = ThresholdAccountant(timeZone: timeZone)
    let netflix = try app("com.netflix.Netflix")
    _ = accountant.record(try event(10, at: "2026-01-02T12:00:00-05:00"))
    _ = accountant.record(try event(20, at: "2026-01-02T12:30:00-05:00", app: netflix))
    #expect(
      accountant.usage(inIntervalStartingAt: midnight) == [
        instagram: .minutes(10), netflix: .minutes(20),
      ])
  }

  @Test("every threshold firing at the first pickup of the day is flagged, not counted")
  func implausibleEventsAreFlagged() throws {
    var accountant = ThresholdAccountant(timeZone: timeZone)
    // At 00:02, two minutes into the interval, thresholds of 1 to 60 minutes all fire.
    var counted = Duration.zero
    for minutes in 1...60 {
      let outcome = accountant.record(try event(minutes, at: "2026-01-02T00:02:00-05:00"))
      counted += outcome.added
      if minutes > 2 {
        guard case .implausible(let report) = outcome else {
          Issue.record("threshold \(minutes) m was not flagged: \(outcome)")
          continue
        }
        #expect(report.elapsed == .minutes(2))
        #expect(report.allowance == .zero)
      }
    }
    #expect(counted == .minutes(2))
    #expect(accountant.implausibleEvents.count == 58)
    // The same implausible event delivered again is reported again but stored once.
    _ = accountant.record(try event(60, at: "2026-01-02T00:02:00-05:00"))
    #expect(accountant.implausibleEvents.count == 58)
    // An hour later, the 60-minute threshold is plausible and counts.
    #expect(accountant.record(try event(60, at: "2026-01-02T01:00:00-05:00")).added == .minutes(58))
  }

  @Test("includesPastActivity allows the time since the start of the local hour")
  func pastActivityAllowance() throws {
    var accountant = ThresholdAccountant(timeZone: timeZone)
    let start = try instant("2026-01-02T10:20:00-05:00")
    #expect(accountant.pastActivityAllowance(intervalStart: start) == .minutes(20))
    // 5 minutes after a 10:20 start, 25 minutes of use is possible with past activity …
    #expect(
      accountant.record(
        try event(25, at: "2026-01-02T10:25:00-05:00", intervalStart: start, pastActivity: true)
      ).added
        == .minutes(25))
    // … but not 26, and not 25 without past activity.
    guard
      case .implausible = accountant.record(
        try event(26, at: "2026-01-02T10:25:00-05:00", intervalStart: start, pastActivity: true))
    else {
      Issue.record("26 minutes should be implausible")
      return
    }
    let other = try app("com.netflix.Netflix")
    guard
      case .implausible = accountant.record(
        try event(25, at: "2026-01-02T10:25:00-05:00", intervalStart: start, app: other))
    else {
      Issue.record("25 minutes without past activity should be implausible")
      return
    }
    // In a zone with a half-hour offset the local hour is what counts.
    let india = ThresholdAccountant(timeZone: try zone("Asia/Kolkata"))
    #expect(
      india.pastActivityAllowance(intervalStart: try instant("2026-01-02T10:20:00+05:30"))
        == .minutes(20))
  }

  @Test("the accountant's state round-trips through its documented JSON form")
  func accountantJSON() throws {
    var accountant = ThresholdAccountant(timeZone: timeZone)
    _ = accountant.record(try event(15, at: "2026-01-02T10:00:00-05:00"))
    _ = accountant.record(try event(30, at: "2026-01-02T00:01:00-05:00"))
    let text = try json(accountant)
    #expect(
      text == """
        {"intervals":[{"apps":[{"app":"com.instagram.instagram","highestMs":900000,\
        "reachedAt":"2026-01-02T15:00:00Z"}],"implausibleEvents":[{"allowanceMs":0,\
        "elapsedMs":60000,"event":{"includesPastActivity":false,\
        "intervalStart":"2026-01-02T05:00:00Z","name":"stk:30m:com.instagram.instagram",\
        "receivedAt":"2026-01-02T05:01:00Z"}}],"start":"2026-01-02T05:00:00Z"}],\
        "timeZone":"America/New_York","toleranceMs":0}
        """)
    #expect(try decode(ThresholdAccountant.self, text) == accountant)
  }

  @Test("an accountant without tolerance cannot fail and is the one with a zero tolerance")
  func accountantWithoutToleranceCannotFail() throws {
    let accountant = ThresholdAccountant(timeZone: timeZone)
    #expect(try accountant == ThresholdAccountant(timeZone: timeZone, tolerance: .zero))
    #expect(accountant.tolerance == .zero)
    #expect(accountant.intervals.isEmpty)
  }

  @Test(
    "a negative or fractional-millisecond tolerance is a typed error",
    arguments: [Duration.seconds(-1), .milliseconds(-1), .microseconds(1500)])
  func invalidTolerance(tolerance: Duration) throws {
    #expect(throws: UsageModelError.self) {
      try ThresholdAccountant(timeZone: timeZone, tolerance: tolerance)
    }
  }
}
