import Foundation
import UsageModel

/// A focus session with breaks, as a focus app runs them, kept as a list of facts.
///
/// A session stores only its schedule and the events that happened to it. Its phase, the focus
/// time left, when it ends — everything a countdown shows — is recomputed from those instants by
/// ``state(at:)``, never decremented by a timer. So a countdown cannot freeze at 00:00 when a
/// timer callback races a state change, and the app and its extension, reading the same stored
/// session, always agree.
///
/// **The life of a session.** `scheduled → active ⇄ onBreak → completed | cancelled`.
/// Three transitions happen by themselves, as time passes:
/// - a scheduled session becomes active at its scheduled start (promotion);
/// - a break of planned length ends at its planned end, and focus resumes;
/// - an active session completes when its focus time is spent.
///
/// **Breaks move the end out.** Break time does not count as focus: a 25-minute session with a
/// 5-minute break ends 30 minutes after it started. ``FocusSessionState/endsAt`` always says
/// when focus will be done if no further break is taken.
///
/// **Events.** ``apply(_:)`` checks each event against the phase at the event's instant, after
/// the automatic transitions due by then:
///
/// | phase \ event | start | beginBreak | endBreak | complete | cancel |
/// |---|---|---|---|---|---|
/// | scheduled | active | ✗ | ✗ | ✗ | cancelled |
/// | active | ✗ | onBreak | ✗ | completed | cancelled |
/// | onBreak | ✗ | ✗ | active | completed | cancelled |
/// | completed | ✗ | ✗ | ✗ | ✗ | ✗ |
/// | cancelled | ✗ | ✗ | ✗ | ✗ | ✗ |
///
/// ✗ throws ``BudgetMathError/illegalTransition(session:from:event:)`` and changes nothing —
/// unless the event is a *confirmation*: a late report of a transition that already happened by
/// itself. `start` after the session was promoted at its scheduled start, `endBreak` after the
/// latest break ended by itself, and `complete` after the session completed by itself are
/// confirmations in whatever phase the session has reached since (the extension's
/// `intervalDidStart` arriving after the person already took a break, say); they change nothing
/// and are not recorded. Applying an event that was already recorded (a re-delivery, however
/// late) also changes nothing.
///
/// ```swift
/// var session = try FocusSession(id: "deep-work", scheduledStart: nine, focusDuration: .seconds(25 * 60))
/// try session.apply(.beginBreak(at: nine + 600, length: .seconds(300)))
/// let state = session.state(at: nine + 1200)
/// state.phase            // .active: the 5-minute break ended by itself at 9:15
/// state.focusRemaining   // 10 minutes
/// state.endsAt           // 9:30
/// ```
///
/// JSON form: `{"id": "deep-work", "scheduledStart": "2026-03-08T09:00:00Z",
/// "focusDurationMs": 1500000, "events": [FocusEvent, …]}`. Decoding replays and validates the
/// events, so a stored session is always one that ``apply(_:)`` could have built.
public struct FocusSession: Sendable, Hashable, Codable, Identifiable {
  /// The session's identifier.
  public let id: String
  /// When the session becomes active unless started earlier.
  public let scheduledStart: Date
  /// The focus time to spend, breaks excluded.
  public let focusDuration: Duration
  /// The recorded events, oldest first.
  public private(set) var events: [FocusEvent]

  private let scheduledStartInstant: Int64
  private let focusMilliseconds: Int64

  /// Creates a scheduled session.
  ///
  /// - Parameters:
  ///   - id: The session's identifier, not empty.
  ///   - scheduledStart: When it becomes active unless started earlier; rounded to the
  ///     millisecond.
  ///   - focusDuration: The focus time, more than zero, a whole number of milliseconds, and no
  ///     longer than the supported instants are apart (0001-01-03...9999-12-29, about 9,998
  ///     years), so that every instant the session derives can be computed.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)``.
  public init(id: String, scheduledStart: Date, focusDuration: Duration) throws(BudgetMathError) {
    guard !id.isEmpty else {
      throw .invalidValue(field: "id", value: "\"\"", requirement: "not empty")
    }
    guard let start = Milliseconds.instant(scheduledStart) else {
      throw .invalidValue(
        field: "scheduledStart", value: describe(scheduledStart),
        requirement: "a representable instant")
    }
    guard let focus = Self.length(focusDuration) else {
      throw .invalidValue(
        field: "focusDuration", value: "\(focusDuration)", requirement: Self.lengthRequirement)
    }
    self.id = id
    self.scheduledStartInstant = start
    self.scheduledStart = Milliseconds.date(start)
    self.focusMilliseconds = focus
    self.focusDuration = focusDuration
    self.events = []
  }

  /// The session as it stands at `now`, derived from its schedule and events.
  ///
  /// Events after `now` are ignored, so asking about an earlier instant answers as of then.
  ///
  /// - Parameter now: The instant to ask about.
  /// - Returns: The phase, the focus time spent and left, break time, and when it ends.
  /// - Complexity: O(*e*) in the number of events.
  public func state(at now: Date) -> FocusSessionState {
    let instant = clampedInstant(now)
    var replay = FocusReplay(scheduledStart: scheduledStartInstant, focus: focusMilliseconds)
    for event in events {
      let at = clampedInstant(event.at)
      guard at <= instant else { break }
      replay.advance(to: at)
      replay.record(event.kind, breakLength: event.breakLength.flatMap(Milliseconds.amount))
    }
    replay.advance(to: instant)
    return replay.state
  }

