import Foundation
import SequenceTracking
import SharedStore
import SignalValues
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

  @Test(
    """
    3 producers publish 1,000 entries each while a consumer that drops half the notifications, \
    never polls until they are done, and keeps restarting applies each exactly once, in order
    """)
  func everyEntryAppliedOnceAcrossRestarts() throws {
    let run = KilledConsumerRun(producers: Self.producers, perProducer: Self.perProducer)
    let outcome = try run.run()
    #expect(outcome.producersSucceeded, "a producer failed")
    let total = Self.producers * Self.perProducer
    #expect(
      violations(in: outcome.applied, producers: Self.producers, perProducer: Self.perProducer)
        == [])
    #expect(outcome.cursor == UInt64(total))
    #expect(
      outcome.launches - outcome.kills >= 3 && outcome.kills >= 1,
      "the consumer restarted several times")
    // What this proves beyond "every entry once": notifications were dropped; no poll found
    // anything before the producers were done, so the drains that applied the entries were
    // woken by the notifications that got through; and those drains applied more entries than
    // notifications arrived, so the entries of dropped notifications were among them.
    let summaries = outcome.summaries
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
