import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import UsageModel

/// What a `DeviceActivityMonitor` subclass calls from each callback: it records the callback as a
/// fact, records a heartbeat, and says what to do next.
///
/// The extension side of the pipeline. It takes the callback's arguments as plain values and the
/// time as a parameter, runs no accounting, keeps nothing that grows, and never posts or reads
/// anything itself:
///
/// ```swift
/// final class Monitor: DeviceActivityMonitor {
///   // Without its folder the extension can record nothing, not even a diagnostic; the app
///   // sees the missing heartbeats as tracker-down time.
///   let recorder = try? MonitorRecorder(folder: SharedFolder(directory: groupFolder))
///
///   override func eventDidReachThreshold(
///     _ event: DeviceActivityEvent.Name, activity: DeviceActivityName
///   ) {
///     guard let recorder else { return }
///     let response = recorder.eventDidReachThreshold(
///       event.rawValue, activity: activity.rawValue, now: Date(), memoryBytes: residentBytes())
///     if response.notification != nil { postDarwinNotification() }
///     if response.restart.isDue { restartMonitoring() }
///   }
/// }
/// ```
///
/// **Writes.** Each callback makes, in this order:
/// 1. one durable write: the ``/SignalValues/MonitorFact`` appended to the sequenced outbox, which
///    also assigns the number to notify (the only write that matters for usage) — after any
///    facts held while the folder was closed, in the same write — after reading the outbox's
///    high-water mark;
/// 2. one write of the heartbeat (with the fact's number as its sequence), to a store without
///    flushes (`FileStore.Durability.processCrashSafe`): heartbeats are replaced within
///    seconds. On a ``SharedFolder`` whose stores share one lock the heartbeat also carries the
///    outbox's high-water mark, the number just handed out (<doc:TheHeartbeatHotPath>); for a
///    recorder made from parts, an outbox under another key than the standard one, stores that
///    do not share a lock, or a callback that cannot take it, the number is appended to the
///    outbox's mark log instead, without a flush;
/// 3. only when 1 or 2 failed: one durable append of a ``/SignalValues/DiagnosticEntry`` that says
/// what failed.
///
/// On a folder opened with ``SharedFolder/init(directory:layout:)`` — or on stores that share one
/// lock, such as a durable ``/SharedStore/FileStore`` and its
/// ``/SharedStore/FileStore/withDurability(_:)`` sibling without flushes — 1 and 2 are made in
/// one hold of the folder's lock (``/SharedStore/FileStore/exclusively(_:)``): one `flock`
/// for the fact and the heartbeat, and the mark read from the heartbeat file kept open since
/// the previous callback. Each write still fails on its own, and when the lock cannot be taken
/// (before the first unlock) each is tried alone, as on stores that do not share a lock. Do not
/// make a callback inside your own `exclusively` hold or `update` body on the folder's store.
///
/// **Healing.** An outbox that cannot be read (damaged, or written in a newer layout) is moved
/// aside with its bytes kept, and the fact is published in a new epoch
/// (`SequencedOutbox.publishHealing(_:)`): the callback reports
/// ``MonitorFailure/outboxRecovered(_:)`` and logs it, and the next callbacks record as usual —
/// unless the recovery's record or the publish could not be flushed: then it reports the
/// publish's `notDurable` instead (the fact was published; the recovery is in the outbox's
/// recoveries for the app). An
/// outbox that went back (truncated, restored from an older copy) numbers on after the last
/// number handed out, which the outbox's high-water mark keeps in the heartbeats.
///
/// A kill between 1 and 2 costs one heartbeat — the app also counts the fact itself as a sign of
/// life — and a kill before 3 costs one diagnostic line. No kill costs usage: a fact either is in
/// the outbox, whole, or was never written, and a callback that was never written is not one the
/// platform will deliver again (the app sees the silence as a gap).
///
/// **Before the first unlock.** After a restart, data protection keeps the folder's files closed
/// until the person unlocks the device once. A callback then cannot write: its fact is held in
/// memory and published, with its original time and before the newer fact, by the first later
/// callback (or ``heartbeat(now:memoryBytes:)``) that can open the folder; at most
/// ``backlogCapacity`` facts are held. ``MonitorResponse/backlog`` says what is held, and
/// ``MonitorBacklogStatus`` what happens past the bound or when the process ends first. Keep the
/// recorder in a stored property: its copies share the backlog, a recorder made afresh does not.
///
/// **Memory.** The outbox is bounded (``SharedFolderLayout/outboxCapacity`` facts of about 130
/// bytes), the heartbeat history keeps a day, the diagnostic log keeps 100 entries, and all three are
/// append-only logs: a callback appends its records and reads the end of each log, except once
/// every *capacity* appends, when the store compacts a log and holds its kept records in memory.
/// An activity or event name longer than `MonitorFact.maximumNameLength` bytes is refused as a
/// fact, and its diagnostic entry keeps only the first `MonitorFact.maximumNameLength` bytes of
/// it, so a 1 MB name costs no more than a short one.
public struct MonitorRecorder: Sendable {
  /// The outbox the facts are published to.
  public let outbox: SequencedOutbox<MonitorFact>
  /// Where heartbeats are recorded.
  public let heartbeats: HeartbeatRecorder
  /// Where failures are logged.
  public let diagnostics: DiagnosticLog
  /// The policy behind ``MonitorResponse/restart``.
  public let restartPolicy: RestartPolicy
  /// The zone the device is in, asked at each callback and written with its fact.
  public let timeZone: @Sendable () -> TimeZone
  /// The facts held while data protection keeps the folder closed; shared by copies of this
  /// recorder (see ``MonitorBacklogStatus``).
  let backlog = MonitorBacklog(capacity: MonitorRecorder.backlogCapacity)
  /// The store whose lock a callback holds across its writes, when every store it writes is
  /// that store or a sibling of it (`FileStore.withDurability(_:)`); `nil` otherwise, and then
  /// each write takes the lock itself.
  let folderLock: FileStore?
  /// Whether the heartbeat carries the outbox's high-water mark instead of the mark log.
  ///
  /// It does on a recorder made on a ``SharedFolder`` whose outbox reads the mark from these
  /// heartbeats. A callback carries it only in a hold of the folder's lock (``folderLock``), so
  /// that the mark is read and written with no other writer in between.
  let carriesMark: Bool

