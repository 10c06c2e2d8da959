import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport

// SequenceTracking's subcommands, for the multi-process suites in SequenceTrackingTests:
//
//   sequence-next --dir D --key K --count N [--durability M] [--barrier F]
//       Hands out N numbers with SequenceCounter.next(); prints "value epoch" per number.
//   sequence-next-racy --dir D --key K --count N [--barrier F]                    (control)
//       The same with a read-then-write increment of the same stored form.
//   outbox-publish --dir D --key K --capacity C --producer P --count N --doorbell F
//                  [--durability M] [--barrier F] [--pause-us U]
//       Publishes N entries {producer, index}; each notify appends one byte to the doorbell file.
//       With --pause-us, waits U µs after each publish, so that the run lasts long enough for a
//       consumer to restart during it.
//   outbox-consume --dir D --key K --capacity C --record R --doorbell F --done F --seed S
//                  --max-drains M [--poll-ms P] [--deadline-s T] [--durability M]
//                  [--mode exactly-once|at-least-once] [--crash-at-drain N]
//       Drains through an OutboxConsumer whose record R keeps every applied entry. Notifications
//       are doorbell bytes; each is dropped with probability 1/2. Polls every P ms, and on every
//       pass once the done file exists. Exits after M drains ("restart") or once the done file
//       exists and the cursor is at the head ("finished"), printing one summary line: drains,
//       notifications dropped and arrived, entries applied by drains a notification woke,
//       polls before the done file that found work. With --crash-at-drain N it exits during its Nth
//       drain, printing "crashed": inside the apply step of an OutboxConsumer, or, in the
//       at-least-once control, after applying to "R-state" and before saving "R-cursor".

/// One entry of the multi-process outbox test.
struct ProducedEntry: Codable, Sendable, Equatable {
  var producer: Int
  var index: Int
}

/// What the consumer applied: every entry with its number, in the order applied.
struct AppliedLog: Codable, Sendable {
  struct Item: Codable, Sendable {
    var value: UInt64
    var producer: Int
    var index: Int
  }
  var items: [Item] = []
}

/// A naive stored counter, read and written in two steps by the control.
private struct RacyCounter: Codable {
  var epoch: SequenceEpoch
  var last: UInt64
}

/// Runs a SequenceTracking subcommand; returns `false` when `name` is not one of them.
func runSequenceTrackingCommand(_ name: String, _ options: Options) throws -> Bool {
  switch name {
  case "sequence-next":
    let counter = try SequenceCounter(store: try options.store(), key: try options.string("key"))
    let count = try options.int("count")
    try options.waitForBarrier()
    var lines: [String] = []
    lines.reserveCapacity(count)
    for _ in 0..<count {
      let number = try counter.next()
      lines.append("\(number.value) \(number.epoch)")
    }
    emit(lines.joined(separator: "\n"))

  case "sequence-next-racy":
    let store = try options.store()
    let key = StoreKey<RacyCounter?>(try options.string("key"), default: nil)
    let count = try options.int("count")
    try options.waitForBarrier()
    var lines: [String] = []
    for _ in 0..<count {
      var generator = SystemRandomNumberGenerator()
      let current = try store.value(for: key)
      let next = RacyCounter(
        epoch: current?.epoch ?? .random(using: &generator), last: (current?.last ?? 0) + 1)
      try store.set(next, for: key)
      lines.append("\(next.last) \(next.epoch)")
    }
    emit(lines.joined(separator: "\n"))

  case "outbox-publish":
    let outbox = try SequencedOutbox<ProducedEntry>(
      store: try options.store(), key: try options.string("key"),
      capacity: try options.int("capacity"))
    let producer = try options.int("producer")
    let count = try options.int("count")
    let doorbell = try Doorbell(path: try options.string("doorbell"))
    try options.waitForBarrier()
    let pause = UInt32(options.values["pause-us"] ?? "0") ?? 0
    for index in 0..<count {
      try outbox.publish(ProducedEntry(producer: producer, index: index)) { _ in doorbell.ring() }
      if pause > 0 { usleep(pause) }
    }

  case "outbox-consume":
    try OutboxConsumerProcess(options).run()

  default:
    return false
  }
  return true
}

/// A stand-in for a Darwin notification: one byte appended to a file per notification.
///
/// Like a Darwin notification it carries nothing, and a reader that looks at the file's size
/// sees several rings at once, as coalesced notifications. Appends use `O_APPEND`, so rings from
/// several producers never overwrite each other.
final class Doorbell {
  private let descriptor: Int32

  init(path: String) throws {
    descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw HelperError("cannot open doorbell \(path): errno \(errno)") }
  }

  deinit { close(descriptor) }

  func ring() {
    var byte: UInt8 = 1
    // A ring that fails to write is a dropped notification, which the consumer must survive.
    _ = write(descriptor, &byte, 1)
  }

  /// How many rings the file at `path` holds.
  static func rings(at path: String) throws -> UInt64 {
    guard FileManager.default.fileExists(atPath: path) else { return 0 }
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.size] as? NSNumber)?.uint64Value ?? 0
  }
}

/// The consumer side of the multi-process outbox test: a process that drains through an
/// `OutboxConsumer`, misses notifications, and restarts.
struct OutboxConsumerProcess {
  /// How the consumer records what it applied.
  enum Mode: String {
    /// Through `OutboxConsumer`: state and cursor in one record, one update per drain.
    case exactlyOnce = "exactly-once"
    /// The control: apply to a state key, then save the cursor under another key.
    case atLeastOnce = "at-least-once"
  }

