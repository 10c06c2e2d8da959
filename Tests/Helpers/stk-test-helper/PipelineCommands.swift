import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import TrackerSignals
import UsageModel

// The pipeline's subcommands, for the kill tests in PipelineKillTests. Each replays or consumes
// the PipelineScript of --seed on the shared store in --dir; notifications are doorbell bytes
// (see Doorbell).
//
//   pipeline-extension --dir D --seed S --from I --capacity C --doorbell F [--locked-through J]
//       Replays the script from entry I through a MonitorRecorder whose outbox holds C facts.
//       Prints "b I" before each entry and "d I" once it is recorded (for a callback: after its
//       durable fact write, its heartbeat and its notification), then "end". With J, the device
//       is locked until entry J (a restart before the first unlock): no file opens, each
//       callback's fact is held in memory ("h I" before its "d I") and published by the first
//       entry from J on (a callback or a heartbeat tick), and a heartbeat tick writes nothing.
//   pipeline-app --dir D --seed S --doorbell F --done F --app-seed A [--poll-ms P]
//       Opens UsagePipeline(folder:configuration:), as an app does at launch, and wakes it on
//       notifications (each dropped with probability 1/2), polls and
//       foregrounds, with a dashboard on each foreground. Prints "n ARRIVED DROPPED" when
//       notifications come, "w TRIGGER APPLIED" after each drain, and "finished" once the done
//       file exists and a poll finds nothing left.
//   pipeline-control-extension --dir D --seed S --from I --capacity C --doorbell F     (control)
//       The two-write glue: a threshold event updates a ThresholdAccountant under a key, then the
//       usage it added is published to a UsageRecord outbox. On the callbacks the script marks,
//       prints "k I ADDED_SECONDS" after the first write and SIGKILLs itself before the second.
//       Heartbeat ticks are skipped; "b", "d" and "end" as above.
//   pipeline-control-app --dir D --capacity C --doorbell F --done F --app-seed A [--poll-ms P]
//       Drains the control's outbox exactly once into a list of UsageRecords; prints as
//       pipeline-app does.

/// Runs a pipeline subcommand; returns `false` when `name` is not one of them.
func runPipelineCommand(_ name: String, _ options: Options) throws -> Bool {
  switch name {
  case "pipeline-extension":
    try replayThroughMonitorRecorder(options)
  case "pipeline-app":
    try runPipelineApp(options)
  case "pipeline-control-extension":
    try TwoWriteExtension(options).replay(from: try options.int("from"))
  case "pipeline-control-app":
    try runControlApp(options)
  default:
    return false
  }
  return true
}

/// The app's settings for the script: New York and the script's monitoring plan.
func scriptConfiguration() throws -> PipelineConfiguration {
  var configuration = PipelineConfiguration(
    userId: "kill-test", timeZone: try zone(PipelineScript.timeZoneIdentifier))
  configuration.monitoring = try PipelineScript.monitoringPlan()
  return configuration
}

private func replayThroughMonitorRecorder(_ options: Options) throws {
  let script = try PipelineScript(seed: UInt64(try options.int("seed")))
  let deviceZone = try zone(PipelineScript.timeZoneIdentifier)
  let from = try options.int("from")
  let lockedThrough = options.has("locked-through") ? try options.int("locked-through") : from
  // As SharedFolder(directory:) opens it — a durable store and its sibling without flushes — on
  // a device whose data protection the replay locks and unlocks.
  let device = LockedDevice()
  let store = try FileStore(
    directory: URL(fileURLWithPath: try options.string("dir")), durability: .durable,
    fileSystem: device)
  let recorder = MonitorRecorder(
    folder: try SharedFolder(
      store: store, heartbeatStore: store.withDurability(.processCrashSafe),
      layout: .standard(outboxCapacity: try options.int("capacity"))),
    timeZone: { deviceZone })
  let doorbell = try Doorbell(path: try options.string("doorbell"))
  if from < lockedThrough { device.lock() }
  for index in from..<script.entries.count {
    let entry = script.entries[index]
    if index == lockedThrough { device.unlock() }
    emit("b \(index)")
    let response: MonitorResponse
    switch entry.kind {
    case .heartbeat:
      response = recorder.heartbeat(now: entry.at)
    case .callback(let callback, let activity, let event):
      response = recorder.record(callback, activity: activity, event: event, now: entry.at)
    }
    if index < lockedThrough {
      // Locked: the fact waits in memory, and nothing is written.
      if entry.isCallback {
        guard response.backlog.held > 0, response.notification == nil else {
          throw HelperError("entry \(index) was not held while locked: \(response)")
        }
        emit("h \(index)")
      }
    } else if !response.succeeded {
      throw HelperError("entry \(index) failed: \(response.failures.map(\.description))")
    }
    // Write, then notify.
    if response.notification != nil { doorbell.ring() }
    emit("d \(index)")
  }
  emit("end")
}

