import SequenceTracking

/// The tracker's rules written the plain way — a set of missing values instead of ranges — for
/// the property tests to compare against.
struct ReferenceTracker {
  var epoch: SequenceEpoch?
  var floor: UInt64 = 0
  var highest: UInt64 = 0
  var missing: Set<UInt64> = []
  var received: UInt64 = 0
  var recovered: UInt64 = 0
  var duplicates: UInt64 = 0
  var resets: UInt64 = 0
  var givenUp: UInt64 = 0

  /// The missing values as maximal runs of consecutive values, ascending.
  var holes: [ClosedRange<UInt64>] {
    var result: [ClosedRange<UInt64>] = []
    for value in missing.sorted() {
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
      received: received, missed: UInt64(missing.count), recovered: recovered,
      duplicates: duplicates, resets: resets, givenUp: givenUp)
  }

  mutating func observe(_ number: SequenceNumber, asHead: Bool) -> SequenceObservation {
    let value = number.value
    guard let epoch else {
      begin(number, floor: value, missing: [])
      return .first(number)
    }
    if epoch != number.epoch {
      let newMissing: Set<UInt64> = value >= 2 ? Set(1...(value - 1)) : []
      endRun()
      begin(number, floor: min(1, value), missing: newMissing)
      let range = value >= 2 ? SequenceRange(epoch: number.epoch, values: 1...(value - 1)) : nil
      return .reset(number, reason: .epochChanged(from: epoch), missing: range)
    }
    if value > highest {
      let skipped = value > highest + 1 ? (highest + 1)...(value - 1) : nil
      highest = value
      received += 1
      if let skipped { missing.formUnion(skipped) }
      limitHoles()
      guard let skipped else { return .inOrder(number) }
      return .skipped(number, missing: SequenceRange(epoch: epoch, values: skipped))
    }
    if asHead {
      if value == highest {
        duplicates += 1
        return .duplicate(number)
      }
    } else if value >= floor {
      if missing.remove(value) != nil {
        received += 1
        recovered += 1
        limitHoles()
        return .lateArrival(number)
      }
      duplicates += 1
      return .duplicate(number)
    }
    let previous = highest
    endRun()
    begin(number, floor: value, missing: [])
    return .reset(number, reason: .wentBackwards(from: previous), missing: nil)
  }

  private mutating func begin(_ number: SequenceNumber, floor: UInt64, missing: Set<UInt64>) {
    epoch = number.epoch
    self.floor = floor
    highest = number.value
    self.missing = missing
    received += 1
  }

  private mutating func endRun() {
    givenUp += UInt64(missing.count)
    resets += 1
  }

  private mutating func limitHoles() {
    var holes = self.holes
    while holes.count > SequenceTracker.outstandingRangeLimit {
      let oldest = holes.removeFirst()
      missing.subtract(oldest)
      givenUp += UInt64(oldest.count)
    }
  }
}
