/// A window of expected tracking inside an analysed period, with what lies beyond its two ends.
///
/// Heartbeat silence is judged over the whole window, not only the part inside the period, so
/// that two reports that split a period find what one report over it finds:
///
/// - at the start, the last sign of life is the later of `beganAt` (where monitoring began,
///   which counts as a heartbeat: the tracker's grace) and the last heartbeat at or before
///   `low`;
/// - at the end, a silence that reaches `high` is followed to the first heartbeat after it,
///   or to `reachesTo`, before it is judged.
struct ExpectedWindow: Equatable {
  /// The window's start within the period, in milliseconds.
  var low: Int64
  /// The window's end within the period.
  var high: Int64
  /// Where monitoring began, at or before `low`, when the window starts a monitoring interval
  /// (a schedule occurrence, a timer, an explicit interval, or the first heartbeat of
  /// ``TrackingExpectation/sinceFirstHeartbeat``); `nil` when tracking was expected with no
  /// start (``TrackingExpectation/always``), or the start lies so far back that it cannot change
  /// a judgement.
  var beganAt: Int64?
  /// How far tracking was still expected after `high`, capped at the instant of the analysis:
  /// `high` itself when the window ends there or the analysis does.
  var reachesTo: Int64

  /// The window clipped to the period.
  var range: ClosedRange<Int64> { low...high }
}
