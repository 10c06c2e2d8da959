import AppPipeline
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// A heal whose quarantine moved the damaged file but could not flush the directory
/// (`notDurable`): the file is gone from its key all the same, so the rebuild and its record go
/// on, and the error is reported after them.
@Suite("A quarantine that is not durable still rebuilds and records")
struct StateRecoveryNotDurableTests {
  /// The real file system, but the flush that follows a move aside (`.quarantined.…`), the
  /// directory's in a `FileStore`'s quarantine, fails once with `EIO`.
  final class QuarantineFlushFailure: ForwardingFileSystem {
    let base: any FileSystem = POSIXFileSystem()
    private let state = LockedValue((armed: false, failures: 0, moved: false))

    /// How many flushes failed.
    var failures: Int { state.withLock { $0.failures } }
    /// Whether a file was moved aside.
    var moved: Bool { state.withLock { $0.moved } }

    func rename(_ source: String, to destination: String) throws(SystemCallError) {
      try base.rename(source, to: destination)
      if URL(fileURLWithPath: destination).lastPathComponent.hasPrefix(".quarantined.") {
        state.withLock {
          $0.armed = true
          $0.moved = true
        }
      }
    }

    func synchronize(_ descriptor: Int32) throws(SystemCallError) {
      let fail = state.withLock { state -> Bool in
        guard state.armed else { return false }
        state.armed = false
        state.failures += 1
        return true
      }
      if fail { throw SystemCallError("injected directory fsync", EIO) }
      try base.synchronize(descriptor)
    }
  }

  /// An app's pipeline on `directory` through a file system whose flush after a move aside
  /// fails, and that file system.
  static func pipelineFailingAfterMoves(
    on directory: URL, configuration: PipelineConfiguration
  ) throws -> (UsagePipeline, QuarantineFlushFailure) {
    let fileSystem = QuarantineFlushFailure()
    let store = try FileStore(directory: directory, durability: .durable, fileSystem: fileSystem)
    let pipeline = try UsagePipeline(
      folder: try SharedFolder(
        store: store, heartbeatStore: store.withDurability(.processCrashSafe)),
      configuration: configuration)
    return (pipeline, fileSystem)
  }

  /// Flips the bytes `range` picks in the file of `key`, written anew as a copy is.
  static func damage(_ key: String, in directory: URL, _ range: (Data) throws -> Range<Int>)
    throws
  {
    let url = directory.appendingPathComponent(key)
    var bytes = try Data(contentsOf: url)
    for offset in try range(bytes) { bytes[offset] ^= 0x5A }
    try bytes.write(to: url, options: .atomic)
  }

  /// Two days of use drained, then the first day's log damaged: it is not the day of the last
  /// fact applied, so only a read of that day finds the damage.
  struct Fixture {
    let harness: PipelineHarness
    let key = SharedFolderLayout.standard.appFactsKeyPrefix + "2026-04-15"

    init() throws {
      var harness = try PipelineHarness()
      for day in ["2026-04-15", "2026-04-16"] {
        _ = harness.recorder.intervalDidStart(for: "daily", now: try harness.at("\(day) 00:00"))
        try harness.use("com.example", day: day, from: "08:00", minutes: 10, step: 5)
        try harness.pipeline.wake(.foreground, now: try harness.at("\(day) 09:00"))
      }
      try StateRecoveryNotDurableTests.damage(key, in: harness.directory.url) { bytes in
        try #require(bytes.range(of: Data("intervalDidStart".utf8)))
      }
      self.harness = harness
    }

    /// A pipeline on the folder opened afresh, as a relaunched app opens it.
    func pipeline(on directory: URL? = nil) throws -> UsagePipeline {
      try UsagePipeline(
        folder: try SharedFolder(directory: directory ?? harness.directory.url),
        configuration: harness.pipeline.configuration)
    }

    /// The first day's usage and the recoveries recorded, as a relaunched app finds them.
    func outcome(on directory: URL? = nil) throws -> (usage: Duration, recoveries: [String]) {
      let pipeline = try pipeline(on: directory)
      let usage = try pipeline.dashboard(
        for: try LocalDay(parsing: "2026-04-15"), now: try harness.at("2026-04-16 09:30")
      )
      .usage.total
      return (usage, try pipeline.state().recoveries.map(\.key))
    }
  }

