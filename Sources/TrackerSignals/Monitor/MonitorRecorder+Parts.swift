import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import UsageModel

// The parts of a callback: the heartbeat, the restart advice and the diagnostic entry.
extension MonitorRecorder {

  /// Publishes the facts held while the folder was closed and then `fact`, in one write, and
  /// records the heartbeat with the number published — in one hold of the folder's lock when
  /// there is one (``holdingTheFolder(failures:_:)``).
  ///
  /// On the folder's own stores the heartbeat carries the outbox's high-water mark
  /// (``carriesMark``), so that a callback appends two records, not three — in the folder's
  /// hold only: the mark is read, and the number written, with no other writer in between.
  /// Without the hold, the publish appends the number to the mark log itself, as a publish
  /// that does not carry the mark does.
  ///
  /// - Returns: What was published, and the heartbeat before this one.
  func publishAndRecordHeartbeat(
    _ fact: MonitorFact?, now: Date, memoryBytes: UInt64?, failures: inout [MonitorFailure]
  ) -> (published: MonitorBacklog.Outcome, previous: Heartbeat?) {
    holdingTheFolder(failures: &failures) { (failures: inout [MonitorFailure], held: Bool) in
      let carrying = carriesMark && held
      let published = backlog.publish(
        fact, to: outbox, carryingMark: carrying, diagnostics: diagnostics, now: now,
        failures: &failures)
      let previous = recordHeartbeat(
        now: now, number: published.notification, carrying: carrying, memoryBytes: memoryBytes,
        failures: &failures)
      return (published, previous)
    }
  }

  /// Runs a callback's writes — the fact and the heartbeat, which carries the outbox's mark (or
  /// the mark's own log) — in one hold of the folder's lock when its stores share one
  /// (``folderLock``), so that they cost one `flock` and one check of the lock file instead of
  /// one each.
  ///
  /// Each write still succeeds or fails on its own and reports its own failure. When the lock
  /// cannot be taken (before the first unlock, data protection keeps the lock file closed),
  /// `writes` runs without it, and each write fails or succeeds as it would alone: what cannot
  /// be written is held or reported as before. `writes` is told whether it runs in the hold.
  ///
  /// The backlog's lock for writes is taken first, whichever way they run (see
  /// `MonitorBacklog.writes`).
  func holdingTheFolder<Result>(
    failures: inout [MonitorFailure],
    _ writes: (inout [MonitorFailure], _ held: Bool) -> Result
  ) -> Result {
    backlog.writes.withLock {
      guard let folderLock else { return writes(&failures, false) }
      var collected = failures
      do {
        let result = try folderLock.exclusively { writes(&collected, true) }
        failures = collected
        return result
      } catch {
        return writes(&failures, false)
      }
    }
  }

  /// Records the heartbeat, with `number`, the number just published, as its sequence — and as
  /// the outbox's mark it carries, when `carrying`.
  ///
  /// - Returns: The heartbeat before this one, or `nil`.
  func recordHeartbeat(
    now: Date, number: SequenceNumber?, carrying: Bool, memoryBytes: UInt64?,
    failures: inout [MonitorFailure]
  ) -> Heartbeat? {
    let mark = carrying ? number : nil
    do {
      let heartbeat = try TrackerSignalsError.checking(
        Heartbeat(
          at: now, source: heartbeats.source, sequence: number?.value, memoryBytes: memoryBytes))
      return try heartbeats.recordReturningPrevious(heartbeat, mark: mark).previous
    } catch {
      failures.append(.heartbeat(error))
      // The number was to ride on this heartbeat: the outbox's mark log keeps it instead.
      if let mark { outbox.markHandedOut(through: mark) }
      return nil
    }
  }

  /// The restart advice for `callback` (`nil`: a heartbeat tick) after `previous`.
  func advice(for callback: MonitorCallback?, now: Date, previous: Heartbeat?)
    -> RestartAdvice
  {
    // A threshold and its warning both come while the person uses the event's apps: a restart
    // then would start a new interval counting from zero, and lose the use before it.
    let isUsage = callback?.concernsEvent == true
    let interval = restartPolicy.interval(
      appState: .background, lastEventAt: isUsage ? now : nil, now: now)
    guard !isUsage, let previous else { return RestartAdvice(isDue: false, interval: interval) }
    let silence = Milliseconds.clampedInstant(now) - previous.instant
    return RestartAdvice(isDue: silence > Milliseconds.amount(interval) ?? .max, interval: interval)
  }

  /// Appends one diagnostic entry describing `failures`, when there are any; a failure to log
  /// is added to them.
  func logFailures(
    _ failures: inout [MonitorFailure], callback: MonitorCallback?, activity: String,
    event: String?,
    now: Date, memoryBytes: UInt64?
  ) {
    guard !failures.isEmpty else { return }
    let action: DiagnosticAction
    switch callback {
    case nil: action = .heartbeat
    case .eventDidReachThreshold?: action = .recordUsage
    case .some: action = .recordCallback
    }
    let name = event ?? (callback.map { "\($0.rawValue):\(activity)" } ?? activity)
    let text = failures.map(\.description).joined(separator: " ")
    do {
      // The same failure of the same callback logged twice (a retried callback) is one entry.
      // The entry keeps at most `MonitorFact.maximumNameLength` bytes of the name: a name that
      // was refused for its length must not fill the log (and the extension's memory) instead.
      let entry = try TrackerSignalsError.checking(
        DiagnosticEntry(
          id: DiagnosticEntry.identifier(
            of: [name, text, String(now.timeIntervalSince1970.bitPattern, radix: 16)]),
          at: now, eventName: Self.truncated(name, toBytes: MonitorFact.maximumNameLength),
          action: action, success: false, errorDescription: text,
          memoryBytes: memoryBytes))
      try diagnostics.append(entry)
    } catch {
      failures.append(.diagnostic(error))
    }
  }

  /// `text` cut to at most `limit` UTF-8 bytes on a character boundary, ending in "…" when cut.
  static func truncated(_ text: String, toBytes limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    let ellipsis = "…"
    var result = ""
    var bytes = ellipsis.utf8.count
    for character in text {
      bytes += character.utf8.count
      guard bytes <= limit else { break }
      result.append(character)
    }
    return result + ellipsis
  }
}
