import Foundation
import SignalValues
import UsageModel

extension DiagnosticsReport {
  /// The report as plain text, in titled sections, as a user exports it for support.
  ///
  /// Times are wall-clock times in the report's time zone; ages are relative ("45s ago",
  /// "3m ago", "2h ago"); durations are exact to the second. Strings from outside — the title,
  /// error descriptions — stay on their line: their line breaks and other control characters
  /// are shown as escapes (`\n`), so that they cannot forge lines of the report (the JSON form
  /// keeps them as they are).
  ///
  /// ```text
  /// Tracking Diagnostics
  /// Generated: 2026-03-08 10:21:00 (Europe/Paris, UTC+01:00)
  ///
  /// === EXTENSION HEALTH ===
  /// Status: Healthy
  /// Last Heartbeat: 30s ago
  /// Memory Usage: 3.2 MB (normal)
  ///
  /// === TRACKING ON 2026-03-08 ===
  /// Expected: 10h 21m · Tracked: 6m 00s · Idle: 10h 00m · Unknown: 15m 00s
  ///
  /// === DATA GAPS ===
  /// 15m 00s gap: 10:03 - 10:18 (tracker down: heartbeat silence, usage silence)
  ///
  /// === ERROR LOG ===
  /// No errors recorded
  /// ```
  public var text: String {
    let clock = LocalClock(timeZone: boundary.timeZone)
    let generated = TimeValues.clampedInstant(generatedAt)
    var lines = [
      ReadableText.singleLine(title),
      "Generated: \(clock.dateTime(generated)) (\(boundary.timeZone.identifier), "
        + "\(clock.offsetText(at: generated)))",
      "",
      "=== EXTENSION HEALTH ===",
    ]
    lines.append("Status: " + statusText)
    if let latest = health.latest {
      lines.append("Last Heartbeat: " + ReadableText.relative(generated - latest.instant))
    } else {
      lines.append("Last Heartbeat: never")
    }
    if let bytes = health.latest?.memoryBytes, let level = health.memoryLevel {
      lines.append("Memory Usage: \(ReadableText.megabytes(bytes)) (\(level.rawValue))")
    } else {
      lines.append("Memory Usage: not reported")
    }
    lines += [
      "",
      "=== TRACKING ON \(day) ===",
      "Expected: " + ReadableText.duration(gaps.sum(\.lengthMs)) + " · Tracked: "
        + ReadableText.duration(gaps.sum(\.trackedMs)) + " · Idle: "
        + ReadableText.duration(gaps.sum(\.idleMs)) + " · Unknown: "
        + ReadableText.duration(gaps.sum(\.unknownMs)),
    ]
    for alert in alerts {
      lines.append(
        "ALERT: tracker down for \(ReadableText.duration(alert.trackerDownMs)) between "
          + "\(clock.time(alert.windowStart)) and \(clock.time(alert.windowEnd))")
    }
    lines += ["", "=== DATA GAPS ==="]
    if gaps.gaps.isEmpty { lines.append("No gaps detected") }
    for gap in gaps.gaps {
      let kinds = Set(gap.evidence.map(\.kind))
      let evidence = GapEvidence.Kind.allCases.filter(kinds.contains).map(\.displayName)
      lines.append(
        "\(ReadableText.duration(gap.endInstant - gap.startInstant)) gap: "
          + "\(clock.time(gap.startInstant)) - \(clock.time(gap.endInstant))"
          + (gap.isOngoing ? " (ongoing)" : "") + " (\(gap.classification.displayName): "
          + evidence.joined(separator: ", ") + ")")
    }
    lines += ["", "=== ERROR LOG ==="]
    if errors.isEmpty { lines.append("No errors recorded") }
    if todaysFailureCount > 0 { lines.append("Failures today: \(todaysFailureCount)") }
    for error in errors {
      lines.append(
        "[\(clock.dateTime(error.instant))] \(error.action): "
          + ReadableText.singleLine(error.errorDescription ?? "Unknown"))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private var statusText: String {
    switch health.status {
    case .healthy: return "Healthy"
    case .stale: return "Unhealthy (heartbeat stale)"
    case .neverSeen: return "Unhealthy (no heartbeat ever recorded)"
    case .clockSkew(let ahead):
      return "Clock skew (latest heartbeat \(DiagnosticsReport.relativeTime(.zero - ahead)))"
    }
  }
}

extension GapReport {
  func sum(_ part: (WindowAccounting) -> Int64) -> Int64 {
    days.reduce(0) { total, day in day.windows.reduce(total) { $0 + part($1) } }
  }
}
