import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport

/// Producer processes publish to one `SequencedOutbox` while a consumer process, an
/// `OutboxConsumer` that records every entry it applies, keeps restarting: by itself after a few
/// drains, or SIGKILLed at a random moment.
///
/// `OutboxMultiProcessTests` runs it at `swift test` scale, killing every third launch;
/// `OutboxStressTests` at the scale of `Scripts/stress.sh`, killing most launches.
struct KilledConsumerRun {
  /// The number of producer processes, and how many entries each publishes.
  var producers = 3
  var perProducer = 1_000
  /// How long each producer waits after each publish, in microseconds: without pauses a
  /// thousand publishes end before a consumer has restarted a few times.
  var pauseMicroseconds = 1_000
  /// Whether the consumer's `launch`th launch (1 onwards) is killed instead of left to restart
  /// by itself.
  var killsLaunch: @Sendable (Int) -> Bool = { $0 % 3 == 0 }
  /// How long after its start a consumer that is to be killed is killed, in microseconds, chosen
  /// at random.
  var killDelay: ClosedRange<UInt64> = 5_000...65_000
  /// The most launches before the run gives up.
  var maximumLaunches = 500
  /// The seed of the consumer's random choices and of the kill delays.
  var seed: UInt64 = 2026

  /// What a run did and what the consumer applied.
  struct Outcome {
    var launches = 0
    var kills = 0
    /// The summary line of each consumer run that ended by itself.
    var summaries: [String] = []
    /// What the consumer's record holds at the end, in the order applied.
    var applied: [AppliedLog.Item] = []
    /// The number of the last entry the record's cursor is after.
    var cursor: UInt64?
    /// Whether every producer ended with status 0.
    var producersSucceeded = false
  }

  /// The consumer's poll interval: longer than the whole run, so that until the producers are
  /// done only the notifications that get through wake it — a dropped one is then not made up
  /// for by a poll, only by the next notification's drain taking everything after the cursor.
  static let pollInterval = "600000"

  /// Runs the producers and the consumer to the end.
  ///
  /// - Returns: What happened.
  /// - Throws: When a process cannot start, the consumer fails or never finishes.
  func run() throws -> Outcome {
    let paths = OutboxMultiProcessTests.Paths(
      directory: try TemporaryDirectory(prefix: "stk-outbox"))
    // The capacity holds every entry, so nothing may be lost; eviction has its own tests.
    let capacity = producers * perProducer
    var random = SplitMix64(seed: seed)

    let publishers = try (0..<producers).map {
      try HelperProcess.start(
        OutboxMultiProcessTests.producer(
          $0, count: perProducer, capacity: capacity, paths,
          pauseMicroseconds: pauseMicroseconds)
      ).0
    }
    guard FileManager.default.createFile(atPath: paths.barrier, contents: Data()) else {
      for publisher in publishers { HelperProcess.kill(publisher) }
      throw ProcessFailure("cannot create the barrier")
    }

    // When every producer has finished, say so: a consumer then drains what is left and ends.
    let producersFinished = DispatchGroup()
    let doneCreated = LockedValue(false)
    DispatchQueue.global().async(group: producersFinished) {
      for publisher in publishers { HelperProcess.waitForExit(publisher) }
      let created = FileManager.default.createFile(atPath: paths.done, contents: Data())
      doneCreated.withLock { $0 = created }
    }

    var outcome = Outcome()
    while outcome.summaries.last?.hasPrefix("finished") != true {
      outcome.launches += 1
      guard outcome.launches <= maximumLaunches else {
        throw ProcessFailure("the consumer never finished")
      }
      let (consumer, output) = try HelperProcess.start([
        "outbox-consume", "--dir", paths.store, "--key", "outbox", "--capacity", "\(capacity)",
        "--record", "consumer", "--doorbell", paths.doorbell, "--done", paths.done,
        "--seed", "\(random.next() % 1_000_000)", "--max-drains", "\(2 + random.next() % 12)",
        "--poll-ms", Self.pollInterval, "--deadline-s", "60", "--durability", "processCrashSafe",
      ])
      if killsLaunch(outcome.launches) {
        let span = killDelay.upperBound - killDelay.lowerBound + 1
        usleep(UInt32(killDelay.lowerBound + random.next() % span))
        if consumer.isRunning {
          HelperProcess.kill(consumer)
          outcome.kills += 1
          _ = output.readDataToEndOfFile()
          continue
        }
      }
      let lines = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
      HelperProcess.waitForExit(consumer)
      guard consumer.terminationReason == .exit, consumer.terminationStatus == 0 else {
        throw ProcessFailure("the consumer failed with status \(consumer.terminationStatus)")
      }
      outcome.summaries.append(lines)
    }
    producersFinished.wait()
    outcome.producersSucceeded =
      doneCreated.withLock { $0 } && publishers.allSatisfy { $0.terminationStatus == 0 }

    // What the consumer applied, read back by this process from the store.
    let store = try FileStore(directory: URL(fileURLWithPath: paths.store))
    let outbox = try SequencedOutbox<ProducedEntry>(store: store, key: "outbox", capacity: capacity)
    let record = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: AppliedLog()
    ).record()
    outcome.applied = record.state.items
    outcome.cursor = record.cursor.last?.value
    return outcome
  }
}
