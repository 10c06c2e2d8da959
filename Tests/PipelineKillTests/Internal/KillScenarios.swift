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

/// The two scenarios of the kill test, each run through the ``KillHarness`` and judged against
/// the ``ReferenceUsage`` of what was durably recorded.
enum KillScenarios {
  /// What the pipeline's scenario found.
  struct PipelineOutcome {
    var run: KillHarness.Run
    /// Callbacks in the script.
    var callbacks = 0
    /// Callbacks the helper said it recorded.
    var completedCallbacks = 0
    /// Callbacks whose fact was durably written: completed, or killed in flight after writing.
    var durable = 0
    /// Callbacks killed in flight whose fact was written nevertheless.
    var writtenInFlight = 0
    /// Callbacks whose fact a locked device held, then published at a later callback.
    var heldWritten = 0
    /// Callbacks whose held fact the process took with it when it was killed.
    var heldLost = 0
    /// Facts in the app's state after the final drain.
    var factsApplied = 0
    /// What the app's derivation made of the threshold events it holds.
    var thresholds = ThresholdCounts()
    /// The tracker-down gap of the dead stretch's day that contains it.
    var deadStretchGap: DateInterval?
    /// Days and apps whose totals differ from the reference.
    var mismatches: [String] = []
    /// Everything else that must not happen: a lost, extra or twice-applied fact, an evicted
    /// one, a dead stretch not reported as tracker-down.
    var problems: [String] = []

    var summary: String {
      "pipeline: extension kills=\(run.extensionKills) (in flight \(run.inFlight.count), "
        + "fact written anyway \(writtenInFlight)) launches=\(run.extensionLaunches); "
        + "app kills=\(run.appKills) launches=\(run.appLaunches); callbacks completed="
        + "\(completedCallbacks)/\(callbacks) durable=\(durable); locked launches="
        + "\(run.lockedLaunches) (held facts written \(heldWritten), lost \(heldLost)); facts applied="
        + "\(factsApplied) (thresholds counted \(thresholds.counted), duplicate "
        + "\(thresholds.duplicates), superseded \(thresholds.superseded), implausible "
        + "\(thresholds.implausible)); notifications dropped=\(run.notificationsDropped)/"
        + "\(run.notificationsDropped + run.notificationsArrived); drains="
        + "\(run.drains.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","))"
        + "; mismatches=\(mismatches.count) problems=\(problems.count); "
        + String(format: "%.1f s", run.seconds)
    }
  }

  /// What the control's scenario found.
  struct ControlOutcome {
    var run: KillHarness.Run
    /// The seconds of use the self-killed callbacks had counted and never published.
    var lostSeconds: Int64 = 0
    /// The reference's total minus the control's, over all days and apps.
    var shortfallSeconds: Int64 = 0
    /// Days and apps whose totals differ from the reference: the loss, as the test sees it.
    var mismatches: [String] = []
    /// A shortfall that is not exactly what the self-kills lost, or an app that applied a
    /// record twice.
    var problems: [String] = []

    var summary: String {
      "control: self-kills between writes=\(run.selfKills.count) losing \(lostSeconds) s; "
        + "app kills=\(run.appKills) launches=\(run.appLaunches); detected shortfall="
        + "\(shortfallSeconds) s in \(mismatches.count) day-app totals; problems="
        + "\(problems.count); " + String(format: "%.1f s", run.seconds)
    }
  }

  /// The app's settings for the script, as the helper's app has them.
  static func configuration() throws -> PipelineConfiguration {
    var configuration = PipelineConfiguration(
      userId: "kill-test", timeZone: try zone(PipelineScript.timeZoneIdentifier))
    configuration.monitoring = try PipelineScript.monitoringPlan()
    return configuration
  }

  /// The fact a callback entry writes: the device is in the script's zone.
  static func fact(_ entry: PipelineScript.Entry) throws -> MonitorFact? {
    guard case .callback(let callback, let activity, let event) = entry.kind else { return nil }
    return try MonitorFact(
      callback, activity: activity, event: event, at: entry.at,
      timeZone: try zone(PipelineScript.timeZoneIdentifier))
  }

  // MARK: - The pipeline

