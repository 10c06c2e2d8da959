import BudgetMath
import Foundation
import Testing
import UsageModel

@Suite("Focus sessions and countdowns")
struct FocusSessionTests {
  static let nine = Date(timeIntervalSince1970: 1_772_960_400)  // 2026-03-08T09:00:00Z

  static func at(_ minutes: Double) -> Date { nine.addingTimeInterval(minutes * 60) }

  static func session(startingIn offset: Double = 0, focus: Int64 = 25) throws -> FocusSession {
    try FocusSession(id: "deep-work", scheduledStart: at(offset), focusDuration: minutes(focus))
  }

  /// A session in each situation of the transition table, and the instant to send an event.
  enum Situation: String, CaseIterable, CustomTestStringConvertible {
    case scheduled, startedExplicitly, promoted, onBreak, afterAutomaticBreakEnd
    case completedExplicitly, completedAutomatically, cancelled

    var testDescription: String { rawValue }

    /// The session and the instant at which the next event arrives.
    func make() throws -> (FocusSession, Date) {
      switch self {
      case .scheduled:
        return (try FocusSessionTests.session(startingIn: 60), FocusSessionTests.at(1))
      case .startedExplicitly:
        var session = try FocusSessionTests.session(startingIn: 60)
        try session.apply(.start(at: FocusSessionTests.at(0)))
        return (session, FocusSessionTests.at(5))
      case .promoted:
        return (try FocusSessionTests.session(), FocusSessionTests.at(5))
      case .onBreak:
        var session = try FocusSessionTests.session()
        try session.apply(.beginBreak(at: FocusSessionTests.at(5)))
        return (session, FocusSessionTests.at(8))
      case .afterAutomaticBreakEnd:
        var session = try FocusSessionTests.session()
        try session.apply(.beginBreak(at: FocusSessionTests.at(5), length: minutes(3)))
        return (session, FocusSessionTests.at(9))
      case .completedExplicitly:
        var session = try FocusSessionTests.session()
        try session.apply(.complete(at: FocusSessionTests.at(10)))
        return (session, FocusSessionTests.at(12))
      case .completedAutomatically:
        return (try FocusSessionTests.session(), FocusSessionTests.at(30))
      case .cancelled:
        var session = try FocusSessionTests.session()
        try session.apply(.cancel(at: FocusSessionTests.at(2)))
        return (session, FocusSessionTests.at(3))
      }
    }

    var phase: FocusPhase {
      switch self {
      case .scheduled: return .scheduled
      case .startedExplicitly, .promoted, .afterAutomaticBreakEnd: return .active
      case .onBreak: return .onBreak
      case .completedExplicitly, .completedAutomatically: return .completed
      case .cancelled: return .cancelled
      }
    }
  }

  /// What an event must do: move to a phase, change nothing, or be rejected.
  enum Expected: Equatable {
    case moves(to: FocusPhase)
    case confirms
    case illegal
  }

  /// The transition table of `FocusSession`'s documentation, written out: first the phase's
  /// own transitions, then the late confirmations of what happened by itself.
  static func expected(_ situation: Situation, _ kind: FocusEventKind) -> Expected {
    switch (situation.phase, kind) {
    case (.scheduled, .start), (.onBreak, .endBreak): return .moves(to: .active)
    case (.scheduled, .cancel), (.active, .cancel), (.onBreak, .cancel):
      return .moves(to: .cancelled)
    case (.active, .beginBreak): return .moves(to: .onBreak)
    case (.active, .complete), (.onBreak, .complete): return .moves(to: .completed)
    default: break
    }
    let wasPromoted = situation != .scheduled && situation != .startedExplicitly
    switch kind {
    case .start where wasPromoted: return .confirms
    case .endBreak where situation == .afterAutomaticBreakEnd: return .confirms
    case .complete where situation == .completedAutomatically: return .confirms
    default: return .illegal
    }
  }

