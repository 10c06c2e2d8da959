import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// Facts to publish: an interval's start and threshold events, a minute apart.
func fuzzFacts(_ count: Int) throws -> [MonitorFact] {
  let start = Date(timeIntervalSince1970: 1_776_204_000)
  return try (0..<count).map { index in
    index == 0
      ? try MonitorFact(.intervalDidStart, activity: "daily", at: start)
      : try MonitorFact(
        .eventDidReachThreshold, activity: "daily", event: "stk:\(5 * index)m:com.a",
        at: start.addingTimeInterval(Double(60 * index)))
  }
}

/// An outbox's records
/// (`Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/SequenceTracking-OutboxFormat.md`) read by
/// `head` and `drain`, drained by an `OutboxConsumer`, and published to.
final class OutboxDriver: StoredFormatDriver {
  let key = "outbox"
  let companions: [String: [UInt8]] = [:]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox
  private let outbox: SequencedOutbox<MonitorFact>
  private let consumer: OutboxConsumer<MonitorFact, [UInt64]>
  private let fact: MonitorFact

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    fact = try MonitorFact(
      .intervalDidEnd, activity: "daily", at: Date(timeIntervalSince1970: 1_776_290_400))
    let key = key
    let outbox = try SequencedOutbox<MonitorFact>(store: sandbox.store, key: key, capacity: 4)
    self.outbox = outbox
    consumer = try OutboxConsumer(
      outbox: outbox, store: sandbox.store, key: "consumer", initialState: [])
    let facts = try fuzzFacts(7)
    func log(first: UInt64, _ records: [Data]) -> [UInt8] {
      let header = LogFileFormat.Header(
        tokenBase: 1, identity: 0x0123_4567_89AB_CDEF, capacity: 4, evicted: 0,
        nextPosition: first)
      return Array(
        LogFileFormat.file(
          header: header,
          records: records.enumerated().map { LogRecord(position: first + UInt64($0), bytes: $1) }
        ))
    }
    let json = #"{"activity":"daily","at":"2026-04-14T22:00:00Z","callback":"intervalDidStart"}"#
    let record = Data([1]) + Data(json.utf8)
    seeds = [
      try sandbox.written(key) { _ in try outbox.publish(facts[0]) { _ in } },
      try sandbox.written(key) { _ in
        for fact in facts { try outbox.publish(fact) { _ in } }
      },
      try sandbox.written(key) { store in
        try outbox.publish(contentsOf: facts.prefix(3)) { _ in }
        let wider = try SequencedOutbox<MonitorFact>(store: store, key: key, capacity: 9)
        try wider.publish(contentsOf: facts.suffix(3)) { _ in }
      },
      log(first: 1, [record, Data([2]) + Data(json.utf8)]),
      log(first: 1, [record, Data()]),
      log(first: UInt64.max - 2, [record, record]),
      log(first: 3, [record, record, Data([1]) + Data("[]".utf8)]),
      Array(StoreFileFormat.encode(payload: record, generation: 4)),
    ]
  }

  // swift-format-ignore: FunctionBodyLength
  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let outbox = outbox
    let name = StoredBytes.fileName(forKey: key)
    let head = try probe.read("head") { try outbox.head() }
    let drained = try probe.read("drain(after: .start)") { try outbox.drain(after: .start) }
    if let number = (head.value ?? nil)?.number {
      let previous = SequenceNumber(epoch: number.epoch, value: number.value &- 1)
      try probe.read("drain(after: the head's predecessor)") {
        try outbox.drain(after: OutboxCursor(after: previous))
      }
      try probe.read("drain(after:passingOver: the head)") {
        try outbox.drain(after: .start, passingOver: number)
      }
    }
    if let batch = drained.value {
      let numbers = batch.entries.map(\.number)
      try probe.require(
        zip(numbers, numbers.dropFirst()).allSatisfy {
          $0.epoch == $1.epoch && $0.value < UInt64.max && $0.value + 1 == $1.value
        }, "drain(after: .start)", "the entries are not numbered consecutively: \(numbers)")
      try probe.require(
        head.returned, "head", "refused an outbox that drain accepted: \(String(describing: head))")
      try probe.require(
        batch.head == (head.value ?? nil)?.number, "drain(after: .start)",
        "its head \(String(describing: batch.head)) is not head()'s")
    }

    let consumed = try probe.change("OutboxConsumer.drain", mayChange: ["consumer"]) {
      try consumer.drain { state, entry in state.append(entry.number.value) }
    }
    try probe.require(
      !consumed.returned || drained.returned, "OutboxConsumer.drain",
      "a consumer drained an outbox that drain(after: .start) refused")

    try probe.restore()
    let fact = fact
    let published = try probe.change("publish", mayChange: [name]) {
      try outbox.publish(fact) { _ in }
    }
    if let number = published.value {
      let after = try probe.read("head after publish") { try outbox.head() }
      try probe.require(
        (after.value ?? nil)?.number == number, "publish",
        "head() afterwards is \(String(describing: after.value)), not \(number)")
    }
    return drained.returned
  }
}

