/// Replays a focus session's events to a given instant.
///
/// On the way it applies the automatic transitions: promotion at the scheduled start, the end of
/// a break of planned length, and completion when the focus time is spent. All times are
/// milliseconds since 1970.
struct FocusReplay {
  let scheduledStart: Int64
  let focus: Int64

  private(set) var phase = FocusPhase.scheduled
  private(set) var clock = Int64.min
  private(set) var startedAt: Int64?
  private(set) var focusSpent: Int64 = 0
  private(set) var breakTotal: Int64 = 0
  private(set) var breakStart: Int64?
  private(set) var breakPlannedEnd: Int64?
  private(set) var endedAt: Int64?

  /// The session was promoted at its scheduled start rather than started by an event.
  ///
  /// An event that merely reports an automatic transition later (the extension's callback for the
  /// start it caused, delivered late) changes nothing.
  private(set) var startedAutomatically = false
  /// The most recent break ended by itself (cleared when a new break begins).
  private(set) var lastBreakEndedAutomatically = false
  /// The session completed by itself.
  private(set) var completedAutomatically = false

  init(scheduledStart: Int64, focus: Int64) {
    self.scheduledStart = scheduledStart
    self.focus = focus
  }

  /// Moves the clock forward to `time`, applying every automatic transition due by then.
  mutating func advance(to time: Int64) {
    while true {
      switch phase {
      case .scheduled:
        guard time >= scheduledStart else { break }
        phase = .active
        startedAt = scheduledStart
        clock = scheduledStart
        startedAutomatically = true
        continue
      case .active:
        let remaining = focus - focusSpent
        if time - clock >= remaining {
          focusSpent = focus
          endedAt = clock + remaining
          phase = .completed
          completedAutomatically = true
        } else {
          focusSpent += time - clock
        }
      case .onBreak:
        guard let plannedEnd = breakPlannedEnd, let start = breakStart, time >= plannedEnd else {
          break
        }
        breakTotal += plannedEnd - start
        breakStart = nil
        breakPlannedEnd = nil
        phase = .active
        clock = plannedEnd
        lastBreakEndedAutomatically = true
        continue
      case .completed, .cancelled:
        break
      }
      clock = max(clock, time)
      return
    }
  }

  /// What an event at the current clock would do.
  enum Effect: Equatable {
    case transition
    case confirmation
    case illegal
  }

  func effect(of kind: FocusEventKind) -> Effect {
    switch (phase, kind) {
    case (.scheduled, .start), (.scheduled, .cancel),
      (.active, .beginBreak), (.active, .complete), (.active, .cancel),
      (.onBreak, .endBreak), (.onBreak, .complete), (.onBreak, .cancel):
      return .transition
    case (_, .start) where startedAutomatically,
      (_, .endBreak) where lastBreakEndedAutomatically,
      (_, .complete) where completedAutomatically:
      // A late report of a transition that already happened by itself, in whatever phase the
      // session has reached since.
      return .confirmation
    default:
      return .illegal
    }
  }

  /// Records a legal event at the current clock.
  mutating func record(_ kind: FocusEventKind, breakLength: Int64?) {
    switch kind {
    case .start:
      phase = .active
      startedAt = clock
    case .beginBreak:
      phase = .onBreak
      lastBreakEndedAutomatically = false
      breakStart = clock
      breakPlannedEnd = breakLength.map { clock + $0 }
    case .endBreak:
      closeBreak()
      phase = .active
    case .complete, .cancel:
      closeBreak()
      phase = kind == .complete ? .completed : .cancelled
      endedAt = clock
    }
  }

  private mutating func closeBreak() {
    if let start = breakStart { breakTotal += clock - start }
    breakStart = nil
    breakPlannedEnd = nil
  }

  /// The derived state at the current clock.
  var state: FocusSessionState {
    let currentBreak = breakStart.map { clock - $0 } ?? 0
    let remaining = focus - focusSpent
    let endsAt: Int64?
    switch phase {
    case .scheduled: endsAt = scheduledStart + focus
    case .active: endsAt = clock + remaining
    case .onBreak: endsAt = breakPlannedEnd.map { $0 + remaining }
    case .completed, .cancelled: endsAt = endedAt
    }
    return FocusSessionState(
      phase: phase, startedAt: startedAt, focusElapsed: focusSpent, focusRemaining: remaining,
      breakTime: breakTotal + currentBreak, breakEndsAt: breakPlannedEnd, endsAt: endsAt,
      endedAt: endedAt)
  }
}
