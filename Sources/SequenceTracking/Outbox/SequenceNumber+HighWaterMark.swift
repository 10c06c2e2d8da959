import SignalValues

extension SequenceNumber {
  /// The high-water mark of an outbox once `latest` is recorded over `earlier`, the mark before
  /// it: the higher of the two within one epoch; `latest` when it is of another epoch (a new
  /// epoch starts only after the old one ended) or when there is no `earlier`; `earlier` when
  /// there is no `latest`.
  ///
  /// The rule by which a producer that carries an outbox's mark in records of its own (the
  /// monitor extension's heartbeats) carries it forward from one record to the next.
  ///
  /// - Parameters:
  ///   - latest: The number recorded last, if any.
  ///   - earlier: The mark before it, if any.
  /// - Returns: The mark after both.
  package static func highWaterMark(
    recording latest: SequenceNumber?, over earlier: SequenceNumber?
  )
    -> SequenceNumber?
  {
    guard let latest else { return earlier }
    guard let earlier, earlier.epoch == latest.epoch, earlier.value > latest.value else {
      return latest
    }
    return earlier
  }
}