/// An `OutboxConsumer`'s stored record — its cursor and state — in front of a valid outbox.
final class ConsumerRecordDriver: StoredFormatDriver {
  let key = "consumer"
  let companions: [String: [UInt8]]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox
  private let consumer: OutboxConsumer<MonitorFact, [String: Int]>
  private let head: SequenceNumber

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    let key = key
    let store = sandbox.store
    let outbox = try SequencedOutbox<MonitorFact>(store: store, key: "outbox", capacity: 4)
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: key, initialState: [String: Int]())
    self.consumer = consumer
    let facts = try fuzzFacts(6)
    let head = try facts.map { fact in try outbox.publish(fact) { _ in } }.last
    guard let head, let outboxFile = sandbox.bytes(ofKey: "outbox") else {
      throw StoredFormatViolation(
        format: key, operation: "publishing", reason: "no outbox was written", file: [])
    }
    self.head = head
    companions = ["outbox": outboxFile]
    let typed = StoreKey(key, default: OutboxConsumerRecord(cursor: .start, state: [String: Int]()))
    func record(_ cursor: OutboxCursor, _ state: [String: Int]) throws -> [UInt8] {
      try sandbox.written(key) { store in
        try store.set(OutboxConsumerRecord(cursor: cursor, state: state), for: typed)
      }
    }
    let other = SequenceNumber(epoch: SequenceEpoch(rawValue: 7), value: 2)
    let older = SequenceNumber(epoch: head.epoch, value: head.value - 2)
    seeds = [
      try sandbox.written(key) { _ in
        try sandbox.plant(["outbox": outboxFile])
        try consumer.drain { state, entry in state[entry.payload.activity, default: 0] &+= 1 }
      },
      try record(.start, [:]),
      try record(OutboxCursor(after: older), ["daily": 3]),
      try record(OutboxCursor(after: other), ["daily": 1, "other": 2]),
      try record(
        OutboxCursor(after: SequenceNumber(epoch: head.epoch, value: .max)), ["daily": .max]),
    ]
  }

  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let consumer = consumer
    let name = StoredBytes.fileName(forKey: key)
    let record = try probe.read("record") { try consumer.record() }
    let drained = try probe.change("drain", mayChange: [name]) {
      try consumer.drain { state, entry in state[entry.payload.activity, default: 0] &+= 1 }
    }
    if let batch = drained.value {
      try probe.require(record.returned, "drain", "drained after a record that record() refused")
      let after = try probe.read("record after drain") { try consumer.record() }
      try probe.require(
        after.value?.cursor == batch.cursor, "drain",
        "the stored cursor \(String(describing: after.value?.cursor)) is not \(batch.cursor)")
    }
    try probe.restore()
    let head = head
    let skipped = try probe.change("skip(through:)", mayChange: [name]) {
      try consumer.skip(through: head) { state, entry in
        state[entry.payload.activity, default: 0] &+= 1
      }
    }
    try probe.require(
      !skipped.returned || record.returned, "skip(through:)",
      "skipped after a record that record() refused")
    return record.returned
  }
}

/// A `SequenceTracker` kept as a typed value: read, and updated as numbers arrive.
final class SequenceTrackerDriver: StoredFormatDriver {
  let key = "tracker"
  let companions: [String: [UInt8]] = [:]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox
  private let typed = StoreKey("tracker", default: SequenceTracker())

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    let typed = typed
    func number(_ value: UInt64, _ epoch: UInt64 = 0xA) -> SequenceNumber {
      SequenceNumber(epoch: SequenceEpoch(rawValue: epoch), value: value)
    }
    var built = SequenceTracker()
    for value: UInt64 in [1, 2, 5, 9, 4, 30] { built.observe(number(value)) }
    built.observe(number(3, 0xB))
    built.observe(number(8, 0xB))
    var holes = SequenceTracker()
    for value in stride(from: UInt64(1), through: 200, by: 2) { holes.observe(number(value)) }
    var resets = SequenceTracker()
    for epoch: UInt64 in 1...7 { resets.observe(number(.max - epoch, epoch)) }
    seeds = try [SequenceTracker(), built, holes, resets].map { tracker in
      try sandbox.written(typed.name) { try $0.set(tracker, for: typed) }
    }
  }

  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let store = sandbox.store
    let typed = typed
    let name = StoredBytes.fileName(forKey: key)
    let value = try probe.read("value(for:)") {
      let tracker = try store.value(for: typed)
      _ = (tracker.statistics.deliveryRate, tracker.outstanding.map(\.count), tracker.latest)
      return tracker
    }
    let epoch = value.value?.latest?.epoch ?? SequenceEpoch(rawValue: 0xA)
    let numbers = [
      SequenceNumber(epoch: epoch, value: 7), SequenceNumber(epoch: epoch, value: .max),
      SequenceNumber(epoch: SequenceEpoch(rawValue: 0xC), value: 1),
    ]
    var readable = value.returned
    for (index, number) in numbers.enumerated() {
      let updated = try probe.change("update: observe \(number)", mayChange: [name]) {
        try store.update(typed) { tracker in
          index == 1 ? tracker.observeHead(number) : tracker.observe(number)
        }
      }
      try probe.require(
        updated.returned == readable, "update: observe \(number)",
        readable ? "refused a tracker that value(for:) read" : "updated an unreadable tracker")
      guard readable else { break }
      let after = try probe.read("value(for:) after observing") { try store.value(for: typed) }
      readable = after.returned
      try probe.require(readable, "update", "stored a tracker that does not read back")
    }
    return value.returned
  }
}