  /// The most facts a recorder holds in memory while the folder is closed: 64.
  ///
  /// 64 facts take at most about 40 KB (two names of at most
  /// `MonitorFact.maximumNameLength` bytes each), little in an extension's 6 MB, and outlast
  /// any run of callbacks between a restart and the first unlock: a day has a handful of
  /// interval callbacks, and no thresholds are reached before the person unlocks. Past it, the
  /// oldest held fact is dropped and reported (see ``MonitorBacklogStatus``).
  public static let backlogCapacity = 64

  /// Creates a recorder from its parts, for stores of your choosing.
  ///
  /// - Parameters:
  ///   - outbox: The facts' outbox, on a durable store.
  ///   - heartbeats: The heartbeat recorder, usually on a `.processCrashSafe` store.
  ///   - diagnostics: The diagnostic log, on a durable store.
  ///   - restartPolicy: The restart policy; ``RestartPolicy/standard`` unless you choose
  ///     otherwise.
  ///   - timeZone: The zone the device is in, asked at each callback; `TimeZone.current` unless
  ///     you choose otherwise (see ``init(folder:restartPolicy:timeZone:)``).
  public init(
    outbox: SequencedOutbox<MonitorFact>, heartbeats: HeartbeatRecorder,
    diagnostics: DiagnosticLog, restartPolicy: RestartPolicy = .standard,
    timeZone: @escaping @Sendable () -> TimeZone = { TimeZone.current }
  ) {
    self.init(
      outbox: outbox, heartbeats: heartbeats, diagnostics: diagnostics,
      restartPolicy: restartPolicy, timeZone: timeZone, carriesMark: false)
  }

