import SequenceTracking
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
    #expect(tracker.observe(number(8)) == .skipped(number(8), missing: range(4...7)))
    #expect(tracker.observe(number(10)) == .skipped(number(10), missing: range(9...9)))
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

  @Test("a late number of the old epoch after a reset is another reset, never a duplicate")
  func oldEpochAfterResetIsReset() {
    var tracker = SequenceTracker()
    tracker.observe(number(1, .a))
    tracker.observe(number(1, .b))
    let observation = tracker.observe(number(2, .a))
    #expect(
      observation == .reset(number(2, .a), reason: .epochChanged(from: .b), missing: range(1...1)))
  }

  @Test("a message number below the run's first number is a reset by going backwards")
  func messageBelowFloorResets() {
    var tracker = SequenceTracker()
    tracker.observe(number(10))
    tracker.observe(number(12))
    #expect(
      tracker.observe(number(4))
        == .reset(number(4), reason: .wentBackwards(from: 12), missing: nil))
    #expect(tracker.latest == number(4))
    #expect(tracker.outstanding.isEmpty)
    #expect(tracker.observe(number(5)) == .inOrder(number(5)))
    #expect(tracker.statistics == SequenceStatistics(received: 4, resets: 1, givenUp: 1))
  }

  @Test("a head equal to the highest is a duplicate, above it in order or skipped")
  func headForward() {
    var tracker = SequenceTracker()
    #expect(tracker.observeHead(number(3)) == .first(number(3)))
    #expect(tracker.observeHead(number(3)) == .duplicate(number(3)))
    #expect(tracker.observeHead(number(4)) == .inOrder(number(4)))
    #expect(tracker.observeHead(number(9)) == .skipped(number(9), missing: range(5...8)))
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
      tracker.observe(number(.max)) == .skipped(number(.max), missing: range(1...(UInt64.max - 1))))
    #expect(tracker.observe(number(.max)) == .duplicate(number(.max)))
    #expect(tracker.observeHead(number(.max)) == .duplicate(number(.max)))
    #expect(
      tracker.observe(number(0, .b))
        == .reset(number(0, .b), reason: .epochChanged(from: .a), missing: nil))
    #expect(tracker.statistics.givenUp == UInt64.max - 1)
  }
}