private func runPipelineApp(_ options: Options) throws {
  let script = try PipelineScript(seed: UInt64(try options.int("seed")))
  let configuration = try scriptConfiguration()
  // As an app opens it at launch: this also reclaims what killed writers left behind, while the
  // extension may be writing.
  var pipeline = try UsagePipeline(
    folder: try SharedFolder(directory: URL(fileURLWithPath: try options.string("dir"))),
    configuration: configuration)
  let boundary = configuration.boundary
  // The app's clock: the time of the last fact it applied, as if it ran along the script.
  let start = Date(timeIntervalSince1970: TimeInterval(script.start))
  var now = max(start, try pipeline.state().lastApplied?.at ?? start)
  var loop = try AppLoop(options)
  try loop.run { trigger in
    let drain = try pipeline.wake(trigger, now: now)
    if let lost = drain.lost { throw HelperError("facts were lost: \(lost)") }
    if let reset = drain.reset { throw HelperError("unexpected reset: \(reset)") }
    if trigger == .foreground {
      // The person opens the app and looks at today.
      now = max(now, try pipeline.state().lastApplied?.at ?? now)
      let today = try boundary.day(containing: now)
      _ = try pipeline.dashboard(for: today, now: now)
    }
    return drain.decision.shouldDrain ? drain.applied : nil
  }
}

private func runControlApp(_ options: Options) throws {
  let store = try FileStore(directory: URL(fileURLWithPath: try options.string("dir")))
  let outbox = try SequencedOutbox<UsageRecord>(
    store: store, key: PipelineScript.ControlKeys.outbox, capacity: try options.int("capacity"))
  let consumer = try OutboxConsumer(
    outbox: outbox, store: store, key: PipelineScript.ControlKeys.applied,
    initialState: [UsageRecord]())
  var coordinator = DrainCoordinator()
  var cursor = try consumer.record().cursor
  var head: OutboxHead?
  var loop = try AppLoop(options)
  try loop.run { trigger in
    head = try outbox.head(reusing: head)
    guard coordinator.decide(trigger, head: head?.number, cursor: cursor).shouldDrain else {
      return nil
    }
    // The app sums what was published; it applies each record exactly once.
    let batch = try consumer.drain { records, entry in records.append(entry.payload) }
    if let lost = batch.lost { throw HelperError("records were lost: \(lost)") }
    cursor = batch.cursor
    return batch.entries.count
  }
}

/// The app's wake-ups in a kill test: the notifications that get through, a poll, and now and
/// then the foreground, until it is killed or the done file says the extension has finished.
struct AppLoop {
  let doorbell: String
  let done: String
  let pollInterval: Duration
  var random: SplitMix64

  init(_ options: Options) throws {
    doorbell = try options.string("doorbell")
    done = try options.string("done")
    pollInterval = .milliseconds(Int64(options.values["poll-ms"] ?? "40") ?? 40)
    random = SplitMix64(seed: UInt64(try options.int("app-seed")))
  }

