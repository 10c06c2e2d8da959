import SequenceTracking
import SignalValues
import Testing

@Suite("Sequence tracker transitions")
struct SequenceTrackerTests {
  @Test("the first number starts the tracker and earlier numbers are not counted as missed")
  func firstNumber() {
    var tracker = SequenceTracker()
    #expect(tracker.latest == nil)
    #expect(tracker.statistics.deliveryRate == nil)
    #expect(tracker.observe(number(5)) == .first(number(5)))
    #expect(tracker.latest == number(5))
    #expect(tracker.outstanding.isEmpty)
    #expect(tracker.statistics == SequenceStatistics(received: 1))
  }

  @Test("the next number is in order")
  func nextInOrder() {
    var tracker = SequenceTracker()
    tracker.observe(number(1))
    #expect(tracker.observe(number(2)) == .inOrder(number(2)))
    #expect(tracker.observe(number(3)) == .inOrder(number(3)))
    #expect(tracker.statistics == SequenceStatistics(received: 3))
    #expect(tracker.statistics.deliveryRate == 1)
  }

  @Test("a jump reports exactly the numbers in between as missing")
  func jumpReportsExactMissingRange() {
    var tracker = SequenceTracker()
    tracker.observe(number(3))
    #expect(tracker.observe(number(8)) == .gap(number(8), missing: range(4...7)))
    #expect(tracker.observe(number(10)) == .gap(number(10), missing: range(9...9)))
    #expect(tracker.outstanding == [range(4...7), range(9...9)])
    #expect(tracker.statistics == SequenceStatistics(received: 3, missed: 5))
    #expect(tracker.statistics.deliveryRate == 3.0 / 8.0)
  }

  @Test("a number already received is a duplicate and adds nothing")
  func duplicates() {
    var tracker = SequenceTracker()
    tracker.observe(number(1))
    tracker.observe(number(2))
    tracker.observe(number(5))
    #expect(tracker.observe(number(5)) == .duplicate(number(5)))
    #expect(tracker.observe(number(1)) == .duplicate(number(1)))
    #expect(tracker.outstanding == [range(3...4)])
    #expect(tracker.statistics == SequenceStatistics(received: 3, missed: 2, duplicates: 2))
  }

