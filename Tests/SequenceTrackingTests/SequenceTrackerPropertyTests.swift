import Foundation
import SequenceTracking
import SignalValues
import TestSupport
import Testing

@Suite("Sequence tracker against a reference")
struct SequenceTrackerPropertyTests {
  /// A stream of numbers as a flaky transport delivers them: mostly forward, with jumps, late
  /// and repeated numbers, now and then a wild value, producer restarts, and late messages of
  /// earlier epochs — recent ones and ones retired too long ago to be remembered.
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
      case 50..<68: value = highest + 2 + random.next() % 6
      case 68..<85: value = highest > 0 ? 1 + random.next() % highest : 1
      case 85..<92: value = highest
      case 92..<95: value = random.next() % 400
      case 95..<97 where epochs.count > 1:
        // A message of an earlier epoch arrives late.
        let old = epochs[Int(random.next() % UInt64(epochs.count - 1))]
        numbers.append(SequenceNumber(epoch: old, value: 1 + random.next() % 5))
        continue
      default:
        // The producer restarts in a new epoch.
        epochs.append(SequenceEpoch(rawValue: random.next()))
        highest = 0
        value = 1 + random.next() % 3
      }
      highest = max(highest, value)
      numbers.append(SequenceNumber(epoch: epochs[epochs.count - 1], value: value))
    }
    return numbers
  }

  /// The kind of an observation, to check that the streams reach every rule.
  static func kind(_ observation: SequenceObservation) -> String {
    switch observation {
    case .first: return "first"
    case .inOrder: return "in order"
    case .gap: return "gap"
    case .duplicate: return "duplicate"
    case .lateArrival: return "late arrival"
    case .stale: return "stale"
    case .reset(_, .epochChanged, _): return "reset by epoch"
    case .reset(_, .wentBackwards, _): return "reset by going back"
    case .reset(_, .rewritten, _): return "reset by rewrite"
    }
  }

  @Test("the streams reach every outcome, including stale messages of retired epochs")
  func streamsReachEveryOutcome() {
    var observed: Set<String> = []
    var heads: Set<String> = []
    var staleEpochs = 0
    var forgottenEpochResets = 0
    for seed: UInt64 in 0..<40 {
      var tracker = SequenceTracker()
      var headTracker = SequenceTracker()
      var seenEpochs: Set<SequenceEpoch> = []
      for number in Self.stream(seed: seed, count: 400) {
        let current = tracker.latest?.epoch
        let observation = tracker.observe(number)
        observed.insert(Self.kind(observation))
        if case .stale = observation, number.epoch != current { staleEpochs += 1 }
        if case .reset = observation, seenEpochs.contains(number.epoch) {
          forgottenEpochResets += 1
        }
        if let current { seenEpochs.insert(current) }
      }
      for number in Self.stream(seed: seed &+ 1000, count: 400) {
        heads.insert(Self.kind(headTracker.observeHead(number)))
      }
    }
    #expect(
      observed.isSuperset(of: [
        "first", "in order", "gap", "duplicate", "late arrival", "stale", "reset by epoch",
      ]), "\(observed)")
    #expect(staleEpochs > 0, "late messages of retired epochs are stale")
    #expect(forgottenEpochResets > 0, "an epoch retired too long ago is a reset again")
    #expect(
      heads.isSuperset(of: ["first", "in order", "gap", "duplicate", "reset by going back"]),
      "\(heads)")
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
      #expect(tracker.retiredEpochs == reference.retired, "seed \(seed), step \(step)")
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

  @Test("control: a tracker that forgets its retired epochs disagrees with the reference")
  func controlForgettingRetiredEpochsIsCaught() throws {
    var disagreements = 0
    for seed: UInt64 in 0..<40 {
      var tracker = SequenceTracker()
      var reference = ReferenceTracker()
      for number in Self.stream(seed: seed, count: 400) {
        // The tracker as stored by a version without retired epochs, decoded again.
        var stripped =
          try JSONSerialization.jsonObject(with: JSONEncoder().encode(tracker))
          as? [String: Any] ?? [:]
        if var run = stripped["run"] as? [String: Any] {
          run["retired"] = nil
          stripped["run"] = run
        }
        tracker = try JSONDecoder().decode(
          SequenceTracker.self, from: JSONSerialization.data(withJSONObject: stripped))
        if tracker.observe(number) != reference.observe(number, asHead: false) {
          disagreements += 1
          break
        }
      }
    }
    #expect(disagreements > 0, "the comparison must catch a tracker that forgets")
  }
}
