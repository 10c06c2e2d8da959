import Foundation
import SequenceTracking
import SharedStore
import SignalValues

/// The folder an app and its extensions share, opened with one ``SharedFolderLayout``: what the
/// monitor extension records and the app reads, each under the layout's key, capacity and
/// durability.
///
/// Open it in every process with the same layout — the extension's ``MonitorRecorder`` and the
/// app's ``/AppPipeline/UsagePipeline`` (AppPipeline) both take a folder — and they cannot
/// disagree:
///
/// ```swift
/// // In the monitor extension and in the app alike:
/// let folder = try SharedFolder(directory: groupFolder)
/// let recorder = MonitorRecorder(folder: folder)
/// ```
///
/// For tests and SwiftUI previews, ``inMemory(layout:)`` opens the same folder in memory: the
/// recorder and the pipeline work on it unchanged, within one process.
public struct SharedFolder: Sendable {
  /// Where everything lives.
  public let layout: SharedFolderLayout
  /// The store of what must survive a power cut: the facts, the diagnostic log and the app's
  /// state.
  public let store: any SharedStore
  /// The store of the heartbeats, which skips the flushes: a heartbeat lost to a power cut is
  /// replaced seconds later.
  public let heartbeatStore: any SharedStore

  /// The monitor extension's facts, an outbox that heals: its high-water mark is kept without
  /// flushes, beside the heartbeats (see `SequencedOutbox.init(store:key:capacity:markStore:)`).
  ///
  /// Under the standard key (``SharedFolderLayout/standard``'s `outboxKey`), the monitor
  /// extension's heartbeats carry the mark: a ``MonitorRecorder`` made with
  /// ``MonitorRecorder/init(folder:restartPolicy:timeZone:)`` writes the number it handed out
  /// in the heartbeat it records in the same hold of the lock, instead of appending it to the
  /// mark log (<doc:TheHeartbeatHotPath>) — when the folder's stores share one lock, as the
  /// ones ``init(directory:layout:)`` opens do; on stores that do not, or when the lock cannot
  /// be taken, it appends to the mark log. The outbox's mark is the higher of the two, in the
  /// outbox's epoch; a publish through this outbox, or a consumer's
  /// `markHandedOut(through:)`, writes the mark log as for any outbox. An outbox under another
  /// key keeps its mark in its mark log: the heartbeats' key is the same in every layout, and
  /// they carry one outbox's mark.
  public let outbox: SequencedOutbox<MonitorFact>
  /// The extension's diagnostic log.
  public let diagnostics: DiagnosticLog

  /// Opens the folder at `directory`.
  ///
  /// It opens a durable ``/SharedStore/FileStore``, and its sibling without flushes
  /// (`.processCrashSafe`, ``/SharedStore/FileStore/withDurability(_:)``) for the heartbeats
  /// and the outbox's high-water mark. The two share one lock, so that a ``MonitorRecorder``
  /// callback writes the fact and the heartbeat, which carries the mark, in one hold of it.
  ///
  /// Opening reads nothing and writes nothing but the store's lock file; on Apple platforms it
  /// gives the folder the data-protection class the store uses (see
  /// ``/SharedStore/FileStore``), which works before the first unlock too.
  ///
  /// - Parameters:
  ///   - directory: The folder, for example in the app-group container.
  ///   - layout: Where everything lives; ``SharedFolderLayout/standard`` unless you choose
  ///     otherwise.
  /// - Throws: ``TrackerSignalsError/store(_:)`` when a store cannot be opened, and
  ///   ``TrackerSignalsError/invalidValue(field:value:requirement:)`` for an invalid layout.
  public init(directory: URL, layout: SharedFolderLayout = .standard) throws(TrackerSignalsError) {
    try layout.validate()
    let store: FileStore
    do {
      store = try FileStore(directory: directory)
    } catch {
      throw .store(error)
    }
    // The heartbeats and the outbox's mark skip the flushes, on a sibling of the durable store:
    // one lock for both stores, so that a callback writes the fact and the heartbeat (which
    // carries the mark) in one hold of it (`MonitorRecorder`), and the files it appends to are
    // kept open for its next callback.
    let unflushed = store.withDurability(.processCrashSafe)
    try self.init(store: store, heartbeatStore: unflushed, markStore: unflushed, layout: layout)
  }