  let options: Options
  let mode: Mode
  let store: FileStore
  let outbox: SequencedOutbox<ProducedEntry>
  let consumer: OutboxConsumer<ProducedEntry, AppliedLog>
  let stateKey: StoreKey<AppliedLog>
  let cursorKey: StoreKey<OutboxCursor>

  init(_ options: Options) throws {
    self.options = options
    let rawMode = options.values["mode"] ?? Mode.exactlyOnce.rawValue
    guard let mode = Mode(rawValue: rawMode) else { throw HelperError("unknown mode \(rawMode)") }
    self.mode = mode
    store = try options.store()
    outbox = try SequencedOutbox(
      store: store, key: try options.string("key"), capacity: try options.int("capacity"))
    let record = try options.string("record")
    consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: record, initialState: AppliedLog())
    stateKey = StoreKey(record + "-state", default: AppliedLog())
    cursorKey = StoreKey(record + "-cursor", default: .start)
  }

  /// The stored cursor of this mode.
  func storedCursor() throws -> OutboxCursor {
    switch mode {
    case .exactlyOnce: return try consumer.record().cursor
    case .atLeastOnce: return try store.value(for: cursorKey)
    }
  }

  /// Drains once, or dies trying.
  ///
  /// With `crash`, the process ends at the worst moment of its mode: inside the apply step for
  /// `OutboxConsumer`, between applying and saving the cursor for the control.
  func drainOnce(crash: Bool) throws -> OutboxBatch<ProducedEntry> {
    func item(_ entry: SequencedEntry<ProducedEntry>) -> AppliedLog.Item {
      AppliedLog.Item(
        value: entry.number.value, producer: entry.payload.producer, index: entry.payload.index)
    }
    func die() -> Never {
      emit("crashed")
      exit(0)
    }
    switch mode {
    case .exactlyOnce:
      return try consumer.drain { log, entry in
        log.items.append(item(entry))
        if crash { die() }
      }
    case .atLeastOnce:
      let batch = try outbox.drain(after: try store.value(for: cursorKey))
      try store.update(stateKey) { log in log.items += batch.entries.map(item) }
      if crash, !batch.entries.isEmpty { die() }
      try store.set(batch.cursor, for: cursorKey)
      return batch
    }
  }

  func run() throws {
    let doorbellPath = try options.string("doorbell")
    let donePath = try options.string("done")
    let maximumDrains = try options.int("max-drains")
    let crashAtDrain = Int(options.values["crash-at-drain"] ?? "") ?? 0
    let pollInterval = Duration.milliseconds(Int64(options.values["poll-ms"] ?? "20") ?? 20)
    var random = SplitMix64(seed: UInt64(try options.int("seed")))
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(
      by: .seconds(Int64(options.values["deadline-s"] ?? "60") ?? 60))

    // A relaunched app has forgotten everything but its stored record; notifications sent while
    // it was not running are gone.
    var coordinator = DrainCoordinator()
    var cursor = try storedCursor()
    var lastHead: OutboxHead?
    var ringsSeen = try Doorbell.rings(at: doorbellPath)
    var nextPoll = clock.now.advanced(by: pollInterval)
    var tally = Tally()

    while true {
      guard clock.now < deadline else { throw HelperError("the consumer ran out of time") }
      let finishing = FileManager.default.fileExists(atPath: donePath)
      var trigger: DrainTrigger?
      let rings = try Doorbell.rings(at: doorbellPath)
      if rings > ringsSeen {
        let arrived = (ringsSeen..<rings).filter { _ in random.next() % 2 == 0 }.count
        tally.dropped += Int(rings - ringsSeen) - arrived
        tally.arrived += arrived
        ringsSeen = rings
        if arrived > 0 { trigger = .notification }
      }
      if trigger == nil, clock.now >= nextPoll || finishing {
        trigger = .poll
        nextPoll = clock.now.advanced(by: pollInterval)
      }
      guard let trigger else {
        usleep(500)
        continue
      }
      lastHead = try outbox.head(reusing: lastHead)
      let decision = coordinator.decide(trigger, head: lastHead?.number, cursor: cursor)
      if decision.shouldDrain {
        let batch = try drainOnce(crash: tally.drains + 1 == crashAtDrain)
        if let lost = batch.lost { throw HelperError("entries were lost: \(lost)") }
        if let reset = batch.reset { throw HelperError("unexpected reset: \(reset)") }
        cursor = batch.cursor
        tally.drains += 1
        if trigger == .notification { tally.appliedOnNotification += batch.entries.count }
        if trigger == .poll, !finishing { tally.earlyPollsWithWork += 1 }
      } else if finishing {
        emit(tally.summary("finished", coordinator.statistics))
        return
      }
      if tally.drains >= maximumDrains {
        emit(tally.summary("restart", coordinator.statistics))
        return
      }
    }
  }

  /// What one run of the consumer saw and did.
  struct Tally {
    var drains = 0
    /// Notifications dropped, and notifications that got through.
    var dropped = 0
    var arrived = 0
    /// Entries applied by drains that a notification woke.
    var appliedOnNotification = 0
    /// Polls before the done file existed that found entries to drain.
    var earlyPollsWithWork = 0

    func summary(_ ending: String, _ statistics: DrainStatistics) -> String {
      "\(ending) drains=\(drains) dropped=\(dropped) arrived=\(arrived) "
        + "appliedOnNotification=\(appliedOnNotification) "
        + "earlyPollsWithWork=\(earlyPollsWithWork) notifications=\(statistics.notifications) "
        + "polls=\(statistics.polls) pollsThatFoundWork=\(statistics.pollsThatFoundWork)"
    }
  }
}
