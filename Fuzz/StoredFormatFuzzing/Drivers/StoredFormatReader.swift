import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// The reads of a stored format on bytes held in memory: the decoders a file goes through
/// (header, frames, records, payload), without the file system, so that a loop tries ten
/// thousand inputs of a format in one to five seconds of a debug build.
///
/// A value file's header is decoded as `FileStore` decodes it, and its payload then read from an
/// `InMemoryStore` as the format's typed value; a log file's bytes become an `InMemoryStore`'s
/// log, read and appended to through the format's public API. Every call must return or throw
/// one of the library's errors (``StoredFormatProbe/problem(with:)``); what it does to the files
/// is ``StoredFormatHarness``'s part.
struct StoredFormatReader {
  /// The format read.
  let format: StoredFormat
  /// The key its bytes are read as.
  let key: String

  /// Reads `file` as the format.
  ///
  /// - Parameter file: The bytes of a file of the format.
  /// - Returns: Whether the format's main read accepted it.
  /// - Throws: ``StoredFormatViolation`` when a call threw an error that is not the library's.
  func read(_ file: [UInt8]) throws(StoredFormatViolation) -> Bool {
    let store = InMemoryStore()
    if format.isLog {
      store.setLogBytes(Data(file), for: key)
    } else {
      guard case .success(let decoded) = StoreFileFormat.decode(Data(file)) else { return false }
      try call("write", file) { try store.write(decoded.payload, for: key) }
    }
    return try readAsFormat(store, file)
  }

  private func readAsFormat(_ store: InMemoryStore, _ file: [UInt8])
    throws(StoredFormatViolation) -> Bool
  {
    let key = key
    switch format {
    case .valueFile:
      let read = try call("read", file) { try store.read(key) }
      try call("value(for:)", file) {
        try store.value(for: StoreKey(key, default: [String: Int]()))
      }
      return read
    case .logFile:
      let read = try call("readLog", file) { try store.readLog(key) }
      try call("readLog(newest:)", file) { try store.readLog(key, newest: 1) }
      try call("append", file) { try store.append([Data("x".utf8)], toLog: key, capacity: 4) }
      try call("compactLog", file) { try store.compactLog(key) { _ in true } }
      return read
    case .outbox:
      let outbox = try make(file) {
        try SequencedOutbox<MonitorFact>(store: store, key: key, capacity: 4)
      }
      try call("head", file) { try outbox.head() }
      let read = try call("drain", file) { try outbox.drain(after: .start) }
      try call("publish", file) { try outbox.publish(fuzzFacts(1)[0]) { _ in } }
      return read
    case .heartbeats:
      let recorder = try make(file) {
        try HeartbeatRecorder(store: store, source: .monitorExtension, capacity: 8)
      }
      try call("latest", file) { try recorder.latest() }
      let read = try call("history", file) { try recorder.history() }
      try call("record", file) { try recorder.record(at: fuzzNow, sequence: 1, memoryBytes: nil) }
      return read
    case .diagnosticLog:
      let log = try make(file) { try DiagnosticLog(store: store, key: key, capacity: 5) }
      let read = try call("snapshot", file) { try log.snapshot() }
      try call("append", file) {
        try log.append(
          DiagnosticEntry(
            id: UUID(uuid: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), at: fuzzNow,
            eventName: "stk:15m:com.a", action: .recordUsage, success: false,
            errorDescription: "disk full", memoryBytes: nil))
      }
      return read
    case .consumerRecord:
      return try call("value(for:)", file) {
        try store.value(
          for: StoreKey(
            key, default: OutboxConsumerRecord(cursor: .start, state: [String: Int]()),
            storage: OutboxConsumer<MonitorFact, [String: Int]>.recordStorage))
      }
    case .ledger:
      return try call("value(for:)", file) {
        try store.value(for: StoreKey(key, default: RewardLedger(rate: .tenXPPerMinute)))
      }
    case .accountant:
      return try call("value(for:)", file) {
        try store.value(for: StoreKey(key, default: ThresholdAccountant(timeZone: .gmt)))
      }
    case .sequenceTracker:
      return try call("value(for:)", file) {
        try store.value(for: StoreKey(key, default: SequenceTracker()))
      }
    case .pipelineState:
      let pipeline = try make(file) {
        try UsagePipeline(
          folder: SharedFolder(store: store, layout: .standard(outboxCapacity: 64)),
          configuration: PipelineConfiguration(userId: "user-1", timeZone: .gmt))
      }
      return try call("state", file) { try pipeline.state() }
    }
  }

  /// Runs `body`; returns whether it returned, or throws a violation when it threw an error that
  /// is not the library's.
  @discardableResult
  private func call<Value>(_ operation: String, _ file: [UInt8], _ body: () throws -> Value)
    throws(StoredFormatViolation) -> Bool
  {
    do {
      _ = try body()
      return true
    } catch {
      guard let problem = StoredFormatProbe.problem(with: error) else { return false }
      throw StoredFormatViolation(
        format: format.rawValue, operation: operation + " (in memory)", reason: problem,
        file: file)
    }
  }

  /// Makes what the reads run on, from valid constants: it must not fail.
  private func make<Value>(_ file: [UInt8], _ body: () throws -> Value)
    throws(StoredFormatViolation) -> Value
  {
    do {
      return try body()
    } catch {
      throw StoredFormatViolation(
        format: format.rawValue, operation: "setting up", reason: "\(error)", file: file)
    }
  }
}
