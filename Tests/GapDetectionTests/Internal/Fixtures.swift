import Foundation
import GapDetection
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// Heartbeats of `source` every `step` seconds from `start` (inclusive) to `end` (inclusive).
func heartbeats(
  from start: Date, to end: Date, every step: TimeInterval,
  source: HeartbeatSource = .monitorExtension
) throws -> [Heartbeat] {
  var result: [Heartbeat] = []
  var time = start
  while time <= end {
    result.append(try Heartbeat(at: time, source: source))
    time = time.addingTimeInterval(step)
  }
  return result
}

/// The seeded generator of the property tests.
typealias SeededGenerator = SplitMix64
