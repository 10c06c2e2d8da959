import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing

/// Every number SequenceTracking decodes and later computes with, at the ends of `UInt64`.
///
/// Counts saturate, numbers past the largest are refused with a typed error, and a value that
/// breaks the tracker's rules does not decode. A trap would stop the test process.
@Suite("Decoded numbers are checked before they take part in arithmetic")
struct DecodedExtremesTests {
  static let max = "18446744073709551615"

  static let countsAtMax =
    #"{"duplicates":\#(max),"givenUp":\#(max),"received":\#(max),"recovered":\#(max),"#
    + #""resets":\#(max),"stale":\#(max)}"#

  @Test("a stored tracker at the ends of UInt64 observes anything and counts saturate")
  func trackerAtTheEnds() throws {
    let runs = [
      #"{"epoch":"000000000000000a","floor":0,"highest":\#(Self.max),"#
        + #""outstanding":[{"first":0,"last":18446744073709551613}],"retired":[]}"#,
      #"{"epoch":"000000000000000a","floor":\#(Self.max),"highest":\#(Self.max),"#
        + #""outstanding":[],"retired":["000000000000000b"]}"#,
      #"{"epoch":"000000000000000a","floor":0,"highest":0,"outstanding":[],"retired":[]}"#,
    ]
    for run in runs {
      let stored = try decode(
        SequenceTracker.self, #"{"counts":\#(Self.countsAtMax),"run":\#(run)}"#)
      for probe in [number(0), number(1), number(.max - 1), number(.max), number(.max, .b)] {
        var tracker = stored
        _ = tracker.observe(probe)
        _ = tracker.observeHead(probe)
        let statistics = tracker.statistics
        #expect(statistics.received == .max)
        #expect(statistics.missed <= .max)
        _ = statistics.deliveryRate
        _ = tracker.outstanding.map(\.count)
      }
    }
  }

  @Test("statistics of UInt64.max counts give a delivery rate")
  func statisticsAtMax() throws {
    let statistics = try decode(
      SequenceStatistics.self,
      Self.countsAtMax.replacingOccurrences(
        of: #""duplicates""#, with: #""missed":\#(Self.max),"duplicates""#))
    #expect(statistics.deliveryRate == 1)
    #expect(range(0...UInt64.max).count == .max)
  }

  @Test("a counter stored at UInt64.max refuses to hand out another number, with a typed error")
  func counterAtMax() throws {
    let store = InMemoryStore()
    let counter = try SequenceCounter(store: store, key: "counter")
    for (last, next) in [(Self.max, nil), ("0", UInt64(1)), ("18446744073709551614", .max)] {
      try store.write(Data(#"{"epoch":"000000000000000a","last":\#(last)}"#.utf8), for: "counter")
      if let next {
        #expect(try counter.next() == number(next))
      } else {
        #expect(throws: SequenceTrackingError.exhausted(key: "counter")) { try counter.next() }
      }
    }
    for invalid in ["-1", "18446744073709551616", "1.5"] {
      try store.write(Data(#"{"epoch":"000000000000000a","last":\#(invalid)}"#.utf8), for: "c")
      #expect(throws: SequenceTrackingError.self) {
        try SequenceCounter(store: store, key: "c").next()
      }
    }
  }

  @Test("a consumer record at the ends of UInt64 drains: a cursor past the head is a reset")
  func consumerRecordAtTheEnds() throws {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Event>(store: store, key: "outbox", capacity: 4)
    for seconds in 1...3 { try outbox.publish(Event(app: "a", seconds: seconds)) { _ in } }
    let head = try #require(try outbox.head()).number
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: [Event]())
    let epoch = try storedJSON(head.epoch)
    for last in ["0", Self.max] {
      let record =
        #"{"cursor":{"last":{"epoch":\#(epoch),"value":\#(last)}},"#
        + #""revision":\#(Self.max),"state":[]}"#
      try store.plantRecord(Data(record.utf8), for: "consumer")
      let batch = try consumer.drain { state, entry in state.append(entry.payload) }
      #expect(batch.cursor.last == head)
      if last == Self.max {
        #expect(batch.reset == .wentBackwards(from: .max))
        #expect(batch.entries.isEmpty)
      } else {
        #expect(batch.entries.count == 3)
      }
      // The revision wraps around instead of trapping.
      #expect(try consumer.record().revision == 0)
    }
  }

  @Test("a coordinator whose counts are all UInt64.max decides and saturates")
  func coordinatorAtMax() throws {
    let text =
      #"{"statistics":{"drains":\#(Self.max),"foregrounds":\#(Self.max),"#
      + #""notifications":\#(Self.max),"notificationsWithNothingNew":\#(Self.max),"#
      + #""polls":\#(Self.max),"pollsThatFoundWork":\#(Self.max)}}"#
    var coordinator = try decode(DrainCoordinator.self, text)
    for trigger in DrainTrigger.allCases {
      let decision = coordinator.decide(
        trigger, head: number(.max), cursor: OutboxCursor(after: number(0)))
      #expect(decision.reason == .pending(count: .max))
    }
    #expect(coordinator.statistics.drains == .max)
  }
}
