import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing

@Suite("Drain coordinator")
struct DrainCoordinatorTests {
  static let decisions: [(SequenceNumber?, OutboxCursor, DrainDecision.Reason)] = [
    (nil, .start, .nothingPublished),
    (nil, OutboxCursor(after: number(4)), .nothingPublished),
    (number(4), .start, .neverDrained),
    (number(9), OutboxCursor(after: number(4)), .pending(count: 5)),
    (number(4), OutboxCursor(after: number(4)), .upToDate),
    (number(2), OutboxCursor(after: number(4)), .producerWentBack),
    (number(1, .b), OutboxCursor(after: number(4)), .producerRestarted),
  ]

  @Test(
    "the decision follows from the head and the cursor, whatever the trigger",
    arguments: DrainTrigger.allCases, decisions.indices)
  func decisionTable(trigger: DrainTrigger, index: Int) {
    let (head, cursor, reason) = Self.decisions[index]
    var coordinator = DrainCoordinator()
    let decision = coordinator.decide(trigger, head: head, cursor: cursor)
    #expect(decision == DrainDecision(trigger: trigger, reason: reason))
    let drains: Bool
    switch reason {
    case .nothingPublished, .upToDate: drains = false
    default: drains = true
    }
    #expect(decision.shouldDrain == drains)
  }

  @Test("the statistics show notifications with nothing new and polls that found work")
  func statistics() throws {
    var coordinator = DrainCoordinator()
    let behind = OutboxCursor(after: number(3))
    let current = OutboxCursor(after: number(5))
    _ = coordinator.decide(.notification, head: number(5), cursor: behind)
    _ = coordinator.decide(.notification, head: number(5), cursor: current)
    _ = coordinator.decide(.poll, head: number(5), cursor: current)
    _ = coordinator.decide(.poll, head: number(7), cursor: current)
    _ = coordinator.decide(.foreground, head: number(7), cursor: current)
    let json =
      #"{"statistics":{"drains":3,"foregrounds":1,"notifications":2,"#
      + #""notificationsWithNothingNew":1,"polls":2,"pollsThatFoundWork":1}}"#
    #expect(try storedJSON(coordinator) == json)
    #expect(try decode(DrainCoordinator.self, json) == coordinator)
  }

  @Test("triggers encode as their names")
  func triggerJSONForm() throws {
    #expect(try storedJSON(DrainTrigger.notification) == #""notification""#)
    #expect(try storedJSON(DrainTrigger.poll) == #""poll""#)
    #expect(try decode(DrainTrigger.self, #""foreground""#) == .foreground)
  }

  @Test("the recommended poll interval is 30 seconds")
  func pollInterval() {
    #expect(DrainCoordinator.recommendedPollInterval == .seconds(30))
  }

  @Test(
    "with most notifications dropped, notifications plus polls apply every entry once",
    arguments: 0..<8)
  func hybridLosesNothing(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Int>(store: store, key: "outbox", capacity: 1000)
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: Applied())
    var coordinator = DrainCoordinator()
    var cursor = OutboxCursor.start
    var head: OutboxHead?
    var published = 0
    func wake(_ trigger: DrainTrigger) throws {
      head = try outbox.head(reusing: head)
      guard coordinator.decide(trigger, head: head?.number, cursor: cursor).shouldDrain else {
        return
      }
      cursor = try consumer.drain { state, entry in state.values.append(entry.payload) }.cursor
    }
    for tick in 0..<400 {
      if random.next() % 3 == 0 {
        // One or two publishes before the app handles a notification: coalesced.
        for _ in 0...(random.next() % 2) {
          published += 1
          try outbox.publish(published) { _ in }
        }
        if random.next() % 10 >= 7 { try wake(.notification) }  // 70 % are dropped
      }
      if tick % 30 == 29 { try wake(.poll) }
    }
    try wake(.poll)
    #expect(try consumer.record().state.values == Array(1...published))
    #expect(coordinator.statistics.pollsThatFoundWork > 0)
  }
}
