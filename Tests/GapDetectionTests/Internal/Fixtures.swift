import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
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

/// The epoch of the test losses and sightings.
let testEpoch = SequenceEpoch(rawValue: 0xA1)

/// Numbers `values` of ``testEpoch`` lost between `after` and `before`.
func loss(_ values: ClosedRange<UInt64>, after: Date, before: Date) throws -> SequenceLoss {
  try SequenceLoss(
    range: SequenceRange(epoch: testEpoch, values: values), after: after, before: before)
}

/// Number `value` of `epoch` received at `at`.
func sighting(_ value: UInt64, of epoch: SequenceEpoch = testEpoch, at: Date) throws
  -> SequenceSighting
{
  try SequenceSighting(SequenceNumber(epoch: epoch, value: value), at: at)
}
