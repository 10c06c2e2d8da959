import SequenceTracking
import TestSupport
import Testing

@Suite("Sequence tracker against a reference")
struct SequenceTrackerPropertyTests {
  /// A stream of numbers as a flaky transport delivers them: mostly forward, with jumps, late
  /// and repeated numbers, the odd producer restart, and now and then a wild value.
  static func stream(seed: UInt64, count: Int) -> [SequenceNumber] {
    var random = SplitMix64(seed: seed)
    var epochs: [SequenceEpoch] = [.a]
    var highest: UInt64 = 0
    var numbers: [SequenceNumber] = []
    for _ in 0..<count {
      let roll = random.next() % 100
      var value: UInt64
      switch roll {
      case 0..<50: value = highest + 1
      case 50..<70: value = highest + 2 + random.next() % 6
      case 70..<88: value = highest > 0 ? 1 + random.next() % highest : 1
      case 88..<95: value = highest
      case 95..<98: value = random.next() % 400
      default:
        // The producer restarts: a new epoch, or an old one coming back late.
        if random.next() % 3 == 0, epochs.count > 1 {
          numbers.append(SequenceNumber(epoch: epochs[0], value: 1 + random.next() % 5))
          continue
        }
        epochs.append(SequenceEpoch(rawValue: random.next()))
        highest = 0
        value = 1 + random.next() % 3
      }
      highest = max(highest, value)
      numbers.append(SequenceNumber(epoch: epochs[epochs.count - 1], value: value))
    }
    return numbers
  }

  @Test("observe agrees with the reference on every step", arguments: 0..<40)
  func observeMatchesReference(seed: UInt64) {
    var tracker = SequenceTracker()
    var reference = ReferenceTracker()
    for (step, number) in Self.stream(seed: seed, count: 400).enumerated() {
      let expected = reference.observe(number, asHead: false)
      let actual = tracker.observe(number)
      #expect(actual == expected, "seed \(seed), step \(step), \(number)")
      #expect(tracker.statistics == reference.statistics, "seed \(seed), step \(step)")
      #expect(
        tracker.outstanding.map(\.values) == reference.holes, "seed \(seed), step \(step)")
      if actual != expected { return }
    }
  }

  @Test("observeHead agrees with the reference on every step", arguments: 0..<40)
  func observeHeadMatchesReference(seed: UInt64) {
    var tracker = SequenceTracker()
    var reference = ReferenceTracker()
    for (step, number) in Self.stream(seed: seed &+ 1000, count: 400).enumerated() {
      let expected = reference.observe(number, asHead: true)
      let actual = tracker.observeHead(number)
      #expect(actual == expected, "seed \(seed), step \(step), \(number)")
      #expect(tracker.statistics == reference.statistics, "seed \(seed), step \(step)")
      if actual != expected { return }
    }
  }

  @Test("many holes: the limit gives up exactly the oldest ones", arguments: 0..<10)
  func manyHolesMatchReference(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var tracker = SequenceTracker()
    var reference = ReferenceTracker()
    var highest: UInt64 = 0
    for step in 0..<600 {
      let value: UInt64 =
        random.next() % 4 == 0 && highest > 0 ? 1 + random.next() % highest : highest + 2
      highest = max(highest, value)
      let number = SequenceNumber(epoch: .a, value: value)
      #expect(tracker.observe(number) == reference.observe(number, asHead: false))
      #expect(tracker.statistics == reference.statistics, "seed \(seed), step \(step)")
    }
    #expect(tracker.outstanding.count <= SequenceTracker.outstandingRangeLimit)
    #expect(tracker.statistics.givenUp > 0, "the stream must exceed the limit to test it")
  }
}
