import Foundation
import ScreenTimeKit

// screen-time-demo: a guided tour of ScreenTimeKit on built-in sample data.
//
//   swift run screen-time-demo [--directory DIR] [--out DIR] [--help]
//
// Part one shows the shared store an app and its extensions use; part two runs the whole
// pipeline on a sample week: the monitor extension records what the platform tells it, most
// notifications are lost, and the app derives its dashboard anyway; then the extension decides
// the day's shields from what the app records.

let usage = """
  usage: screen-time-demo [--directory DIR] [--out DIR]

  Runs ScreenTimeKit on built-in sample data and prints what happens; the output is the same on
  every run.

  options:
    --directory DIR   where to keep the demo's shared store (default: a fresh temporary folder,
                      removed afterwards)
    --out DIR         also write the sample day's dashboard as JSON (dashboard.json) and its
                      tracking timeline as an SVG image (day.svg) into DIR
    --help            show this help

  example:
    swift run screen-time-demo --out /tmp/demo

  exit status: 0 on success, 1 on bad arguments or a failure (one line on stderr)
  """

struct DemoError: Error, CustomStringConvertible {
  var description: String
}

/// What the command line asked for.
struct Options {
  var directory: URL?
  var output: URL?

  init(_ arguments: [String]) throws {
    var arguments = arguments[...]
    while let argument = arguments.popFirst() {
      switch argument {
      case "--help", "-h":
        print(usage)
        exit(0)
      case "--directory":
        guard let path = arguments.popFirst() else {
          throw DemoError(description: "--directory needs a path")
        }
        directory = URL(fileURLWithPath: path, isDirectory: true)
      case "--out":
        guard let path = arguments.popFirst() else {
          throw DemoError(description: "--out needs a directory")
        }
        output = URL(fileURLWithPath: path, isDirectory: true)
      default:
        throw DemoError(description: "unknown argument '\(argument)'")
      }
    }
  }
}

/// One line of the extension's diagnostics log.
struct DiagnosticLine: Codable, Sendable {
  var process: String
  var message: String
}

func sharedStoreTour(in directory: URL) throws {
  print("== SharedStore: one folder, several processes ==")
  // The app and its monitor extension each open their own FileStore on the app-group folder.
  let app = try FileStore(directory: directory)
  let monitorExtension = try FileStore(directory: directory, durability: .processCrashSafe)

  let sequence = StoreKey("notification-sequence", default: 0)
  let log = try BoundedLog<DiagnosticLine>(store: monitorExtension, key: "diagnostics", capacity: 3)

  let before = try app.changeToken(for: sequence.name)
  for _ in 1...4 {
    // Each increment is one atomic read-modify-write, exclusive across processes.
    let number = try monitorExtension.update(sequence) { value -> Int in
      value += 1
      return value
    }
    try log.append(DiagnosticLine(process: "extension", message: "posted notification #\(number)"))
  }
  let after = try app.changeToken(for: sequence.name)
  print(
    "the app polls a change token: \(before == nil ? "no value yet" : "a value"), then "
      + "\(after == before ? "unchanged" : "a new token: the extension wrote")")
  print("the app reads the sequence: \(try app.value(for: sequence))")
  let snapshot = try log.snapshot()
  print(
    "the diagnostics log keeps the newest \(log.capacity) lines (\(snapshot.evictedCount) evicted):"
  )
  for line in snapshot.entries { print("  [\(line.process)] \(line.message)") }

  // A damaged file is reported, never read as a default, and can be quarantined explicitly.
  try Data("{ torn".utf8).write(to: directory.appendingPathComponent("budget"))
  do {
    _ = try app.value(for: StoreKey("budget", default: 60))
  } catch {
    print("a damaged value is an error, never a default: \(error.reason)")
    if let kept = try app.quarantine("budget") {
      print("quarantined, bytes kept, as \(URL(fileURLWithPath: kept).lastPathComponent)")
    }
  }
}

