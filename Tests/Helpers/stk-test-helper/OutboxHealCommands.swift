import AppPipeline
import Foundation
import SequenceTracking
import SignalValues
import TestSupport
import TrackerSignals

// The outbox healing subcommands, for OutboxDamageTests in PipelineKillTests: an extension and an app,
// each a process of its own, on a folder the test damages between them.
//
//   outbox-heal-extension --dir D --from I --count N
//       Records N callbacks (intervalDidStart of activity "a<I>", at I minutes after
//       2026-03-02T00:00:00Z) through a MonitorRecorder on the folder. Prints "n EPOCH VALUE"
//       for each number published, and "f DESCRIPTION" for each failure.
//   outbox-heal-app --dir D --minute M
//       Opens UsagePipeline on the folder, wakes it once (foreground) at minute M, and prints
//       "a APPLIED", "reset DESCRIPTION" when the outbox was reset, then the state: "l EPOCH
//       FIRST LAST" for each loss, "r EPOCH LAST QUARANTINED" for each recovery ("-" when
//       unknown or nothing was moved), and "last EPOCH VALUE" for the last fact applied.

/// Runs an outbox healing subcommand; returns `false` when `name` is not one of them.
func runOutboxHealCommand(_ name: String, _ options: Options) throws -> Bool {
  switch name {
  case "outbox-heal-extension":
    try recordHealingCallbacks(options)
  case "outbox-heal-app":
    try wakeHealingApp(options)
  default:
    return false
  }
  return true
}

/// The instant `minute` minutes after the start of the healing runs.
private func healMinute(_ minute: Int) -> Date {
  Date(timeIntervalSince1970: 1_772_409_600 + TimeInterval(minute * 60))
}

private func recordHealingCallbacks(_ options: Options) throws {
  let utc = try zone("UTC")
  let recorder = MonitorRecorder(
    folder: try SharedFolder(directory: URL(fileURLWithPath: try options.string("dir"))),
    timeZone: { utc })
  let from = try options.int("from")
  for index in from..<from + (try options.int("count")) {
    let response = recorder.intervalDidStart(for: "a\(index)", now: healMinute(index))
    if let number = response.notification { emit("n \(number.epoch) \(number.value)") }
    for failure in response.failures { emit("f \(failure.description)") }
  }
}

private func wakeHealingApp(_ options: Options) throws {
  var pipeline = try UsagePipeline(
    folder: try SharedFolder(directory: URL(fileURLWithPath: try options.string("dir"))),
    configuration: PipelineConfiguration(userId: "heal", timeZone: try zone("UTC")))
  let drain = try pipeline.wake(.foreground, now: healMinute(try options.int("minute")))
  emit("a \(drain.applied)")
  if let reset = drain.reset { emit("reset \(reset)") }
  let state = try pipeline.state()
  for loss in state.losses {
    emit("l \(loss.range.epoch) \(loss.range.values.lowerBound) \(loss.range.values.upperBound)")
  }
  for recovery in state.outboxRecoveries {
    emit(
      "r \(recovery.epoch.map { "\($0)" } ?? "-") \(recovery.lastNumber.map(String.init) ?? "-") "
        + (recovery.quarantinedTo ?? "-"))
  }
  if let last = state.lastApplied { emit("last \(last.number.epoch) \(last.number.value)") }
}