  /// Records an event if it is legal at its instant.
  ///
  /// - Parameter event: What happened, and when; its instant is rounded to the millisecond.
  /// - Returns: Whether the event was recorded, or changed nothing (a confirmation of an
  ///   automatic transition, or a re-delivery of a recorded event).
  /// - Throws: ``BudgetMathError/eventOutOfOrder(session:event:at:previous:)`` for an event
  ///   before the last recorded one, ``BudgetMathError/illegalTransition(session:from:event:)``
  ///   for an event the table above forbids, and
  ///   ``BudgetMathError/invalidValue(field:value:requirement:)`` for a break length that is not
  ///   positive whole milliseconds (or is longer than the supported instants are apart) or an
  ///   instant out of range. Nothing changes when it throws.
  /// - Complexity: O(*e*) in the number of recorded events.
  @discardableResult
  public mutating func apply(_ event: FocusEvent) throws(BudgetMathError) -> FocusEventOutcome {
    let normalized = try Self.normalized(event)
    if events.contains(normalized) { return .alreadyApplied }
    var replay = FocusReplay(scheduledStart: scheduledStartInstant, focus: focusMilliseconds)
    for recorded in events {
      replay.advance(to: clampedInstant(recorded.at))
      replay.record(recorded.kind, breakLength: recorded.breakLength.flatMap(Milliseconds.amount))
    }
    return try append(normalized, after: &replay)
  }

  /// `event` with its instant rounded to the millisecond, once its values are checked.
  private static func normalized(_ event: FocusEvent) throws(BudgetMathError) -> FocusEvent {
    guard let at = Milliseconds.instant(event.at) else {
      throw .invalidValue(
        field: "at", value: describe(event.at), requirement: "a representable instant")
    }
    if let length = event.breakLength, Self.length(length) == nil {
      throw .invalidValue(
        field: "breakLength", value: "\(length)", requirement: Self.lengthRequirement)
    }
    return FocusEvent(kind: event.kind, at: Milliseconds.date(at), breakLength: event.breakLength)
  }

  /// Records `event`, normalized and not yet recorded, if it is legal after the recorded events,
  /// which `replay` has replayed; `replay` then includes it.
  private mutating func append(_ event: FocusEvent, after replay: inout FocusReplay)
    throws(BudgetMathError) -> FocusEventOutcome
  {
    if let last = events.last, event.at < last.at {
      throw .eventOutOfOrder(session: id, event: event.kind, at: event.at, previous: last.at)
    }
    replay.advance(to: clampedInstant(event.at))
    switch replay.effect(of: event.kind) {
    case .illegal:
      throw .illegalTransition(session: id, from: replay.phase, event: event.kind)
    case .confirmation:
      return .alreadyApplied
    case .transition:
      events.append(event)
      replay.record(event.kind, breakLength: event.breakLength.flatMap(Milliseconds.amount))
      return .applied
    }
  }

  /// The milliseconds of a focus or break length, or `nil` unless it is more than zero, whole
  /// milliseconds, and no longer than the supported instants are apart.
  private static func length(_ duration: Duration) -> Int64? {
    guard duration > .zero, Milliseconds.isWhole(duration),
      let amount = Milliseconds.amount(duration),
      amount <= Milliseconds.latest - Milliseconds.earliest
    else { return nil }
    return amount
  }

  private static let lengthRequirement =
    "more than zero, in whole milliseconds, and no longer than the supported instants are apart"

  private enum CodingKeys: String, CodingKey {
    case id, scheduledStart, focusDurationMs, events
  }

  /// Decodes the documented JSON form and replays its events as ``apply(_:)`` would.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a missing or invalid field, or for events that ``apply(_:)``
  ///   would reject or not record.
  /// - Complexity: O(*e*) in the number of events: the replay runs once, not once per event.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let id = try container.decode(String.self, forKey: .id)
    let start = Milliseconds.date(try container.decodeInstant(forKey: .scheduledStart))
    let focus = try container.decodeMilliseconds(forKey: .focusDurationMs)
    let events = try container.decode([FocusEvent].self, forKey: .events)
    do {
      self = try FocusSession(id: id, scheduledStart: start, focusDuration: focus)
      var replay = FocusReplay(scheduledStart: scheduledStartInstant, focus: focusMilliseconds)
      var recorded: Set<FocusEvent> = []
      for event in events {
        let normalized = try Self.normalized(event)
        guard recorded.insert(normalized).inserted,
          try append(normalized, after: &replay) == .applied
        else {
          throw BudgetMathError.invalidValue(
            field: "events", value: "\(event.kind) at \(event.at)",
            requirement: "each stored event must be a recorded transition")
        }
      }
    } catch let error as BudgetMathError {
      throw DecodingError.dataCorruptedError(
        forKey: .events, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeInstant(scheduledStartInstant, forKey: .scheduledStart)
    try container.encodeMilliseconds(focusDuration, forKey: .focusDurationMs)
    try container.encode(events, forKey: .events)
  }
}

/// What applying an event to a focus session did.
public enum FocusEventOutcome: String, Sendable, Hashable {
  /// The event was recorded and changed the session.
  case applied
  /// The event changed nothing: it confirmed an automatic transition or repeated the last event.
  case alreadyApplied
}