  @Test(
    "every (state, event) pair does what the transition table says",
    arguments: Situation.allCases, FocusEventKind.allCases)
  func transitionTable(situation: Situation, kind: FocusEventKind) throws {
    var (session, when) = try situation.make()
    #expect(session.state(at: when).phase == situation.phase)
    let event: FocusEvent
    switch kind {
    case .start: event = .start(at: when)
    case .beginBreak: event = .beginBreak(at: when)
    case .endBreak: event = .endBreak(at: when)
    case .complete: event = .complete(at: when)
    case .cancel: event = .cancel(at: when)
    }
    let before = session
    switch Self.expected(situation, kind) {
    case .moves(let phase):
      #expect(try session.apply(event) == .applied)
      #expect(session.state(at: when).phase == phase)
      #expect(session.events.last == event)
    case .confirms:
      #expect(try session.apply(event) == .alreadyApplied)
      #expect(session == before)
    case .illegal:
      #expect(
        throws: BudgetMathError.illegalTransition(
          session: "deep-work", from: situation.phase, event: kind)
      ) { try session.apply(event) }
      #expect(session == before)
    }
  }

  @Test("a scheduled session becomes active at its scheduled start without any event")
  func promotionIsAutomatic() throws {
    let session = try Self.session(startingIn: 10)
    #expect(session.state(at: Self.at(9)).phase == .scheduled)
    #expect(session.state(at: Self.at(9)).endsAt == Self.at(35))
    let active = session.state(at: Self.at(10))
    #expect(active.phase == .active)
    #expect(active.startedAt == Self.at(10))
    #expect(session.state(at: Self.at(20)).focusRemaining == minutes(15))
  }

  @Test("a break moves the end out by its length, and a planned break ends by itself")
  func breakMovesEndOut() throws {
    var session = try Self.session()
    try session.apply(.beginBreak(at: Self.at(10), length: minutes(5)))
    let onBreak = session.state(at: Self.at(12))
    #expect(onBreak.phase == .onBreak)
    #expect(onBreak.focusElapsed == minutes(10))
    #expect(onBreak.focusRemaining == minutes(15))
    #expect(onBreak.breakEndsAt == Self.at(15))
    #expect(onBreak.endsAt == Self.at(30))
    #expect(onBreak.breakTime == minutes(2))
    // No event arrives at 9:15: the break ends by itself, its countdown never frozen at 00:00.
    let resumed = session.state(at: Self.at(20))
    #expect(resumed.phase == .active)
    #expect(resumed.focusRemaining == minutes(10))
    #expect(resumed.breakTime == minutes(5))
    #expect(resumed.endsAt == Self.at(30))
    let done = session.state(at: Self.at(31))
    #expect(done.phase == .completed)
    #expect(done.endedAt == Self.at(30))
    #expect(done.focusRemaining == .zero)
  }

  @Test("an open-ended break has no end until it is ended")
  func openBreakHasNoEnd() throws {
    var session = try Self.session()
    try session.apply(.beginBreak(at: Self.at(10)))
    let state = session.state(at: Self.at(50))
    #expect(state.phase == .onBreak)
    #expect(state.endsAt == nil)
    #expect(state.breakTime == minutes(40))
    try session.apply(.endBreak(at: Self.at(50)))
    #expect(session.state(at: Self.at(50)).endsAt == Self.at(65))
  }

  @Test("state is a pure function of the stored instants: asking twice, or earlier, agrees")
  func stateIsPure() throws {
    var session = try Self.session()
    try session.apply(.beginBreak(at: Self.at(5), length: minutes(2)))
    try session.apply(.beginBreak(at: Self.at(10)))
    try session.apply(.endBreak(at: Self.at(13)))
    for minute in stride(from: -5.0, through: 40, by: 0.5) {
      #expect(session.state(at: Self.at(minute)) == session.state(at: Self.at(minute)))
    }
    #expect(
      session.state(at: Self.at(6)).phase == .onBreak,
      "later events do not leak into earlier answers")
    #expect(session.state(at: Self.at(11)).focusElapsed == minutes(8))
    #expect(session.state(at: Self.at(40)).endedAt == Self.at(30))
  }

  @Test("an event before the previous one is rejected, but a late re-delivery changes nothing")
  func outOfOrderEventIsRejected() throws {
    var session = try Self.session()
    try session.apply(.beginBreak(at: Self.at(10)))
    #expect(throws: BudgetMathError.self) { try session.apply(.endBreak(at: Self.at(9))) }
    #expect(try session.apply(.beginBreak(at: Self.at(10))) == .alreadyApplied, "a re-delivery")
    try session.apply(.endBreak(at: Self.at(15)))
    let before = session
    #expect(try session.apply(.beginBreak(at: Self.at(10))) == .alreadyApplied, "however late")
    #expect(session == before)
  }

  @Test("a late confirmation of an automatic transition changes nothing, whatever happened since")
  func lateConfirmationsChangeNothing() throws {
    // The break ends by itself at 9:29 and the session completes by itself at 9:30; the
    // extension's callback for the break's end arrives at 9:31.
    var session = try Self.session()
    try session.apply(.beginBreak(at: Self.at(24), length: minutes(5)))
    #expect(try session.apply(.endBreak(at: Self.at(31))) == .alreadyApplied)
    #expect(try session.apply(.complete(at: Self.at(32))) == .alreadyApplied)
    #expect(session.state(at: Self.at(40)).endedAt == Self.at(30))

    // Promoted at 9:00, on a break from 9:01; the extension's intervalDidStart arrives at 9:02.
    var promoted = try Self.session()
    try promoted.apply(.beginBreak(at: Self.at(1)))
    let before = promoted
    #expect(try promoted.apply(.start(at: Self.at(2))) == .alreadyApplied)
    #expect(promoted == before)
    #expect(promoted.state(at: Self.at(3)).phase == .onBreak)
  }

  @Test("a countdown across a spring-forward change counts real time, not wall-clock time")
  func countdownAcrossDST() throws {
    // 2026-03-08 01:30 EST in New York; clocks jump from 02:00 to 03:00.
    let start = try instant("2026-03-08T06:30:00Z")
    let session = try FocusSession(id: "night", scheduledStart: start, focusDuration: minutes(60))
    let state = session.state(at: start.addingTimeInterval(15 * 60))
    #expect(state.focusRemaining == minutes(45))
    #expect(state.endsAt == start.addingTimeInterval(3600))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "America/New_York"))
    let end = try #require(state.endsAt)
    #expect(calendar.component(.hour, from: end) == 3, "60 minutes after 01:30 is 03:30 local")
    #expect(calendar.component(.minute, from: end) == 30)
  }

  @Test("a countdown across a fall-back change counts the repeated hour")
  func countdownAcrossFallBack() throws {
    // 2026-11-01 01:30 EDT in New York; 01:00–02:00 happens twice.
    let start = try instant("2026-11-01T05:30:00Z")
    let countdown = Countdown(start: start, duration: minutes(60))
    #expect(countdown.remaining(at: start.addingTimeInterval(30 * 60)) == minutes(30))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "America/New_York"))
    #expect(calendar.component(.hour, from: countdown.end) == 1, "01:30 EDT + 60 min is 01:30 EST")
    #expect(countdown.isFinished(at: start.addingTimeInterval(3600)))
    #expect(countdown.remaining(at: start.addingTimeInterval(7200)) == .zero)
  }

  @Test("sessions and their states encode in their documented JSON forms")
  func jsonForms() throws {
    var session = try Self.session()
    try session.apply(.beginBreak(at: Self.at(5), length: minutes(5)))
    #expect(
      try json(session)
        == #"{"events":[{"at":"2026-03-08T09:05:00Z","breakLengthMs":300000,"kind":"beginBreak"}],"focusDurationMs":1500000,"id":"deep-work","scheduledStart":"2026-03-08T09:00:00Z"}"#
    )
    #expect(try roundTrip(session) == session)
    let state = session.state(at: Self.at(7))
    #expect(try roundTrip(state) == state)
    #expect(try roundTrip(Countdown(end: Self.at(3))) == Countdown(end: Self.at(3)))
    let illegal = """
      {"events":[{"at":"2026-03-08T09:05:00Z","kind":"endBreak"}],"focusDurationMs":1500000,
       "id":"x","scheduledStart":"2026-03-08T09:00:00Z"}
      """
    #expect(throws: DecodingError.self) {
      _ = try JSONDecoder().decode(FocusSession.self, from: Data(illegal.utf8))
    }
  }

  @Test("invalid sessions and break lengths are rejected")
  func invalidInputIsRejected() throws {
    #expect(throws: BudgetMathError.self) {
      _ = try FocusSession(id: "", scheduledStart: Self.nine, focusDuration: minutes(1))
    }
    #expect(throws: BudgetMathError.self) {
      _ = try FocusSession(id: "x", scheduledStart: Self.nine, focusDuration: .zero)
    }
    var session = try Self.session()
    #expect(throws: BudgetMathError.self) {
      try session.apply(.beginBreak(at: Self.at(1), length: .zero))
    }
    #expect(session.events.isEmpty)
  }
}
