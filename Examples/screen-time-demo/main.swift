import Foundation
import ScreenTimeKit

// screen-time-demo: a guided tour of ScreenTimeKit on built-in sample data.
//
//   swift run screen-time-demo [--directory DIR] [--help]
//
// Part one shows the shared store an app and its extensions use; part two runs the whole
// pipeline on a sample day.

let usage = """
  usage: screen-time-demo [--directory DIR] [--svg FILE]

  Runs ScreenTimeKit on built-in sample data and prints what happens.

  options:
    --directory DIR   where to keep the demo's shared store (default: a fresh temporary folder,
                      removed afterwards)
    --svg FILE        also write the sample day's tracking timeline as an SVG image
    --help            show this help
  """

struct DemoError: Error, CustomStringConvertible {
  var description: String
}

/// What the command line asked for.
struct Options {
  var directory: URL?
  var svgPath: String?

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
      case "--svg":
        guard let path = arguments.popFirst() else {
          throw DemoError(description: "--svg needs a file path")
        }
        svgPath = path
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
    "the app polls a change token: \(before.map(String.init(describing:)) ?? "none") -> \(after.map(String.init(describing:)) ?? "none")"
  )
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
    print("a damaged value is an error: \(error)")
    if let kept = try app.quarantine("budget") { print("quarantined to \(kept)") }
  }
}

do {
  let options = try Options(Array(CommandLine.arguments.dropFirst()))
  let requested = options.directory
  let directory =
    requested
    ?? FileManager.default.temporaryDirectory.appendingPathComponent(
      "screen-time-demo-\(UUID().uuidString)", isDirectory: true)
  defer { if requested == nil { try? FileManager.default.removeItem(at: directory) } }
  try sharedStoreTour(in: directory)
  print()
  try Pipeline(
    directory: directory.appendingPathComponent("pipeline", isDirectory: true),
    svgPath: options.svgPath
  ).run()
} catch {
  FileHandle.standardError.write(Data("screen-time-demo: \(error)\n\n\(usage)\n".utf8))
  exit(1)
}