  @Test("a day log moved aside without a flush is rebuilt and recorded, then notDurable thrown")
  func unflushedQuarantineIsRebuiltAndRecorded() throws {
    let fixture = try Fixture()
    // The control, on a copy: the day log moved aside and nothing else — what a quarantine
    // that throws before the rebuild leaves — reads as a day without use, and nothing reports
    // it.
    let copy = try TemporaryDirectory(prefix: "stk-not-durable-control")
    try FileManager.default.removeItem(at: copy.url)
    try FileManager.default.copyItem(at: fixture.harness.directory.url, to: copy.url)
    _ = try FileStore(directory: copy.url).quarantine(fixture.key)
    let control = try fixture.outcome(on: copy.url)
    #expect(control.usage == .zero && control.recoveries.isEmpty)

    let (pipeline, fileSystem) = try Self.pipelineFailingAfterMoves(
      on: fixture.harness.directory.url, configuration: fixture.harness.pipeline.configuration)
    let (day, now) = (
      try LocalDay(parsing: "2026-04-15"), try fixture.harness.at("2026-04-16 09:30")
    )
    let thrown = thrownError { () throws(PipelineError) in
      _ = try pipeline.dashboard(for: day, now: now)
    }
    #expect(fileSystem.failures == 1)
    guard case .notDurable(let key, let keptAt, .ioError)? = thrown?.storeError else {
      Issue.record("expected the quarantine's notDurable, got \(String(describing: thrown))")
      return
    }
    #expect(key == fixture.key)
    #expect(URL(fileURLWithPath: keptAt).lastPathComponent == ".quarantined.\(fixture.key).1")
    #expect(FileManager.default.fileExists(atPath: keptAt), "the error names the kept file")

    let recovery = try #require(try pipeline.state().recoveries.first)
    #expect(recovery.file == .facts && recovery.key == fixture.key && recovery.keptAt == keptAt)
    let outcome = try fixture.outcome()
    #expect(outcome.usage == .seconds(600), "rebuilt from the outbox")
    #expect(outcome.recoveries == [fixture.key], "recorded once")
  }

  /// ``QuarantineFlushFailure``, and after the move every write to the state's file, or to a
  /// new file for it, fails with `ENOSPC`: a quarantine that is not durable, and a record of
  /// its recovery that cannot be written.
  final class QuarantineThenStateWriteFailure: ForwardingFileSystem {
    private let quarantine = QuarantineFlushFailure()
    var base: any FileSystem { quarantine }
    private let state = LockedValue(Set<Int32>())

    func open(_ path: String, mode: OpenMode) throws(SystemCallError) -> Int32 {
      let descriptor = try base.open(path, mode: mode)
      let name = URL(fileURLWithPath: path).lastPathComponent
      let key = SharedFolderLayout.standard.appStateKey
      // The key's file, or a new one for it (`.tmp.<key>.<hex>`; the day logs' keys begin
      // with the state's).
      let temporary = ".tmp.\(key)."
      if name == key
        || (name.hasPrefix(temporary) && !name.dropFirst(temporary.count).contains("."))
      {
        state.withLock { _ = $0.insert(descriptor) }
      }
      return descriptor
    }

    func close(_ descriptor: Int32) throws(SystemCallError) {
      state.withLock { _ = $0.remove(descriptor) }
      try base.close(descriptor)
    }

    func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
      try failingTheState(descriptor)
      try base.writeAll(descriptor, bytes)
    }

    func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
      throws(SystemCallError)
    {
      try failingTheState(descriptor)
      try base.writeAll(descriptor, bytes, at: offset)
    }