  /// Runs the library's pipeline under `kills` SIGKILLs of the extension and judges it; with
  /// `locking`, a relaunched extension may find the device locked for a stretch, and hold its
  /// facts in memory until it unlocks.
  static func pipeline(_ script: PipelineScript, kills: Int, locking: Bool = false, seed: UInt64)
    throws -> PipelineOutcome
  {
    var harness = try KillHarness(
      .pipeline, script: script, extensionKills: kills, locking: locking, seed: seed)
    var outcome = PipelineOutcome(run: try harness.run())
    outcome.callbacks = script.callbackCount
    outcome.completedCallbacks = outcome.run.completed.count { script.entries[$0].isCallback }
    let store = try FileStore(directory: harness.store)
    let outbox = try SequencedOutbox<MonitorFact>(
      store: store, key: SharedFolderLayout.standard.outboxKey, capacity: harness.capacity)

    // What the outbox holds: read directly, every fact since the first.
    let head = try outbox.head()
    let published = try outbox.drain(after: .start)
    if published.lost != nil || (head.map { $0.oldest != 1 } ?? false) {
      outcome.problems.append("facts were evicted from the outbox: \(String(describing: head))")
    }
    let written = Set(published.entries.map(\.payload))
    if written.count != published.entries.count {
      outcome.problems.append("the outbox holds a fact twice")
    }

    // What was durably recorded: every callback completed, and those killed in flight whose
    // fact is in the outbox; a fact a locked device held is in it once a later entry of the
    // same process ran unlocked, and otherwise went with the killed process, unannounced (as
    // `MonitorBacklogStatus` documents).
    var durable: [Int] = []
    var expected: Set<MonitorFact> = []
    for index in outcome.run.completed.union(outcome.run.inFlight).sorted() {
      guard let fact = try fact(script.entries[index]) else { continue }
      let completed = outcome.run.completed.contains(index)
      let held = outcome.run.held.contains(index)
      if written.contains(fact) {
        durable.append(index)
        expected.insert(fact)
        if !completed { outcome.writtenInFlight += 1 }
        if held { outcome.heldWritten += 1 }
      } else if outcome.run.heldAndPublished.contains(index) {
        outcome.problems.append("entry \(index) was held, and not published after the unlock")
      } else if held {
        outcome.heldLost += 1
      } else if completed {
        outcome.problems.append("entry \(index) was recorded but its fact is not in the outbox")
      }
    }
    outcome.durable = durable.count
    if written != expected {
      outcome.problems.append(
        "the outbox holds \(written.subtracting(expected).count) facts of no callback recorded")
    }

    // The app's last launch and final drain, then its state: every durable fact, applied once.
    // Each launch, the helper's too while the extension was writing, reclaims the files of
    // writers killed mid-write.
    let configuration = try configuration()
    var pipeline = try UsagePipeline(
      folder: try SharedFolder(directory: harness.store), configuration: configuration)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.store.path)
      .filter { $0.hasPrefix(".tmp.") }
    if !leftovers.isEmpty {
      outcome.problems.append("temporary files left after the app's launch: \(leftovers)")
    }
    let end = Date(timeIntervalSince1970: TimeInterval(script.end))
    try pipeline.wake(.foreground, now: end)
    let state = try pipeline.state()
    let facts = try pipeline.facts()
    outcome.factsApplied = facts.count
    outcome.problems += checkApplied(
      state, facts: facts, expected: expected, published: published.entries.count)
    if try pipeline.consumer.record().cursor.last != head?.number {
      outcome.problems.append("the final drain did not reach the outbox's head")
    }

