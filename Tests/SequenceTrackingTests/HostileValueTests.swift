import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

/// Values no sane caller passes, through SequenceTracking's public API: each gives a defined
/// result or a typed error, never a trap, a hang or unbounded memory.
@Suite("Hostile values give a defined result or a typed error")
struct HostileValueTests {
  @Test("an empty, 1 MB or path-like key is a typed error before anything is stored")
  func hostileKeys() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Event>(store: store, key: "outbox", capacity: 4)
    for key in ["", String(repeating: "k", count: 1 << 20), "../x", ".hidden", "a/b", "\u{0}"] {
      #expect(throws: SequenceTrackingError.self) { try SequenceCounter(store: store, key: key) }
      #expect(throws: SequenceTrackingError.self) {
        try OutboxConsumer(outbox: outbox, store: store, key: key, initialState: 0)
      }
    }
    #expect(store.keys().isEmpty)
  }

  @Test("a million numbers, every other one missing, keep the tracker's holes bounded")
  func aMillionObservations() {
    var tracker = SequenceTracker()
    for value in stride(from: UInt64(1), through: 2_000_000, by: 2) {
      tracker.observe(number(value))
    }
    #expect(tracker.outstanding.count == SequenceTracker.outstandingRangeLimit)
    let statistics = tracker.statistics
    #expect(statistics.received == 1_000_000)
    #expect(statistics.missed + statistics.givenUp == 999_999)
  }

  @Test("a producer that goes back, restarts or jumps to the end is drained, never trapped on")
  func headsThatGoBack() {
    var coordinator = DrainCoordinator()
    let cursor = OutboxCursor(after: number(50))
    let heads: [(SequenceNumber?, DrainDecision.Reason)] = [
      (number(.max), .pending(count: .max - 50)), (number(50), .upToDate),
      (number(0), .producerWentBack), (number(1, .b), .producerRestarted),
      (nil, .nothingPublished),
    ]
    for (head, reason) in heads {
      #expect(coordinator.decide(.notification, head: head, cursor: cursor).reason == reason)
    }
    #expect(coordinator.decide(.poll, head: number(.max), cursor: .start).reason == .neverDrained)
  }

  @Test("numbers at the ends of UInt64 are observed: skipped ranges, resets, late arrivals")
  func numbersAtTheEnds() {
    var tracker = SequenceTracker()
    #expect(tracker.observe(number(0)) == .first(number(0)))
    #expect(
      tracker.observe(number(.max)) == .gap(number(.max), missing: range(1...(.max - 1))))
    #expect(tracker.observe(number(.max - 1)) == .lateArrival(number(.max - 1)))
    #expect(tracker.observe(number(0)) == .duplicate(number(0)))
    if case .reset(_, _, let missing) = tracker.observe(number(.max, .b)) {
      #expect(missing?.count == UInt64.max - 1)
    } else {
      Issue.record("a new epoch must reset the tracker")
    }
    #expect(tracker.statistics.missed == UInt64.max - 1)
  }
}