  /// Opens the folder on stores of your choosing.
  ///
  /// A ``/SharedStore/FileStore`` and its sibling without flushes
  /// (``/SharedStore/FileStore/withDurability(_:)``) as `heartbeatStore` share one lock, as ``init(directory:layout:)`` opens them, so that a
  /// ``MonitorRecorder`` callback makes its writes in one hold of it.
  ///
  /// - Parameters:
  ///   - store: The durable store.
  ///   - heartbeatStore: The heartbeats' store; `store` unless you choose otherwise.
  ///   - layout: Where everything lives; ``SharedFolderLayout/standard`` unless you choose
  ///     otherwise.
  /// - Throws: ``TrackerSignalsError/invalidValue(field:value:requirement:)`` for an invalid
  ///   layout.
  public init(
    store: any SharedStore, heartbeatStore: (any SharedStore)? = nil,
    layout: SharedFolderLayout = .standard
  ) throws(TrackerSignalsError) {
    try self.init(store: store, heartbeatStore: heartbeatStore, markStore: nil, layout: layout)
  }

  /// Opens the folder on stores of your choosing, with the outbox's high-water mark in
  /// `markStore` (`heartbeatStore`, or `store`, when `nil`).
  init(
    store: any SharedStore, heartbeatStore: (any SharedStore)?, markStore: (any SharedStore)?,
    layout: SharedFolderLayout
  ) throws(TrackerSignalsError) {
    try layout.validate()
    do {
      // The outbox's high-water mark goes with the heartbeats, written without a flush: the
      // monitor extension's heartbeat carries it (`MonitorRecorder`), and the mark log holds
      // what other writers put there. The heartbeats' key is the same in every layout, so only
      // the outbox under the standard key has its mark carried: another one in the folder (a
      // second pipeline) keeps it in its mark log, and its recorder's heartbeats carry the
      // standard outbox's mark forward unchanged.
      let carrier = HeartbeatRecorder(
        unchecked: heartbeatStore ?? store, source: .monitorExtension,
        capacity: layout.heartbeatCapacity)
      var carriedMark: (@Sendable () -> SequenceNumber?)?
      if layout.outboxKey == SharedFolderLayout.standard.outboxKey {
        carriedMark = { carrier.carriedMark() }
      }
      outbox = try SequencedOutbox(
        store: store, key: layout.outboxKey, capacity: layout.outboxCapacity,
        markStore: markStore ?? heartbeatStore ?? store, carriedMark: carriedMark)
    } catch {
      throw .invalidValue(
        field: "outboxKey", value: layout.outboxKey, requirement: error.description)
    }
    diagnostics = try DiagnosticLog(
      store: store, key: layout.diagnosticsKey, capacity: layout.diagnosticsCapacity)
    self.store = store
    self.heartbeatStore = heartbeatStore ?? store
    self.layout = layout
  }

  /// A new, empty folder in memory, for tests and SwiftUI previews: an
  /// ``/SharedStore/InMemoryStore`` shared by everything opened through it.
  ///
  /// ```swift
  /// let folder = try SharedFolder.inMemory()
  /// let recorder = MonitorRecorder(folder: folder)
  /// _ = recorder.intervalDidStart(for: "daily", now: start)
  /// ```
  ///
  /// - Parameter layout: Where everything lives; ``SharedFolderLayout/standard`` unless you
  ///   choose otherwise.
  /// - Returns: The folder.
  /// - Throws: ``TrackerSignalsError/invalidValue(field:value:requirement:)`` for an invalid
  ///   layout.
  public static func inMemory(layout: SharedFolderLayout = .standard) throws(TrackerSignalsError)
    -> SharedFolder
  {
    try SharedFolder(store: InMemoryStore(), layout: layout)
  }

  /// Removes the temporary files that writers killed in the middle of a write left in the
  /// folder, when it is on a ``/SharedStore/FileStore``; does nothing otherwise.
  ///
  /// Call it at the app's launch (``init(directory:layout:)`` does not, to keep the extension's
  /// start cheap). A monitor extension is killed often, readers ignore such files, and nothing
  /// else removes them. It is safe at any time, from any process.
  ///
  /// - Returns: The number of files removed.
  /// - Throws: ``TrackerSignalsError/store(_:)`` when the folder cannot be listed or a file
  ///   removed.
  @discardableResult
  public func removeTemporaryFiles() throws(TrackerSignalsError) -> Int {
    var removed = 0
    for case let fileStore as FileStore in [store, heartbeatStore] {
      do {
        removed += try fileStore.removeTemporaryFiles()
      } catch {
        throw .store(error)
      }
    }
    return removed
  }

  /// The heartbeat history of `source`, with the layout's capacity.
  ///
  /// - Parameter source: Whose heartbeats; the monitor extension's unless you choose otherwise.
  /// - Returns: The recorder of its history.
  public func heartbeats(of source: HeartbeatSource = .monitorExtension) -> HeartbeatRecorder {
    // The layout's capacity was validated when the folder was opened.
    HeartbeatRecorder(unchecked: heartbeatStore, source: source, capacity: layout.heartbeatCapacity)
  }
}