    // Each day's totals against the reference, and the dead stretch in a tracker-down gap.
    let reference = try ReferenceUsage(durable.map { script.entries[$0] }, of: script)
    let boundary = DayBoundary(timeZone: configuration.timeZone)
    var actual: [LocalDay: [String: Int64]] = [:]
    var device: [LocalDay: Int64] = [:]
    for day in script.days {
      let dashboard = try pipeline.dashboard(for: day, now: end)
      device[day] = dashboard.usage.total.components.seconds
      for usage in dashboard.usage.apps {
        let (seconds, attoseconds) = usage.total.components
        if attoseconds != 0 { outcome.problems.append("\(day) \(usage.app): \(usage.total)") }
        actual[day, default: [:]][usage.app.rawValue] = seconds
      }
      let dead = script.deadStretch
      let deadDay = try boundary.day(
        containing: Date(timeIntervalSince1970: TimeInterval(dead.lowerBound)))
      outcome.thresholds = dashboard.facts.thresholds
      let covering = dashboard.gaps.gaps(.trackerDown).first {
        $0.start.timeIntervalSince1970 <= TimeInterval(dead.lowerBound)
          && $0.end.timeIntervalSince1970 >= TimeInterval(dead.upperBound)
      }
      if day == deadDay { outcome.deadStretchGap = covering?.interval }
      if day == deadDay, covering == nil {
        outcome.problems.append(
          "the dead stretch is in no tracker-down gap of \(day): "
            + "\(dashboard.gaps.gaps(.trackerDown).map(\.interval))")
      }
    }
    outcome.mismatches = reference.mismatches(actual, device: device)
    return outcome
  }

  /// What is wrong with the facts the app applied.
  private static func checkApplied(
    _ state: PipelineState, facts: [MonitorFact], expected: Set<MonitorFact>, published: Int
  ) -> [String] {
    var problems: [String] = []
    let applied = Set(facts)
    if applied != expected {
      problems.append(
        "the state lacks \(expected.subtracting(applied).count) durable facts and holds "
          + "\(applied.subtracting(expected).count) others")
    }
    if facts.count != expected.count {
      problems.append("\(facts.count) facts in the state, \(expected.count) durable")
    }
    let statistics = state.sequence.statistics
    if statistics.received != UInt64(published) || statistics.duplicates != 0
      || statistics.missed != 0
    {
      problems.append("numbers applied: \(statistics) for \(published) published facts")
    }
    if !state.losses.isEmpty { problems.append("losses: \(state.losses)") }
    return problems
  }

  // MARK: - The control

  /// Runs the control's two-write glue and measures what its self-kills lost.
  static func control(_ script: PipelineScript, seed: UInt64) throws -> ControlOutcome {
    var harness = try KillHarness(.control, script: script, extensionKills: 0, seed: seed)
    var outcome = ControlOutcome(run: try harness.run())
    let store = try FileStore(directory: harness.store)
    let outbox = try SequencedOutbox<UsageRecord>(
      store: store, key: PipelineScript.ControlKeys.outbox, capacity: harness.capacity)
    let consumer = try OutboxConsumer(
      outbox: outbox, store: store, key: PipelineScript.ControlKeys.applied,
      initialState: [UsageRecord]())
    try consumer.drain { records, entry in records.append(entry.payload) }
    let records = try consumer.record().state
    let publishedCount = try outbox.drain(after: .start).entries.count
    if records.count != publishedCount {
      outcome.problems.append("the app applied \(records.count) of \(publishedCount) records")
    }

    // The app's totals: the union of the published records per day and app.
    let boundary = DayBoundary(timeZone: try zone(PipelineScript.timeZoneIdentifier))
    guard let first = script.days.first, let last = script.days.last else { return outcome }
    let report = UsageAggregator(boundary: boundary).aggregate(records, over: first...last)
    var actual: [LocalDay: [String: Int64]] = [:]
    var device: [LocalDay: Int64] = [:]
    for day in report.days {
      device[day.day] = day.total.components.seconds
      for usage in day.apps {
        actual[day.day, default: [:]][usage.app.rawValue] = usage.total.components.seconds
      }
    }
    // Every callback was recorded by its first write (nothing else kills the control).
    let reference = try ReferenceUsage(script.entries, of: script)
    outcome.mismatches = reference.mismatches(actual, device: device)

    // The shortfall must be exactly what the self-killed callbacks counted and never published.
    var lost: [LocalDay: [String: Int64]] = [:]
    for (index, seconds) in outcome.run.selfKills {
      let entry = script.entries[index]
      guard case .callback(_, _, let event?) = entry.kind else { continue }
      let day = try boundary.day(containing: entry.at)
      lost[day, default: [:]][try ReferenceUsage.parse(event).1, default: 0] += seconds
      outcome.lostSeconds += seconds
    }
    for day in script.days {
      for app in PipelineScript.apps {
        let expected = reference.totals[day]?[app] ?? 0
        let got = actual[day]?[app] ?? 0
        outcome.shortfallSeconds += expected - got
        if expected - got != lost[day]?[app] ?? 0 {
          outcome.problems.append(
            "\(day) \(app): the control fell short by \(expected - got) s, its self-kills lost "
              + "\(lost[day]?[app] ?? 0) s")
        }
      }
    }
    return outcome
  }
}
