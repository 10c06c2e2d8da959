import Foundation
import SharedStore
import TestSupport

/// Runs helper processes that wait at a barrier, releases them together, and returns each one's
/// output lines in argument order.
///
/// `invocations` must pass `--barrier` with `barrier`'s path; the file is created once every
/// process has started, so that their loops overlap as much as possible.
func runTogether(_ invocations: [[String]], barrier: URL) throws -> [[String]] {
  let started = try invocations.map { try HelperProcess.start($0) }
  let outputs = LockedValue([Data](repeating: Data(), count: started.count))
  let group = DispatchGroup()
  for (index, (_, handle)) in started.enumerated() {
    DispatchQueue.global().async(group: group) {
      let data = handle.readDataToEndOfFile()
      outputs.withLock { $0[index] = data }
    }
  }
  guard FileManager.default.createFile(atPath: barrier.path, contents: Data()) else {
    for (process, _) in started { HelperProcess.kill(process) }
    throw ProcessFailure("cannot create the barrier \(barrier.path)")
  }
  group.wait()
  for (index, (process, _)) in started.enumerated() {
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw ProcessFailure(
        "stk-test-helper \(invocations[index].joined(separator: " ")) ended with "
          + "status \(process.terminationStatus)")
    }
  }
  return outputs.withLock { $0 }.map {
    String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init)
  }
}

/// Parses the helper's "value epoch" lines.
func numbers(in lines: [String]) throws -> [SequenceNumberLine] {
  try lines.map { line in
    let parts = line.split(separator: " ")
    guard parts.count == 2, let value = UInt64(parts[0]) else {
      throw ProcessFailure("unexpected helper line '\(line)'")
    }
    return SequenceNumberLine(value: value, epoch: String(parts[1]))
  }
}

/// One number a helper handed out, as it printed it.
struct SequenceNumberLine: Hashable {
  var value: UInt64
  var epoch: String
}

/// A helper process that failed, or printed what the test did not expect.
struct ProcessFailure: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
