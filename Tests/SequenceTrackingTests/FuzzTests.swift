import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing

/// Hostile JSON for every `Codable` type of SequenceTracking, and for the stored counter and
/// consumer record behind the public API: decoding throws or gives a value that round-trips and
/// survives its main operations; it never traps or hangs.
@Suite("Decoding hostile JSON never traps")
struct FuzzTests {
  static let plan = Fuzz.Plan(seed: 0x5EED_0003, makeTargets)

  @Test("every input decodes to a usable value or throws a DecodingError", arguments: plan.targets)
  func fuzz(_ target: Fuzz.Target) throws {
    try Self.plan.run(target)
  }

  /// Numbers that a tracker, cursor or coordinator is asked about after decoding.
  static let probes: [SequenceNumber] = [
    number(0), number(1), number(7), number(UInt64.max - 1), number(.max), number(3, .b),
    number(.max, .b),
  ]

  // swift-format-ignore: FunctionBodyLength
  static func makeTargets() throws -> [Fuzz.Target] {
    var tracker = SequenceTracker()
    for value: UInt64 in [1, 2, 5, 9, 4, 30] { tracker.observe(number(value)) }
    tracker.observe(number(3, .b))
    tracker.observe(number(8, .b))
    let built = tracker
    var coordinator = DrainCoordinator()
    _ = coordinator.decide(.poll, head: number(4), cursor: OutboxCursor(after: number(2)))
    let cursor = OutboxCursor(after: number(2))
    let record = OutboxConsumerRecord(cursor: cursor, state: [Event(app: "a", seconds: 60)])
    let head = OutboxHead(number: number(9), oldest: 3, token: ChangeToken(generation: 7))

    return [
      .decoding([SequenceEpoch.a]),
      .decoding([number(3)]) { number in _ = probes.map(number.precedes) },
      .decoding([range(2...9), range(0...UInt64.max, .b)]) { range in
        _ = range.count
        _ = probes.map(range.contains)
      },
      .decoding([built.statistics]) { _ = $0.deliveryRate },
      .decoding([built, SequenceTracker()]) { tracker in
        for probe in probes {
          var copy = tracker
          copy.observe(probe)
          _ = copy.statistics.deliveryRate
          var head = tracker
          head.observeHead(probe)
          _ = head.outstanding.map(\.count)
        }
      },
      .decoding([coordinator]) { coordinator in
        var copy = coordinator
        for probe in probes {
          _ = copy.decide(.notification, head: probe, cursor: OutboxCursor(after: number(.max)))
          _ = copy.decide(.poll, head: probe, cursor: .start)
        }
      },
      .decoding([coordinator.statistics]),
      .decoding([DrainTrigger.foreground]),
      .decoding([cursor, .start]),
      .decoding([head]),
      .decoding([record]),
      .decoding([SequencedEntry(number: number(4), payload: Event(app: "b", seconds: 1))]),
      .decoding([ChangeToken(generation: 42)]),
      Fuzz.Target(description: "stored counter") { inputs, seed in
        try storedCounter(inputs: inputs, seed: seed)
      },
      Fuzz.Target(description: "stored consumer record") { inputs, seed in
        try storedConsumerRecord(record, inputs: inputs, seed: seed)
      },
    ]
  }

  /// Planted counter values: `next()` hands out a number or throws, never traps.
  static func storedCounter(inputs: Int, seed: UInt64) throws -> Fuzz.Tally {
    let store = InMemoryStore()
    let counter = try SequenceCounter(store: store, key: "counter")
    _ = try counter.next()
    let valid = try #require(try store.read("counter"))
    return try Fuzz.runBytes(seeds: [Array(valid)], inputs: inputs, seed: seed) { bytes in
      try store.write(Data(bytes), for: "counter")
      do {
        _ = try counter.current()
        let issued = try counter.next()
        #expect(try counter.current() == issued)
        return true
      } catch {
        return false
      }
    }
  }

  /// Planted consumer records in front of a real outbox: a drain applies or throws, never traps.
  static func storedConsumerRecord(
    _ record: OutboxConsumerRecord<[Event]>, inputs: Int, seed: UInt64
  ) throws -> Fuzz.Tally {
    let store = InMemoryStore()
    let outbox = try SequencedOutbox<Event>(store: store, key: "outbox", capacity: 4)
    for seconds in 1...6 { try outbox.publish(Event(app: "a", seconds: seconds)) { _ in } }
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: [Event]())
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let seeds = [Array(try encoder.encode(record))]
    return try Fuzz.runBytes(seeds: seeds, inputs: inputs, seed: seed) { bytes in
      try store.write(Data(bytes), for: "consumer")
      do {
        let batch = try consumer.drain { state, entry in state.append(entry.payload) }
        _ = batch.lost?.count
        return true
      } catch {
        return false
      }
    }
  }
}
