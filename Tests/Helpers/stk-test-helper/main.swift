import Foundation
import SharedStore
import TestSupport

// A helper executable for ScreenTimeKit's multi-process and kill-safety tests. Each subcommand
// does one job against a store directory and prints its results, one per line.
//
//   stk-test-helper increment --dir D --key K --count N [--durability M] [--barrier F]
//   stk-test-helper increment-unlocked --dir D --key K --count N [--barrier F]   (control)
//   stk-test-helper append-log --dir D --key K --capacity C --count N --writer W [--barrier F]
//   stk-test-helper write-loop --dir D --key K --size S [--durability M]
//   stk-test-helper write-in-place-loop --dir D --key K --size S                 (control)
//
// SequenceTrackingCommands.swift, AppendLogCommands.swift, ProbeCommands.swift,
// KillPointCommands.swift, KillStormCommands.swift, HealCommands.swift and
// OutboxHealCommands.swift list the others.

struct Options {
  var values: [String: String] = [:]

  init(_ arguments: ArraySlice<String>) throws {
    var arguments = arguments
    while let name = arguments.popFirst() {
      guard name.hasPrefix("--"), let value = arguments.popFirst() else {
        throw HelperError("expected '--name value' pairs, got '\(name)'")
      }
      values[String(name.dropFirst(2))] = value
    }
  }

  /// Whether `--name` was given.
  func has(_ name: String) -> Bool { values[name] != nil }

  func string(_ name: String) throws -> String {
    guard let value = values[name] else { throw HelperError("missing --\(name)") }
    return value
  }

  func int(_ name: String) throws -> Int {
    guard let value = Int(try string(name)) else { throw HelperError("--\(name) is not a number") }
    return value
  }

  var durability: FileStore.Durability {
    get throws {
      guard let raw = values["durability"] else { return .durable }
      guard let durability = FileStore.Durability(rawValue: raw) else {
        throw HelperError("unknown durability '\(raw)'")
      }
      return durability
    }
  }

  func store() throws -> FileStore {
    try FileStore(directory: URL(fileURLWithPath: try string("dir")), durability: durability)
  }

  /// Waits until the barrier file exists, so that all processes start their loops together.
  func waitForBarrier() throws {
    guard let path = values["barrier"] else { return }
    let deadline = Date().addingTimeInterval(60)
    while !FileManager.default.fileExists(atPath: path) {
      guard Date() < deadline else { throw HelperError("barrier \(path) never appeared") }
      usleep(500)
    }
  }
}

struct HelperError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// One entry of the multi-process log test.
struct LogEntry: Codable, Sendable {
  var writer: Int
  var index: Int
}

func emit(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func run() throws {
  let arguments = CommandLine.arguments
  guard arguments.count >= 2 else { throw HelperError("missing subcommand") }
  let options = try Options(arguments.dropFirst(2))
  switch arguments[1] {
  case "increment":
    let store = try options.store()
    let key = StoreKey(try options.string("key"), default: 0)
    let count = try options.int("count")
    try options.waitForBarrier()
    var handedOut: [Int] = []
    handedOut.reserveCapacity(count)
    for _ in 0..<count {
      handedOut.append(
        try store.update(key) { value -> Int in
          value += 1
          return value
        })
    }
    emit(handedOut.map(String.init).joined(separator: "\n"))

  case "increment-unlocked":
    // The control: a read followed by a separate write, the naive way to increment a sequence.
    let store = try options.store()
    let key = StoreKey(try options.string("key"), default: 0)
    let count = try options.int("count")
    try options.waitForBarrier()
    var handedOut: [Int] = []
    for _ in 0..<count {
      let next = try store.value(for: key) + 1
      try store.set(next, for: key)
      handedOut.append(next)
    }
    emit(handedOut.map(String.init).joined(separator: "\n"))

  case "append-log":
    let log = try BoundedLog<LogEntry>(
      store: try options.store(), key: try options.string("key"),
      capacity: try options.int("capacity"))
    let writer = try options.int("writer")
    let count = try options.int("count")
    try options.waitForBarrier()
    for index in 0..<count {
      try log.append(LogEntry(writer: writer, index: index))
    }

  case "write-loop":
    let store = try options.store()
    let key = try options.string("key")
    let size = try options.int("size")
    var counter: UInt64 = 1
    try store.write(KillPattern.value(counter, size: size), for: key)
    emit("ready")
    while true {
      counter += 1
      try store.write(KillPattern.value(counter, size: size), for: key)
    }

  case "write-in-place-loop":
    // The control: rewrite the file in place, in 4 KiB pieces, as a careless writer would.
    let store = try options.store()
    let key = try options.string("key")
    let size = try options.int("size")
    let path = store.directory.appendingPathComponent(key).path
    func writeInPlace(_ counter: UInt64) throws {
      let file = StoreFileFormat.encode(
        payload: KillPattern.value(counter, size: size), generation: counter)
      guard let handle = FileHandle(forWritingAtPath: path) else {
        throw HelperError("cannot open \(path)")
      }
      try handle.truncate(atOffset: 0)
      var offset = 0
      while offset < file.count {
        let end = min(offset + 4096, file.count)
        try handle.write(contentsOf: file[offset..<end])
        offset = end
      }
      try handle.close()
    }
    // Ready once the first value is written, as write-loop is: a kill then lands in the loop,
    // not in the process's start-up, which on a busy machine can outlast the test's delay.
    var counter: UInt64 = 1
    try writeInPlace(counter)
    emit("ready")
    while true {
      counter += 1
      try writeInPlace(counter)
    }

  default:
    guard
      try runSequenceTrackingCommand(arguments[1], options)
        || runPipelineCommand(arguments[1], options)
        || runAppendLogCommand(arguments[1], options)
        || runProbeCommand(arguments[1], options)
        || runKillPointCommand(arguments[1], options)
        || runKillStormCommand(arguments[1], options)
        || runHealCommand(arguments[1], options)
        || runOutboxHealCommand(arguments[1], options)
    else {
      throw HelperError("unknown subcommand '\(arguments[1])'")
    }
  }
}

do {
  try run()
} catch {
  FileHandle.standardError.write(Data("stk-test-helper: \(error)\n".utf8))
  exit(1)
}
