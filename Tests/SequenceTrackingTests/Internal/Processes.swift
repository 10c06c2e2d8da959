import Foundation
import SharedStore
import TestSupport

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