  private init(
    outbox: SequencedOutbox<MonitorFact>, heartbeats: HeartbeatRecorder,
    diagnostics: DiagnosticLog, restartPolicy: RestartPolicy,
    timeZone: @escaping @Sendable () -> TimeZone, carriesMark: Bool
  ) {
    self.carriesMark = carriesMark
    self.outbox = outbox
    self.heartbeats = heartbeats
    self.diagnostics = diagnostics
    self.restartPolicy = restartPolicy
    self.timeZone = timeZone
    folderLock = Self.sharedLock(
      of: outbox.backingStores + [heartbeats.backingStore, diagnostics.backingStore])
  }

  /// The store whose lock covers all of `stores`, or `nil` when one of them is not a
  /// ``/SharedStore/FileStore`` sharing it.
  static func sharedLock(of stores: [any SharedStore]) -> FileStore? {
    let files = stores.compactMap { $0 as? FileStore }
    guard files.count == stores.count, let first = files.first,
      files.allSatisfy({ first.sharesLock(with: $0) })
    else { return nil }
    return first
  }

  /// Creates a recorder on the shared folder, with its layout's keys and capacities.
  ///
  /// ```swift
  /// let recorder = MonitorRecorder(folder: try SharedFolder(directory: groupFolder))
  /// ```
  ///
  /// **The device's zone.** Each fact records the zone the device is in when its callback
  /// runs, because the platform begins a monitoring interval on that zone's wall clock and the
  /// app reads the interval there, even after the person travels. The recorder asks `timeZone`
  /// at each callback; its default, `TimeZone.current`, is the one place the library reads the
  /// process's zone, and it is what an extension wants (it runs in the device's zone). Pass a
  /// constant in tests.
  ///
  /// - Parameters:
  ///   - folder: The folder the app reads, opened with the same layout there.
  ///   - restartPolicy: The restart policy; ``RestartPolicy/standard`` unless you choose
  ///     otherwise.
  ///   - timeZone: The zone the device is in, asked at each callback; `TimeZone.current`
  ///     unless you choose otherwise.
  public init(
    folder: SharedFolder, restartPolicy: RestartPolicy = .standard,
    timeZone: @escaping @Sendable () -> TimeZone = { TimeZone.current }
  ) {
    // The folder's outbox reads its mark from these heartbeats, under the standard key
    // (`SharedFolder.outbox`).
    self.init(
      outbox: folder.outbox, heartbeats: folder.heartbeats(of: .monitorExtension),
      diagnostics: folder.diagnostics, restartPolicy: restartPolicy, timeZone: timeZone,
      carriesMark: folder.outbox.carriesMark)
  }

  // MARK: - Callbacks

  /// Records `intervalDidStart(for:)`.
  ///
  /// - Parameters:
  ///   - activity: The activity's name (`DeviceActivityName.rawValue`).
  ///   - now: When the callback ran.
  ///   - memoryBytes: The extension's resident memory in bytes, if measured.
  /// - Returns: What to do next, and what failed.
  public func intervalDidStart(for activity: String, now: Date, memoryBytes: UInt64? = nil)
    -> MonitorResponse
  {
    record(.intervalDidStart, activity: activity, now: now, memoryBytes: memoryBytes)
  }

  /// Records `intervalDidEnd(for:)`.
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - now: When the callback ran.
  ///   - memoryBytes: The extension's resident memory in bytes, if measured.
  /// - Returns: What to do next, and what failed.
  public func intervalDidEnd(for activity: String, now: Date, memoryBytes: UInt64? = nil)
    -> MonitorResponse
  {
    record(.intervalDidEnd, activity: activity, now: now, memoryBytes: memoryBytes)
  }

  /// Records `eventDidReachThreshold(_:activity:)`.
  ///
  /// - Parameters:
  ///   - event: The event's name (`DeviceActivityEvent.Name.rawValue`).
  ///   - activity: The activity's name.
  ///   - now: When the callback ran.
  ///   - memoryBytes: The extension's resident memory in bytes, if measured.
  /// - Returns: What to do next, and what failed.
  public func eventDidReachThreshold(
    _ event: String, activity: String, now: Date, memoryBytes: UInt64? = nil
  ) -> MonitorResponse {
    record(
      .eventDidReachThreshold, activity: activity, event: event, now: now,
      memoryBytes: memoryBytes)
  }

