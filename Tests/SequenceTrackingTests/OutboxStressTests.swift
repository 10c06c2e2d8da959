import Foundation
import SequenceTracking
import TestSupport
import Testing

/// `Scripts/stress.sh`, scenario 3: producers publish to a `SequencedOutbox` while its consumer
/// process is SIGKILLed over and over and restarted, and every entry is applied exactly once.
///
/// See ``KilledConsumerRun``. `OutboxMultiProcessTests` holds the control: a consumer that saves
/// its cursor apart from its state applies entries twice when it dies between the two.
@Suite("Stress: outbox with a killed consumer")
struct OutboxStressTests {
  @Test(
    "a consumer process SIGKILLed again and again while producers publish applies each entry once",
    .enabled(if: StressRun.current != nil, "set STK_STRESS, as Scripts/stress.sh does"))
  func everyEntryOnceUnderKills() throws {
    let stress = try #require(StressRun.current)
    let producers = 2
    let perProducer = stress.scaled(full: 3_000, short: 400)
    let minimumKills = stress.scaled(full: 60, short: 5)
    // Three launches in four are killed within 40 ms of their start, some before their first
    // drain, some in the middle of one; the fourth restarts by itself after a few drains.
    let run = KilledConsumerRun(
      producers: producers, perProducer: perProducer, pauseMicroseconds: 3_000,
      killsLaunch: { $0 % 4 != 0 }, killDelay: 2_000...40_000, maximumLaunches: 20_000,
      seed: 2_027)
    let outcome = try run.run()
    let total = producers * perProducer
    let distinct = Set(
      outcome.applied.map { ProducedEntry(producer: $0.producer, index: $0.index) })
    let duplicates = outcome.applied.count - distinct.count
    let missing = total - distinct.count
    StressRun.report(
      "outbox",
      "\(total) entries from \(producers) producers, consumer launched \(outcome.launches) times, "
        + "SIGKILLed \(outcome.kills) times, applied \(outcome.applied.count), "
        + "duplicates \(duplicates), missing \(missing)")
    #expect(outcome.producersSucceeded, "a producer failed")
    #expect(duplicates == 0)
    #expect(missing == 0)
    #expect(violations(in: outcome.applied, producers: producers, perProducer: perProducer) == [])
    #expect(outcome.cursor == UInt64(total))
    #expect(outcome.kills >= minimumKills, "the consumer was killed again and again")
  }
}