  /// Calls `wake` for each trigger; it returns how many entries it applied, or `nil` when the
  /// coordinator decided not to drain.
  mutating func run(wake: (DrainTrigger) throws -> Int?) throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(120))
    // A relaunched app has missed the notifications sent while it was not running.
    var ringsSeen = try Doorbell.rings(at: doorbell)
    var nextPoll = clock.now.advanced(by: pollInterval)
    // A launch brings the app to the foreground.
    var trigger: DrainTrigger? = .foreground
    while true {
      guard clock.now < deadline else { throw HelperError("the app ran out of time") }
      let rings = try Doorbell.rings(at: doorbell)
      if trigger == nil, rings > ringsSeen {
        let arrived = (ringsSeen..<rings).filter { _ in random.next() % 2 == 0 }.count
        emit("n \(arrived) \(Int(rings - ringsSeen) - arrived)")
        ringsSeen = rings
        if arrived > 0 { trigger = .notification }
      }
      let finishing = FileManager.default.fileExists(atPath: done)
      if trigger == nil, clock.now >= nextPoll || finishing {
        trigger = .poll
        nextPoll = clock.now.advanced(by: pollInterval)
      }
      if trigger == nil, random.next() % 400 == 0 { trigger = .foreground }
      guard let current = trigger else {
        usleep(1_000)
        continue
      }
      trigger = nil
      if let applied = try wake(current) {
        emit("w \(current.rawValue) \(applied)")
      } else if finishing, current == .poll {
        emit("finished")
        return
      }
    }
  }
}

/// The control: the glue of two durable writes that the pipeline's single fact replaces.
struct TwoWriteExtension {
  let script: PipelineScript
  let store: FileStore
  let outbox: SequencedOutbox<UsageRecord>
  let doorbell: Doorbell
  let zone: TimeZone
  let plan: MonitoringPlan
  let accountant: StoreKey<ThresholdAccountant>
  /// The latest `intervalDidStart` of each activity, in seconds since 1970.
  let starts = StoreKey(PipelineScript.ControlKeys.starts, default: [String: Int64]())

  init(_ options: Options) throws {
    script = try PipelineScript(seed: UInt64(try options.int("seed")))
    store = try FileStore(directory: URL(fileURLWithPath: try options.string("dir")))
    outbox = try SequencedOutbox(
      store: store, key: PipelineScript.ControlKeys.outbox, capacity: try options.int("capacity"))
    doorbell = try Doorbell(path: try options.string("doorbell"))
    zone = try TestSupport.zone(PipelineScript.timeZoneIdentifier)
    plan = try PipelineScript.monitoringPlan()
    accountant = StoreKey(
      PipelineScript.ControlKeys.accountant, default: ThresholdAccountant(timeZone: zone))
  }

  func replay(from first: Int) throws {
    for index in first..<script.entries.count {
      let entry = script.entries[index]
      guard case .callback(let callback, let activity, let event) = entry.kind else { continue }
      emit("b \(index)")
      switch callback {
      case .intervalDidStart:
        try store.update(starts) { $0[activity] = entry.second }
      case .eventDidReachThreshold:
        try record(event ?? "", activity: activity, entry: entry, index: index)
      default:
        break
      }
      emit("d \(index)")
    }
    emit("end")
  }

  /// The two writes: the accountant, then the usage it added.
  private func record(_ event: String, activity: String, entry: PipelineScript.Entry, index: Int)
    throws
  {
    let threshold = try ThresholdEvent(
      name: try ThresholdEventName(parsing: event),
      intervalStart: try intervalStart(of: activity, at: entry.at), receivedAt: entry.at)
    let outcome = try store.update(accountant) { $0.record(threshold) }
    if entry.killsControl, case .counted(let added, _) = outcome {
      emit("k \(index) \(added.components.seconds)")
      kill(getpid(), SIGKILL)
    }
    // The second write: what the event added, ending when it was received.
    guard case .counted(let added, _) = outcome else { return }
    let start = max(
      threshold.intervalStart, threshold.receivedAt - TimeInterval(added.components.seconds))
    guard threshold.receivedAt > start else { return }
    let usage = try UsageRecord(
      app: threshold.name.app, start: start, end: threshold.receivedAt, source: .thresholdEvent)
    try outbox.publish(usage) { _ in doorbell.ring() }
  }

  /// The interval an event belongs to, by the pipeline's rule: the plan's occurrence, from the
  /// latest `intervalDidStart` inside it.
  private func intervalStart(of activity: String, at date: Date) throws -> Date {
    let latest = try store.value(for: starts)[activity].map {
      Date(timeIntervalSince1970: TimeInterval($0))
    }
    guard
      case .daily(let window)? = plan.activities.first(where: { $0.name == activity })?.schedule,
      let occurrence = window.occurrence(containing: date, in: zone)
    else {
      guard let latest else { throw HelperError("no interval for \(activity) at \(date)") }
      return latest
    }
    if let latest, latest >= occurrence.start, latest <= date { return latest }
    return occurrence.start
  }
}
