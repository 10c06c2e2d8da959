import SequenceTracking
import SignalValues

/// The tracker's rules stated from the facts, for the property tests to compare against.
///
/// Where `SequenceTracker` keeps a floor, a highest value and ranges of missing values, this
/// keeps what happened: the epochs that were current, in order, and the sets of values received
/// and given up in the current run. Every answer is derived from those sets by the rule in words:
///
/// - a message of an epoch that is not current is stale when the epoch is one of the four most
///   recent ones that were current before; otherwise the producer started a new run at 1;
/// - a value received before, or given up, is a duplicate; a value below every value the run
///   covers is stale; a value above every value received is in order or a skip over exactly the
///   values in between; anything else was missing and is a late arrival;
/// - a head is the producer's present: another epoch is a new run, a lower value a restart of
///   the run from that value;
/// - missing values are those the run covers that were neither received nor given up; when they
///   form more than `outstandingRangeLimit` runs of consecutive values, the lowest run is given
///   up.
struct ReferenceTracker {
  /// The epochs that were current, oldest first; an epoch that becomes current again repeats.
  var history: [SequenceEpoch] = []
  /// The lowest value the current run covers.
  var start: UInt64 = 0
  var received: Set<UInt64> = []
  var givenUpValues: Set<UInt64> = []
  var counts = SequenceStatistics()

  var current: SequenceEpoch? { history.last }

  /// The four most recent distinct epochs that were current before the current one.
  var retired: [SequenceEpoch] {
    var seen: [SequenceEpoch] = []
    for epoch in history.dropLast().reversed() where epoch != current && !seen.contains(epoch) {
      seen.append(epoch)
    }
    return Array(seen.prefix(SequenceTracker.retiredEpochLimit))
  }

  var top: UInt64 { received.max() ?? 0 }

  var missing: [UInt64] {
    guard current != nil else { return [] }
    return (start...top).filter { !received.contains($0) && !givenUpValues.contains($0) }
  }

  /// The missing values as maximal runs of consecutive values, ascending.
  var holes: [ClosedRange<UInt64>] {
    var result: [ClosedRange<UInt64>] = []
    for value in missing {
      if let last = result.last, last.upperBound + 1 == value {
        result[result.count - 1] = last.lowerBound...value
      } else {
        result.append(value...value)
      }
    }
    return result
  }

  var statistics: SequenceStatistics {
    SequenceStatistics(
      received: counts.received, missed: UInt64(missing.count), recovered: counts.recovered,
      duplicates: counts.duplicates, resets: counts.resets, givenUp: counts.givenUp,
      stale: counts.stale)
  }

  mutating func observe(_ number: SequenceNumber, asHead: Bool) -> SequenceObservation {
    let value = number.value
    guard let current else {
      begin(number, start: value)
      return .first(number)
    }
    if number.epoch != current {
      if !asHead, retired.contains(number.epoch) { return stale(number) }
      begin(number, start: min(1, value))
      let before = value >= 2 ? SequenceRange(epoch: number.epoch, values: 1...(value - 1)) : nil
      limitHoles()
      return .reset(number, reason: .epochChanged(from: current), missing: before)
    }
    let highest = top
    if value > highest {
      received.insert(value)
      add(received: 1)
      limitHoles()
      guard value > highest + 1 else { return .inOrder(number) }
      return .gap(
        number, missing: SequenceRange(epoch: current, values: (highest + 1)...(value - 1)))
    }
    if asHead {
      guard value < highest else { return duplicate(number) }
      begin(number, start: value)
      return .reset(number, reason: .wentBackwards(from: highest), missing: nil)
    }
    if received.contains(value) || givenUpValues.contains(value) { return duplicate(number) }
    if value < start { return stale(number) }
    received.insert(value)
    add(received: 1, recovered: 1)
    limitHoles()
    return .lateArrival(number)
  }

  /// Starts a run of `number`'s epoch covering values from `start`; a run that ends gives up
  /// its missing values.
  private mutating func begin(_ number: SequenceNumber, start: UInt64) {
    if current != nil {
      add(resets: 1, givenUp: UInt64(missing.count))
    }
    if current != number.epoch { history.append(number.epoch) }
    self.start = start
    received = [number.value]
    givenUpValues = []
    add(received: 1)
  }

  private mutating func duplicate(_ number: SequenceNumber) -> SequenceObservation {
    add(duplicates: 1)
    return .duplicate(number)
  }

  private mutating func stale(_ number: SequenceNumber) -> SequenceObservation {
    add(stale: 1)
    return .stale(number)
  }

  private mutating func limitHoles() {
    var holes = self.holes
    while holes.count > SequenceTracker.outstandingRangeLimit {
      let lowest = holes.removeFirst()
      givenUpValues.formUnion(lowest)
      add(givenUp: UInt64(lowest.count))
    }
  }

  private mutating func add(
    received: UInt64 = 0, recovered: UInt64 = 0, duplicates: UInt64 = 0, resets: UInt64 = 0,
    givenUp: UInt64 = 0, stale: UInt64 = 0
  ) {
    counts = SequenceStatistics(
      received: counts.received + received, recovered: counts.recovered + recovered,
      duplicates: counts.duplicates + duplicates, resets: counts.resets + resets,
      givenUp: counts.givenUp + givenUp, stale: counts.stale + stale)
  }
}