    private func failingTheState(_ descriptor: Int32) throws(SystemCallError) {
      let fail = quarantine.moved && state.withLock { $0.contains(descriptor) }
      if fail { throw SystemCallError("injected write", ENOSPC) }
    }
  }

  @Test("a heal whose move is not durable and whose record fails throws the record's failure")
  func unrecordedHealIsNotReportedAsNotDurable() throws {
    let fixture = try Fixture()
    let fileSystem = QuarantineThenStateWriteFailure()
    let store = try FileStore(
      directory: fixture.harness.directory.url, durability: .durable, fileSystem: fileSystem)
    let pipeline = try UsagePipeline(
      folder: try SharedFolder(
        store: store, heartbeatStore: store.withDurability(.processCrashSafe)),
      configuration: fixture.harness.pipeline.configuration)
    let (day, now) = (
      try LocalDay(parsing: "2026-04-15"), try fixture.harness.at("2026-04-16 09:30")
    )
    let thrown = thrownError { () throws(PipelineError) in
      _ = try pipeline.dashboard(for: day, now: now)
    }
    // A `notDurable` says that the heal is in place, which a caller may take as done: not
    // while its recovery is in no state. The state's own failure is thrown instead.
    guard case .io(_, let path, .noSpace)? = thrown?.storeError else {
      Issue.record("expected the state's write failure, got \(String(describing: thrown))")
      return
    }
    #expect(path.contains(SharedFolderLayout.standard.appStateKey))
    #expect(try fixture.pipeline().state().recoveries.isEmpty, "the record was never written")
    let rebuilt = try fixture.outcome()
    #expect(rebuilt.usage == .seconds(600), "the day was rebuilt all the same")
  }

  @Test("a wake whose move of a damaged outbox is not flushed records the ended epoch, then throws")
  func unflushedOutboxQuarantineIsRecordedInTheState() throws {
    let directory = try TemporaryDirectory(prefix: "stk-outbox-not-durable")
    let recorder = MonitorRecorder(
      folder: try SharedFolder(directory: directory.url), timeZone: { .gmt })
    let start = Date(timeIntervalSince1970: 1_776_211_200)
    let published = (1...5).compactMap {
      recorder.intervalDidStart(for: "a\($0)", now: start + Double($0 * 60)).notification
    }
    let epoch = try #require(published.last).epoch
    // The app's first wake ever, on a header every read fails on.
    try Self.damage(SharedFolderLayout.standard.outboxKey, in: directory.url) { _ in 20..<24 }
    let (opened, fileSystem) = try Self.pipelineFailingAfterMoves(
      on: directory.url,
      configuration: PipelineConfiguration(userId: "not-durable", timeZone: .gmt))
    var pipeline = opened
    let now = start + 600
    let thrown = thrownError { () throws(PipelineError) in
      _ = try pipeline.wake(.foreground, now: now)
    }
    #expect(fileSystem.failures == 1)
    guard case .sequence(.notDurable(.movedAside(let recovery), _, _, .ioError))? = thrown else {
      Issue.record("expected the move's notDurable, got \(String(describing: thrown))")
      return
    }
    #expect(recovery.epoch == epoch && recovery.lastNumber == 5)
    // Recorded before the throw: thrown at the move, the wake stopped, and a first wake's
    // state never learnt of the epoch.
    #expect(try pipeline.state().outboxRecoveries == [recovery])
    #expect(
      try pipeline.state().losses.map(\.range) == [SequenceRange(epoch: epoch, values: 1...5)])
  }

  @Test("a wake that moved the outbox aside records the ended epoch before a later failure")
  func endedEpochIsRecordedBeforeALaterFailure() throws {
    let directory = try TemporaryDirectory(prefix: "stk-outbox-then-state")
    let recorder = MonitorRecorder(
      folder: try SharedFolder(directory: directory.url), timeZone: { .gmt })
    let start = Date(timeIntervalSince1970: 1_776_211_200)
    let first = try UsagePipeline(
      folder: try SharedFolder(directory: directory.url),
      configuration: PipelineConfiguration(userId: "not-durable", timeZone: .gmt))
    var warm = first
    #expect(recorder.intervalDidStart(for: "a1", now: start + 60).succeeded)
    try warm.wake(.foreground, now: start + 120)
    let published = (2...4).compactMap {
      recorder.intervalDidStart(for: "a\($0)", now: start + Double($0 * 60)).notification
    }
    let epoch = try #require(published.last).epoch
    // The outbox's header damaged, and then the state's newest version: the wake moves the
    // outbox aside, and its second drain finds the state damaged and heals it — the flush after
    // each move failing.
    try Self.damage(SharedFolderLayout.standard.outboxKey, in: directory.url) { _ in 20..<24 }
    try Self.damage(SharedFolderLayout.standard.appStateKey, in: directory.url) { bytes in
      bytes.count - 6..<bytes.count - 2
    }
    let (opened, fileSystem) = try Self.pipelineFailingAfterMoves(
      on: directory.url, configuration: first.configuration)
    var pipeline = opened
    let thrown = thrownError { () throws(PipelineError) in
      _ = try pipeline.wake(.foreground, now: start + 600)
    }
    #expect(fileSystem.failures == 2, "the outbox's move and the state's")
    guard
      case .notDurable(SharedFolderLayout.standard.appStateKey, _, .ioError)? = thrown?.storeError
    else {
      Issue.record("expected the state heal's notDurable, got \(String(describing: thrown))")
      return
    }
    // Thrown from the second drain, after the ended epoch was recorded in the rebuilt state:
    // the app had a cursor, which the rebuild took, and no later wake would cross the epoch.
    let state = try pipeline.state()
    #expect(state.recoveries.map(\.file) == [.state])
    #expect(state.outboxRecoveries.map(\.epoch) == [epoch])
  }
}
