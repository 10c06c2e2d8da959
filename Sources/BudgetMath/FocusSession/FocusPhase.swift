/// Where a focus session is in its life.
///
/// JSON form: the raw value, for example `"onBreak"`.
public enum FocusPhase: String, Sendable, Hashable, Codable, CaseIterable {
  /// Not started yet; it becomes ``active`` at its scheduled start, or earlier on a ``FocusEventKind/start`` event.
  case scheduled
  /// Focus time is running.
  case active
  /// On a break: focus time is paused and the session's end moves out by the break's length.
  case onBreak
  /// Finished: all focus time was spent, or the session was completed early.
  case completed
  /// Abandoned before it finished.
  case cancelled

  /// Whether the session has ended, either way.
  public var isFinished: Bool { self == .completed || self == .cancelled }
}

/// The things that can happen to a focus session.
///
/// JSON form: the raw value, for example `"beginBreak"`.
public enum FocusEventKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// Start focusing (early, before the scheduled start), or confirm a start on schedule.
  case start
  /// Pause focus for a break, open-ended or of a planned length.
  case beginBreak
  /// Resume focus after a break.
  case endBreak
  /// Finish the session now, counting it as completed.
  case complete
  /// Abandon the session.
  case cancel
}
