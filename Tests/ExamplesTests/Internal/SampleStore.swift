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

/// A store folder as a user might send it, made with the library's public API in a fresh
/// temporary folder: `store-tool`'s sample, built by each test rather than committed as binary
/// files.
///
/// On 2026-03-29 (UTC) the monitor extension records an interval start and three threshold
/// events (with their heartbeats) and one more heartbeat; the app drains them at 08:01; then
/// the extension records two more facts that the app has not drained. The diagnostic log holds
/// one success and one failure. Beside the library's keys: a JSON value (`app.settings`) and a
/// log of text records (`app.events`). With `damaged`, `app.profile` has one flipped payload
/// byte. With `leftovers`: a file of a newer format version (`app.cache`), a temporary file a
/// killed writer left (`.tmp.app.settings.5eed`), a quarantined file (`.quarantined.app.old.1`)
/// and a foreign one (`.DS_Store`).
struct SampleStore {
  let directory: TemporaryDirectory
  let store: FileStore
  /// The change token `app.old` had when it was quarantined, with `leftovers`.
  private(set) var quarantinedToken = "-"

  /// The folder's path.
  var path: String { directory.path }

  /// The sample day's instant at `time` (`HH:mm:ss`, UTC).
  static func at(_ time: String) -> Date {
    let formatter = ISO8601DateFormatter()
    guard let date = formatter.date(from: "2026-03-29T\(time)Z") else {
      preconditionFailure("not a time: \(time)")
    }
    return date
  }

  init(damaged: Bool = false, leftovers: Bool = false) throws {
    directory = try TemporaryDirectory(prefix: "stk-store-tool")
    let url = directory.url
    store = try FileStore(directory: url)

    let folder = try SharedFolder(directory: url)
    let recorder = MonitorRecorder(folder: folder, timeZone: { .gmt })
    for response in [
      recorder.intervalDidStart(for: "daily", now: Self.at("07:00:00"), memoryBytes: 3_200_000),
      recorder.eventDidReachThreshold(
        "stk:5m:com.burbn.instagram", activity: "daily", now: Self.at("07:05:00"),
        memoryBytes: 3_400_000),
      recorder.heartbeat(now: Self.at("07:06:00"), memoryBytes: 3_100_000),
      recorder.eventDidReachThreshold(
        "stk:10m:com.burbn.instagram", activity: "daily", now: Self.at("07:10:00"),
        memoryBytes: 3_400_000),
      recorder.eventDidReachThreshold(
        "stk:5m:com.duolingo", activity: "daily", now: Self.at("07:55:30"),
        memoryBytes: 3_500_000),
    ] where !response.succeeded {
      throw SampleError(description: "recording failed: \(response.failures)")
    }
    guard let utc = TimeZone(identifier: "UTC") else { throw SampleError(description: "no UTC") }
    var pipeline = try UsagePipeline(
      folder: folder, configuration: PipelineConfiguration(userId: "sample", timeZone: utc))
    _ = try pipeline.wake(.notification, now: Self.at("08:01:00"))
    for response in [
      recorder.eventDidReachThreshold(
        "stk:10m:com.duolingo", activity: "daily", now: Self.at("08:10:00"),
        memoryBytes: 3_600_000),
      recorder.intervalDidEnd(for: "daily", now: Self.at("08:30:00"), memoryBytes: 3_300_000),
    ] where !response.succeeded {
      throw SampleError(description: "recording failed: \(response.failures)")
    }

    let diagnostics = folder.diagnostics
    try diagnostics.append(
      DiagnosticEntry(
        id: UUID(uuid: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
        at: Self.at("07:05:00"), eventName: "stk:5m:com.burbn.instagram",
        action: .postNotification, success: true, memoryBytes: 3_400_000))
    try diagnostics.append(
      DiagnosticEntry(
        id: UUID(uuid: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)),
        at: Self.at("07:40:00"), eventName: "stk:15m:com.burbn.instagram",
        action: .recordUsage, success: false, errorDescription: "no space left on device",
        memoryBytes: 5_800_000))

    try store.write(Data(#"{"theme":"dark","dailyGoalMinutes":30}"#.utf8), for: "app.settings")
    for event in ["opened", "paywall shown"] {
      try store.append([Data(event.utf8)], toLog: "app.events", capacity: 50)
    }

    if damaged {
      try store.write(Data(#"{"name":"Sam","age":12}"#.utf8), for: "app.profile")
      try flipByte(at: 40, of: "app.profile")
    }
    if leftovers {
      // A value written by a future format version 2: magic, version, its complement, and bytes
      // this version cannot interpret.
      var future = Data("STKS".utf8) + [0x02, 0x00, 0xFD, 0xFF]
      future += Data(repeating: 0xA5, count: 40)
      try future.write(to: url.appendingPathComponent("app.cache"))
      // A writer killed after writing 20 bytes of a new app.settings.
      let settings = try Data(contentsOf: url.appendingPathComponent("app.settings"))
      try settings.prefix(20).write(to: url.appendingPathComponent(".tmp.app.settings.5eed"))
      try store.write(Data("stale".utf8), for: "app.old")
      quarantinedToken = try token("app.old")
      _ = try store.quarantine("app.old")
      try Data(count: 6).write(to: url.appendingPathComponent(".DS_Store"))
    }
  }

  /// Flips the low bit of one byte of `key`'s file, as a bad sector or a stray write would.
  func flipByte(at offset: Int, of key: String) throws {
    let url = directory.url.appendingPathComponent(key)
    var bytes = try Data(contentsOf: url)
    bytes[offset] ^= 0x01
    try bytes.write(to: url)
  }

  /// The size of a file of the folder, in bytes.
  func size(of name: String) throws -> Int {
    try Data(contentsOf: directory.url.appendingPathComponent(name)).count
  }

  /// The change token of `key`, as `list` prints it.
  func token(_ key: String) throws -> String {
    try store.changeToken(for: key)?.description ?? "-"
  }
}

/// The sample could not be made.
struct SampleError: Error, CustomStringConvertible {
  var description: String
}