  @Test("late arrivals fill their hole at its start, end or middle, and are recovered")
  func lateArrivalsFillHoles() {
    var tracker = SequenceTracker()
    tracker.observe(number(1))
    tracker.observe(number(10))
    #expect(tracker.outstanding == [range(2...9)])
    #expect(tracker.observe(number(2)) == .lateArrival(number(2)))
    #expect(tracker.outstanding == [range(3...9)])
    #expect(tracker.observe(number(9)) == .lateArrival(number(9)))
    #expect(tracker.outstanding == [range(3...8)])
    #expect(tracker.observe(number(5)) == .lateArrival(number(5)))
    #expect(tracker.outstanding == [range(3...4), range(6...8)])
    #expect(tracker.observe(number(5)) == .duplicate(number(5)))
    for value: UInt64 in [3, 4, 6, 7, 8] {
      #expect(tracker.observe(number(value)) == .lateArrival(number(value)))
    }
    #expect(tracker.outstanding.isEmpty)
    #expect(
      tracker.statistics == SequenceStatistics(received: 10, recovered: 8, duplicates: 1))
    #expect(tracker.statistics.deliveryRate == 1)
  }

  @Test("a new epoch is a reset, and the new run's numbers before it are missing")
  func epochChangeResets() {
    var tracker = SequenceTracker()
    tracker.observe(number(1))
    tracker.observe(number(4))
    #expect(
      tracker.observe(number(3, .b))
        == .reset(number(3, .b), reason: .epochChanged(from: .a), missing: range(1...2, .b)))
    #expect(tracker.latest == number(3, .b))
    #expect(tracker.outstanding == [range(1...2, .b)])
    #expect(tracker.observe(number(1, .b)) == .lateArrival(number(1, .b)))
    #expect(
      tracker.statistics
        == SequenceStatistics(received: 4, missed: 1, recovered: 1, resets: 1, givenUp: 2))
  }

  @Test("a new epoch starting at 1 is a reset with nothing missing")
  func epochChangeAtOne() {
    var tracker = SequenceTracker()
    tracker.observe(number(7))
    #expect(
      tracker.observe(number(1, .b))
        == .reset(number(1, .b), reason: .epochChanged(from: .a), missing: nil))
    #expect(tracker.observe(number(2, .b)) == .inOrder(number(2, .b)))
  }

  @Test("a late message of the epoch before a reset is stale and does not switch back")
  func lateMessageOfRetiredEpochIsStale() {
    var tracker = SequenceTracker()
    for value: UInt64 in 1...10 { tracker.observe(number(value)) }
    #expect(
      tracker.observe(number(1, .b))
        == .reset(number(1, .b), reason: .epochChanged(from: .a), missing: nil))
    #expect(tracker.observe(number(7)) == .stale(number(7)))
    #expect(tracker.observe(number(11)) == .stale(number(11)), "even above the old highest")
    #expect(tracker.observe(number(2, .b)) == .inOrder(number(2, .b)))
    #expect(tracker.retiredEpochs == [.a])
    #expect(tracker.statistics == SequenceStatistics(received: 12, resets: 1, stale: 2))
  }

  @Test("only the last four epochs left are remembered; an older one is a new run again")
  func retiredEpochsAreBounded() {
    let epochs = (0xC...0xF).map { SequenceEpoch(rawValue: $0) }
    var tracker = SequenceTracker()
    tracker.observe(number(1))
    for epoch in [SequenceEpoch.b] + epochs { tracker.observe(number(1, epoch)) }
    #expect(tracker.retiredEpochs == [epochs[2], epochs[1], epochs[0], .b])
    #expect(tracker.observe(number(3, .b)) == .stale(number(3, .b)))
    #expect(
      tracker.observe(number(3))
        == .reset(number(3), reason: .epochChanged(from: epochs[3]), missing: range(1...2)))
    #expect(tracker.retiredEpochs == [epochs[3], epochs[2], epochs[1], epochs[0]])
  }

  @Test("a message just below the first one observed is stale and does not restart the run")
  func reorderedMessageBelowFirstIsStale() {
    var tracker = SequenceTracker()
    tracker.observe(number(5))
    #expect(tracker.observe(number(4)) == .stale(number(4)))
    #expect(tracker.observe(number(6)) == .inOrder(number(6)), "5 arrived, so nothing is missed")
    #expect(tracker.statistics == SequenceStatistics(received: 2, stale: 1))
  }

  @Test("a message below the run's lowest value is stale; it neither resets nor counts")
  func messageBelowFloorIsStale() {
    var tracker = SequenceTracker()
    tracker.observe(number(10))
    tracker.observe(number(12))
    #expect(tracker.observe(number(4)) == .stale(number(4)))
    #expect(tracker.latest == number(12))
    #expect(tracker.outstanding == [range(11...11)])
    #expect(tracker.observe(number(11)) == .lateArrival(number(11)))
    #expect(
      tracker.statistics == SequenceStatistics(received: 3, recovered: 1, stale: 1))
  }

  @Test("after a head went back, a message below the head it restarted from is stale")
  func messageBelowRestartedHeadIsStale() {
    var tracker = SequenceTracker()
    tracker.observeHead(number(9))
    #expect(
      tracker.observeHead(number(6))
        == .reset(number(6), reason: .wentBackwards(from: 9), missing: nil))
    #expect(tracker.observe(number(5)) == .stale(number(5)))
    #expect(tracker.observe(number(6)) == .duplicate(number(6)))
    #expect(tracker.observe(number(7)) == .inOrder(number(7)))
  }

  @Test("a head of a retired epoch is a reset: the producer is numbering in it again")
  func headOfRetiredEpochResets() {
    var tracker = SequenceTracker()
    tracker.observeHead(number(4))
    tracker.observeHead(number(2, .b))
    #expect(tracker.retiredEpochs == [.a])
    #expect(
      tracker.observeHead(number(5))
        == .reset(number(5), reason: .epochChanged(from: .b), missing: range(1...4)))
    #expect(tracker.retiredEpochs == [.b])
  }

  @Test("a head equal to the highest is a duplicate, above it in order or skipped")
  func headForward() {
    var tracker = SequenceTracker()
    #expect(tracker.observeHead(number(3)) == .first(number(3)))
    #expect(tracker.observeHead(number(3)) == .duplicate(number(3)))
    #expect(tracker.observeHead(number(4)) == .inOrder(number(4)))
    #expect(tracker.observeHead(number(9)) == .gap(number(9), missing: range(5...8)))
    #expect(tracker.statistics == SequenceStatistics(received: 3, missed: 4, duplicates: 1))
  }

  @Test("a head below the highest means the producer went back, even into a hole")
  func headBackwardsResets() {
    var tracker = SequenceTracker()
    tracker.observeHead(number(3))
    tracker.observeHead(number(9))
    #expect(
      tracker.observeHead(number(6))
        == .reset(number(6), reason: .wentBackwards(from: 9), missing: nil))
    #expect(tracker.observeHead(number(7)) == .inOrder(number(7)))
    #expect(tracker.statistics == SequenceStatistics(received: 4, resets: 1, givenUp: 5))
  }

  @Test("a head of another epoch is a reset by epoch")
  func headEpochChange() {
    var tracker = SequenceTracker()
    tracker.observeHead(number(3))
    #expect(
      tracker.observeHead(number(2, .b))
        == .reset(number(2, .b), reason: .epochChanged(from: .a), missing: range(1...1, .b)))
  }

  @Test("beyond the outstanding-range limit the oldest hole is given up")
  func oldestHoleIsGivenUpBeyondLimit() {
    var tracker = SequenceTracker()
    let limit = UInt64(SequenceTracker.outstandingRangeLimit)
    tracker.observe(number(1))
    for hole in 1...limit {
      tracker.observe(number(2 * hole + 1))  // leaves 2, 4, 6, ... missing
    }
    #expect(tracker.outstanding.count == SequenceTracker.outstandingRangeLimit)
    #expect(tracker.outstanding.first == range(2...2))
    tracker.observe(number(2 * limit + 3))
    #expect(tracker.outstanding.count == SequenceTracker.outstandingRangeLimit)
    #expect(tracker.outstanding.first == range(4...4))
    #expect(tracker.statistics.givenUp == 1)
    #expect(tracker.statistics.missed == limit)
    // The given-up number can no longer be told from a received one.
    #expect(tracker.observe(number(2)) == .duplicate(number(2)))
    #expect(tracker.observe(number(4)) == .lateArrival(number(4)))
  }

  @Test("splitting a hole at the limit gives up the oldest hole")
  func splitAtLimitGivesUpOldest() {
    var tracker = SequenceTracker()
    let limit = UInt64(SequenceTracker.outstandingRangeLimit)
    tracker.observe(number(1))
    for hole in 1...(limit - 1) {
      tracker.observe(number(2 * hole + 1))
    }
    tracker.observe(number(2 * limit + 10))  // one wide hole at the top
    #expect(tracker.outstanding.count == SequenceTracker.outstandingRangeLimit)
    tracker.observe(number(2 * limit + 5))  // splits the wide hole in two
    #expect(tracker.outstanding.count == SequenceTracker.outstandingRangeLimit)
    #expect(tracker.outstanding.first == range(4...4))
    #expect(tracker.statistics.givenUp == 1)
  }

  @Test("statistics never go negative and missed is what is outstanding")
  func missedIsDerivedFromOutstanding() {
    var tracker = SequenceTracker()
    for value: UInt64 in [1, 5, 3, 3, 2, 9, 1, 4] { tracker.observe(number(value)) }
    let missed = tracker.outstanding.reduce(0) { $0 + $1.count }
    #expect(tracker.statistics.missed == missed)
    #expect(tracker.outstanding == [range(6...8)])
    #expect(
      tracker.statistics
        == SequenceStatistics(received: 6, missed: 3, recovered: 3, duplicates: 2))
  }

  @Test("observations at the top of the value range do not trap")
  func extremeValues() {
    var tracker = SequenceTracker()
    tracker.observe(number(0))
    #expect(
      tracker.observe(number(.max)) == .gap(number(.max), missing: range(1...(UInt64.max - 1))))
    #expect(tracker.observe(number(.max)) == .duplicate(number(.max)))
    #expect(tracker.observeHead(number(.max)) == .duplicate(number(.max)))
    #expect(
      tracker.observe(number(0, .b))
        == .reset(number(0, .b), reason: .epochChanged(from: .a), missing: nil))
    #expect(tracker.statistics.givenUp == UInt64.max - 1)
  }
}