  /// Records `intervalWillStartWarning(for:)`.
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - now: When the callback ran.
  ///   - memoryBytes: The extension's resident memory in bytes, if measured.
  /// - Returns: What to do next, and what failed.
  public func intervalWillStartWarning(for activity: String, now: Date, memoryBytes: UInt64? = nil)
    -> MonitorResponse
  {
    record(.intervalWillStartWarning, activity: activity, now: now, memoryBytes: memoryBytes)
  }

  /// Records `intervalWillEndWarning(for:)`.
  ///
  /// - Parameters:
  ///   - activity: The activity's name.
  ///   - now: When the callback ran.
  ///   - memoryBytes: The extension's resident memory in bytes, if measured.
  /// - Returns: What to do next, and what failed.
  public func intervalWillEndWarning(for activity: String, now: Date, memoryBytes: UInt64? = nil)
    -> MonitorResponse
  {
    record(.intervalWillEndWarning, activity: activity, now: now, memoryBytes: memoryBytes)
  }

  /// Records `eventWillReachThresholdWarning(_:activity:)`.
  ///
  /// - Parameters:
  ///   - event: The event's name.
  ///   - activity: The activity's name.
  ///   - now: When the callback ran.
  ///   - memoryBytes: The extension's resident memory in bytes, if measured.
  /// - Returns: What to do next, and what failed.
  public func eventWillReachThresholdWarning(
    _ event: String, activity: String, now: Date, memoryBytes: UInt64? = nil
  ) -> MonitorResponse {
    record(
      .eventWillReachThresholdWarning, activity: activity, event: event, now: now,
      memoryBytes: memoryBytes)
  }

  /// Records any callback: the general form of the six methods above.
  ///
  /// - Parameters:
  ///   - callback: Which callback ran.
  ///   - activity: The activity's name.
  ///   - event: The event's name, for the callbacks that concern an event.
  ///   - now: When the callback ran.
  ///   - timeZone: The zone the device is in; the recorder's ``timeZone`` when `nil`.
  ///   - memoryBytes: The extension's resident memory in bytes, if measured.
  /// - Returns: What to do next, and what failed; see the type's discussion for the writes.
  public func record(
    _ callback: MonitorCallback, activity: String, event: String? = nil, now: Date,
    timeZone: TimeZone? = nil, memoryBytes: UInt64? = nil
  ) -> MonitorResponse {
    var failures: [MonitorFailure] = []
    var fact: MonitorFact?
    do {
      fact = try TrackerSignalsError.checking(
        MonitorFact(
          callback, activity: activity, event: event, at: now,
          timeZone: timeZone ?? self.timeZone()))
    } catch {
      failures.append(.invalidFact(error))
    }
    let (published, previous) = publishAndRecordHeartbeat(
      fact, now: now, memoryBytes: memoryBytes, failures: &failures)
    let notification = published.notification
    let restart = advice(for: callback, now: now, previous: previous)
    logFailures(
      &failures, callback: callback, activity: activity, event: event, now: now,
      memoryBytes: memoryBytes)
    return MonitorResponse(
      fact: fact, notification: notification, restart: restart, failures: failures,
      backlog: published.status)
  }

  /// Records a heartbeat without a callback, for an extension woken for another reason.
  ///
  /// Facts held while the folder was closed (see ``MonitorBacklogStatus``) are published first;
  /// the response then has a notification to post.
  ///
  /// - Parameters:
  ///   - now: The current instant.
  ///   - memoryBytes: The extension's resident memory in bytes, if measured.
  /// - Returns: The response: no fact, and a notification only when held facts were published;
  ///   a failure is logged.
  public func heartbeat(now: Date, memoryBytes: UInt64? = nil) -> MonitorResponse {
    var failures: [MonitorFailure] = []
    let (published, previous) = publishAndRecordHeartbeat(
      nil, now: now, memoryBytes: memoryBytes, failures: &failures)
    let restart = advice(for: nil, now: now, previous: previous)
    logFailures(
      &failures, callback: nil, activity: "heartbeat", event: nil, now: now,
      memoryBytes: memoryBytes)
    return MonitorResponse(
      fact: nil, notification: published.notification, restart: restart, failures: failures,
      backlog: published.status)
  }
}
