import Foundation
import SequenceTracking
import SharedStore
import TestSupport
import Testing

/// The entries and the consumer record of the helper's `outbox-publish` and `outbox-consume`,
/// decoded from their JSON forms.
struct ProducedEntry: Codable, Sendable, Hashable {
  var producer: Int
  var index: Int
}

struct AppliedLog: Codable, Sendable {
  struct Item: Codable, Sendable, Hashable {
    var value: UInt64
    var producer: Int
    var index: Int
  }
  var items: [Item] = []
}

/// What is wrong with an applied log that should hold `perProducer` entries of each of
/// `producers` producers, each exactly once, numbered 1 onwards in the order applied, and each
/// producer's entries in the order it published them; empty when nothing is.
func violations(in applied: [AppliedLog.Item], producers: Int, perProducer: Int) -> [String] {
  var problems: [String] = []
  let total = producers * perProducer
  let distinct = Set(applied.map { ProducedEntry(producer: $0.producer, index: $0.index) })
  if applied.count != distinct.count {
    problems.append("\(applied.count - distinct.count) entries applied more than once")
  }
  if distinct.count != total { problems.append("\(distinct.count) of \(total) entries applied") }
  if applied.map(\.value) != Array(1...UInt64(total)) {
    problems.append("numbers not applied as 1...\(total) in order")
  }
  for producer in 0..<producers {
    let indices = applied.filter { $0.producer == producer }.map(\.index)
    if indices != Array(0..<perProducer) {
      problems.append("producer \(producer)'s entries not applied once each in its order")
    }
  }
  return problems
}

@Suite("Sequenced outbox across processes")
struct OutboxMultiProcessTests {
  static let producers = 3
  static let perProducer = 1000

  struct Paths {
    let directory: TemporaryDirectory
    var store: String { directory.url.appendingPathComponent("store").path }
    var doorbell: String { directory.url.appendingPathComponent("doorbell").path }
    var done: String { directory.url.appendingPathComponent("done").path }
    var barrier: String { directory.url.appendingPathComponent("barrier").path }
  }

  /// A producer's arguments; it waits `pauseMicroseconds` after each publish.
  static func producer(
    _ index: Int, count: Int, capacity: Int, _ paths: Paths, pauseMicroseconds: Int = 0
  ) -> [String] {
    [
      "outbox-publish", "--dir", paths.store, "--key", "outbox", "--capacity", "\(capacity)",
      "--producer", "\(index)", "--count", "\(count)", "--doorbell", paths.doorbell,
      "--durability", "processCrashSafe", "--barrier", paths.barrier,
      "--pause-us", "\(pauseMicroseconds)",
    ]
  }

  /// The sum of `name=` over the helper's summary lines.
  static func total(_ name: String, in summaries: [String]) -> Int {
    summaries.compactMap { summary in
      summary.split(separator: " ").first { $0.hasPrefix(name + "=") }.flatMap {
        Int($0.dropFirst(name.count + 1))
      }
    }.reduce(0, +)
  }

  /// The consumer's poll interval: longer than the whole run, so that until the producers are
  /// done only the notifications that get through wake it — a dropped one is then not made up
  /// for by a poll, only by the next notification's drain taking everything after the cursor.
  static let pollInterval = "600000"

