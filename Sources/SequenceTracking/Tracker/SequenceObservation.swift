import SignalValues

/// What one observed number means to a ``SequenceTracker``.
///
/// Every case carries the observed number; ``number`` reads it whatever the case.
///
/// ```swift
/// switch tracker.observe(number) {
/// case .first, .inOrder, .lateArrival: break
/// case .gap(_, let missing): log("missed \(missing.count): \(missing)")
/// case .duplicate, .stale: break                  // nothing new: never count it twice
/// case .reset(_, let reason, _): log("producer restarted: \(reason)")
/// }
/// ```
public enum SequenceObservation: Sendable, Hashable {
  /// The tracker had seen nothing yet; it starts from this number.
  ///
  /// Numbers below it are not counted as missed: the tracker cannot know whether it was meant to
  /// see them.
  case first(SequenceNumber)
  /// The number directly after the highest one seen.
  case inOrder(SequenceNumber)
  /// A number beyond the next one: every number in `missing` was not seen and is now
  /// outstanding.
  case gap(SequenceNumber, missing: SequenceRange)
  /// A number seen before; it adds nothing.
  case duplicate(SequenceNumber)
  /// A number that was outstanding, arriving late: the hole it leaves is filled.
  case lateArrival(SequenceNumber)
  /// A message from before the current run, arriving late: a number of an epoch the tracker
  /// retired, or below the lowest value of the current run. It changes nothing but
  /// ``SequenceStatistics/stale``.
  ///
  /// Only ``SequenceTracker/observe(_:)`` reports it; see ``SequenceTracker`` for when a number
  /// is stale and when it is a reset.
  case stale(SequenceNumber)
  /// The producer started a new run of numbering; the tracker starts again from this number.
  ///
  /// Numbers still outstanding from the old run are given up. When the epoch changed, the new run
  /// began at 1, so `missing` holds the numbers of the new run before this one (if any), and the
  /// old epoch is retired. After a head went back within its epoch (only
  /// ``SequenceTracker/observeHead(_:)`` reports that), where the producer restarted from is
  /// unknown and `missing` is `nil`.
  case reset(SequenceNumber, reason: SequenceResetReason, missing: SequenceRange?)

  /// The observed number.
  public var number: SequenceNumber {
    switch self {
    case .first(let number), .inOrder(let number), .duplicate(let number),
      .lateArrival(let number), .stale(let number):
      return number
    case .gap(let number, _), .reset(let number, _, _):
      return number
    }
  }

  /// The numbers this observation says were missed, or `nil` when it says none were.
  ///
  /// A ``gap(_:missing:)`` and a ``reset(_:reason:missing:)`` that names the numbers of the new
  /// run below the one observed report missed numbers; every other observation does not. With
  /// the instants around them, they make a ``/SignalValues/SequenceLoss`` for gap detection:
  ///
  /// ```swift
  /// if let missing = tracker.observe(number).missing {
  ///   losses.append(try SequenceLoss(range: missing, after: lastReceivedAt, before: now))
  /// }
  /// ```
  public var missing: SequenceRange? {
    switch self {
    case .gap(_, let missing), .reset(_, _, let missing?):
      return missing
    case .first, .inOrder, .duplicate, .lateArrival, .stale, .reset(_, _, nil):
      return nil
    }
  }
}