extension SharedStoreError {
  /// Why a value was refused, without the machine's paths.
  var reason: String {
    if case .corrupted(_, _, let reason) = self { return reason }
    return description
  }
}

func pipelineTour(in directory: URL, output: URL?) throws {
  let sample = try SampleDay()
  // One folder, opened as the extension and the app each open it. The sample's device is in
  // the sample's zone (an extension on a phone leaves the recorder's default, the device's).
  let folder = try SharedFolder(directory: directory)
  let zone = sample.timeZone
  let monitor = try Monitor(
    sample: sample, recorder: MonitorRecorder(folder: folder, timeZone: { zone }))
  var app = App(
    sample: sample,
    pipeline: try UsagePipeline(folder: folder, configuration: try sample.configuration()))

  print("== 0. The plan: what to monitor, within the platform's limits ==")
  let armed = try sample.plan()
  for activity in armed.plan.activities {
    print(
      "  \(activity.name.padded(20)) generation \(activity.generation), "
        + "\(activity.events.count) events")
  }
  let resolutions = armed.plan.resolutions.sorted { $0.key.rawValue < $1.key.rawValue }
  print(
    "  each app's resolution: "
      + resolutions.map { "\($0.key) \(format($0.value))" }.joined(separator: ", "))
  print(
    "  trade-offs: \(armed.plan.tradeOffs.isEmpty ? "none" : "\(armed.plan.tradeOffs)"); "
      + "left out: \(armed.plan.omissions.isEmpty ? "nothing" : "\(armed.plan.omissions)")\n")

  print("== 1. The monitor extension records what it is told; Darwin notifications get lost ==")
  var tally = Monitor.Tally()
  var drains = 0
  var nextPoll = try sample.instant(TimeOfDay(hour: 9), on: sample.day)
  let evening = try sample.instant(sample.evening, on: sample.day)
  for call in try monitor.calls() {
    while call.at >= nextPoll, nextPoll < evening {  // the app's poll, while it is awake
      if try app.wake(.poll, at: nextPoll) { drains += 1 }
      nextPoll = nextPoll.addingTimeInterval(3 * 3600)
    }
    if try monitor.handle(call, tally: &tally), try app.wake(.notification, at: call.at) {
      drains += 1
    }
  }
  if try app.wake(.foreground, at: evening) { drains += 1 }  // opened in the evening
  let statistics = app.pipeline.coordinator.statistics
  let facts = try app.pipeline.facts()
  print(
    """
    callbacks recorded:   \(tally.callbacks), each one fact in one durable write, then a heartbeat
    heartbeats on Sunday: \(tally.heartbeats), one a minute from 07:00, none while the extension was dead
    notifications lost:   \(tally.lost) of \(tally.posted)
    app drains:           \(drains), \(statistics.pollsThatFoundWork) of them from a poll that found facts no notification had announced
    facts the app holds:  \(facts.count), each applied exactly once — nothing lost
    """)
  try app.show(at: evening, output: output)
  print()
  try shieldTour(in: directory, sample: sample)
}

do {
  let options = try Options(Array(CommandLine.arguments.dropFirst()))
  let requested = options.directory
  let directory =
    requested
    ?? FileManager.default.temporaryDirectory.appendingPathComponent(
      "screen-time-demo-\(UUID().uuidString)", isDirectory: true)
  defer {
    if requested == nil {
      do {
        try FileManager.default.removeItem(at: directory)
      } catch {
        FileHandle.standardError.write(Data("could not remove \(directory.path): \(error)\n".utf8))
      }
    }
  }
  try sharedStoreTour(in: directory)
  print()
  try pipelineTour(
    in: directory.appendingPathComponent("pipeline", isDirectory: true), output: options.output)
} catch {
  FileHandle.standardError.write(Data("screen-time-demo: \(error)\n".utf8))
  exit(1)
}