  @Test(
    """
    3 producers publish 1,000 entries each while a consumer that drops half the notifications, \
    never polls until they are done, and keeps restarting applies each exactly once, in order
    """)
  func everyEntryAppliedOnceAcrossRestarts() throws {
    let paths = Paths(directory: try TemporaryDirectory(prefix: "stk-outbox"))
    // The capacity holds every entry, so nothing may be lost; eviction has its own tests.
    let capacity = Self.producers * Self.perProducer
    var random = SplitMix64(seed: 2026)

    let publishers = try (0..<Self.producers).map {
      try HelperProcess.start(
        // A publish costs its entry only: without pauses, 1,000 of them end before a consumer
        // has restarted a few times.
        Self.producer(
          $0, count: Self.perProducer, capacity: capacity, paths, pauseMicroseconds: 1_000)
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

    var launches = 0
    var killed = 0
    var summaries: [String] = []
    while summaries.last?.hasPrefix("finished") != true {
      launches += 1
      guard launches <= 500 else { throw ProcessFailure("the consumer never finished") }
      let (consumer, output) = try HelperProcess.start([
        "outbox-consume", "--dir", paths.store, "--key", "outbox", "--capacity", "\(capacity)",
        "--record", "consumer", "--doorbell", paths.doorbell, "--done", paths.done,
        "--seed", "\(random.next() % 1_000_000)", "--max-drains", "\(2 + random.next() % 12)",
        "--poll-ms", Self.pollInterval, "--deadline-s", "60", "--durability", "processCrashSafe",
      ])
      // Every third launch is killed at a random moment instead of restarting by itself.
      if launches % 3 == 0 {
        usleep(UInt32(5_000 + random.next() % 60_000))
        if consumer.isRunning {
          HelperProcess.kill(consumer)
          killed += 1
          _ = output.readDataToEndOfFile()
          continue
        }
      }
      let lines = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
      HelperProcess.waitForExit(consumer)
      guard consumer.terminationReason == .exit, consumer.terminationStatus == 0 else {
        throw ProcessFailure("the consumer failed with status \(consumer.terminationStatus)")
      }
      summaries.append(lines)
    }
    producersFinished.wait()
    #expect(doneCreated.withLock { $0 })
    for publisher in publishers {
      #expect(publisher.terminationStatus == 0, "a producer failed")
    }

    // What the consumer applied, read back by this process from the store.
    let store = try FileStore(directory: URL(fileURLWithPath: paths.store))
    let outbox = try SequencedOutbox<ProducedEntry>(store: store, key: "outbox", capacity: capacity)
    let record = try OutboxConsumer(
      outbox: outbox, store: store, key: "consumer", initialState: AppliedLog()
    ).record()
    let applied = record.state.items
    let total = Self.producers * Self.perProducer
    #expect(violations(in: applied, producers: Self.producers, perProducer: Self.perProducer) == [])
    #expect(record.cursor.last?.value == UInt64(total))
    #expect(launches - killed >= 3 && killed >= 1, "the consumer restarted several times")
    // What this proves beyond "every entry once": notifications were dropped; no poll found
    // anything before the producers were done, so the drains that applied the entries were
    // woken by the notifications that got through; and those drains applied more entries than
    // notifications arrived, so the entries of dropped notifications were among them.
    let arrived = Self.total("arrived", in: summaries)
    let appliedOnNotification = Self.total("appliedOnNotification", in: summaries)
    #expect(Self.total("dropped", in: summaries) > 0, "notifications were dropped")
    #expect(Self.total("earlyPollsWithWork", in: summaries) == 0, "polls made up for nothing")
    #expect(
      appliedOnNotification > arrived,
      "\(appliedOnNotification) entries applied on \(arrived) notifications")
  }

  /// Publishes `count` entries, runs a consumer of `mode` that dies during its first drain, then
  /// one that finishes, and returns what was applied.
  static func crashOnce(mode: String, count: Int) throws -> [AppliedLog.Item] {
    let paths = Paths(directory: try TemporaryDirectory(prefix: "stk-outbox-crash"))
    let store = try FileStore(directory: URL(fileURLWithPath: paths.store))
    let outbox = try SequencedOutbox<ProducedEntry>(store: store, key: "outbox", capacity: count)
    _ = try outbox.publish(contentsOf: (0..<count).map { ProducedEntry(producer: 0, index: $0) }) {
      _ in
    }
    func consume(crashAt drain: Int) throws -> [String] {
      try HelperProcess.run([
        "outbox-consume", "--dir", paths.store, "--key", "outbox", "--capacity", "\(count)",
        "--record", "consumer", "--doorbell", paths.doorbell, "--done", paths.done,
        "--seed", "1", "--max-drains", "100", "--poll-ms", "5", "--mode", mode,
        "--crash-at-drain", "\(drain)",
      ])
    }
    #expect(try consume(crashAt: 1) == ["crashed"])
    guard FileManager.default.createFile(atPath: paths.done, contents: Data()) else {
      throw ProcessFailure("cannot create the done file")
    }
    #expect(try consume(crashAt: 0).first?.hasPrefix("finished") == true)
    if mode == "exactly-once" {
      return try OutboxConsumer(
        outbox: outbox, store: store, key: "consumer", initialState: AppliedLog()
      ).record().state.items
    }
    return try store.value(for: StoreKey("consumer-state", default: AppliedLog())).items
  }

  @Test("a consumer process that dies in the middle of applying applies nothing twice")
  func crashMidApplyAppliesNothingTwice() throws {
    let applied = try Self.crashOnce(mode: "exactly-once", count: 30)
    #expect(violations(in: applied, producers: 1, perProducer: 30) == [])
  }

  @Test("control: a process that dies between applying and saving its cursor applies twice")
  func controlCrashBetweenApplyAndSave() throws {
    let applied = try Self.crashOnce(mode: "at-least-once", count: 30)
    let problems = violations(in: applied, producers: 1, perProducer: 30)
    #expect(problems.contains("30 entries applied more than once"), "\(problems)")
  }

  @Test("a consumer that fell behind producer processes is told exactly which numbers it lost")
  func overflowAcrossProcesses() throws {
    let paths = Paths(directory: try TemporaryDirectory(prefix: "stk-outbox-overflow"))
    let capacity = 16
    _ = try HelperProcess.runConcurrently(
      (0..<3).map { Self.producer($0, count: 20, capacity: capacity, paths) },
      releasing: URL(fileURLWithPath: paths.barrier))
    let store = try FileStore(directory: URL(fileURLWithPath: paths.store))
    let outbox = try SequencedOutbox<ProducedEntry>(store: store, key: "outbox", capacity: capacity)
    let fresh = try outbox.drain(after: .start)
    let epoch = try #require(fresh.head).epoch
    #expect(fresh.lost == SequenceRange(epoch: epoch, values: 1...44))
    #expect(fresh.entries.map(\.number.value) == Array(45...60))
    let behind = try outbox.drain(
      after: OutboxCursor(after: SequenceNumber(epoch: epoch, value: 30)))
    #expect(behind.lost == SequenceRange(epoch: epoch, values: 31...44))
    #expect(behind.entries == fresh.entries)
  }
}
