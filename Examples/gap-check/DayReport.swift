import Foundation
import GapDetection
import SignalValues
import UsageModel

/// The gap report of one local day, from the command line's files.
struct DayReport {
  var day: LocalDay?
  var heartbeatsFile: String?
  var usageFile: String?
  var sightingsFile: String?
  var timeZone = "UTC"
  var dayStart = TimeOfDay.midnight
  var now: Date?
  var expectation = TrackingExpectation.sinceFirstHeartbeat
  var svgFile: String?
  var json = false

  /// Reads the options, without the program's name.
  init(_ arguments: [String]) throws(Failure) {
    var arguments = arguments[...]
    func value(of option: String) throws(Failure) -> String {
      guard let value = arguments.popFirst() else { throw .usage("\(option) needs a value") }
      return value
    }
    while let argument = arguments.popFirst() {
      switch argument {
      case "--heartbeats": heartbeatsFile = try value(of: argument)
      case "--usage": usageFile = try value(of: argument)
      case "--sightings": sightingsFile = try value(of: argument)
      case "--time-zone": timeZone = try value(of: argument)
      case "--svg": svgFile = try value(of: argument)
      case "--json": json = true
      case "--day":
        let text = try value(of: argument)
        do { day = try LocalDay(parsing: text) } catch { throw .usage("--day: \(error)") }
      case "--day-start":
        let text = try value(of: argument)
        do { dayStart = try TimeOfDay(parsing: text) } catch {
          throw .usage("--day-start: \(error)")
        }
      case "--now":
        let text = try value(of: argument)
        guard let instant = parseInstant(text) else {
          throw .usage(
            "--now: \(text.debugDescription) is not an ISO 8601 instant such as "
              + "2026-03-29T18:00:00+02:00")
        }
        now = instant
      case "--expect":
        switch try value(of: argument) {
        case "since-first-heartbeat": expectation = .sinceFirstHeartbeat
        case "always": expectation = .always
        case let other:
          throw .usage("--expect: \(other.debugDescription) is not since-first-heartbeat or always")
        }
      default:
        throw .usage("unknown option \(argument)")
      }
    }
    guard day != nil else { throw .usage("--day is required") }
    guard heartbeatsFile != nil else { throw .usage("--heartbeats is required") }
  }

  /// Makes the report and prints it; returns whether it raised a tracker-down alert.
  func run() throws(Failure) -> Bool {
    guard let day, let heartbeatsFile else { return false }
    let boundary: DayBoundary
    do {
      boundary = try DayBoundary(timeZoneIdentifier: timeZone, dayStart: dayStart)
    } catch {
      throw .usage("--time-zone: \(error)")
    }
    var heartbeats = try decodeLines(Heartbeat.self, from: heartbeatsFile)
    var sightings = try sightingsFile.map { file throws(Failure) in
      try decodeLines(SequenceSighting.self, from: file)
    }
    let usage = try usageFile.map { file throws(Failure) in
      try decodeLines(UsageRecord.self, from: file)
    }
    // Time is a parameter: the end of the day unless --now says otherwise. At an earlier
    // --now, what was recorded later had not happened yet.
    let instant = now ?? boundary.interval(of: day).end
    if let now {
      heartbeats.removeAll { $0.at > now }
      sightings?.removeAll { $0.at > now }
    }
    let report = DiagnosticsReport(
      title: "Gap check", day: day, now: instant,
      detector: GapDetector(boundary: boundary, expectation: expectation),
      heartbeats: heartbeats, usage: usage ?? [],
      missedSequences: SequenceSighting.losses(in: sightings ?? []))
    if let svgFile {
      do {
        try Data(report.svg.utf8).write(to: URL(fileURLWithPath: svgFile), options: .atomic)
      } catch {
        throw .input(svgFile, "cannot be written: \(error.localizedDescription)")
      }
    }
    if json {
      FileHandle.standardOutput.write(report.json() + Data("\n".utf8))
    } else {
      print(text(of: report, nowWasGiven: now != nil), terminator: "")
    }
    return !report.alerts.isEmpty
  }

  /// The report as text: the accounting, the gaps and the alert decision.
  private func text(of report: DiagnosticsReport, nowWasGiven: Bool) -> String {
    let clock = Clock(day: report.day, boundary: report.boundary)
    let gaps = report.gaps
    var lines = [
      "Gap report for \(report.day) in \(report.boundary.timeZone.identifier)"
        + (clock.clocksChange ? " (\(formatted(clock.length)) long: clocks changed)" : ""),
      "as of \(clock.dateTime(report.generatedAt))"
        + (nowWasGiven ? "" : " (the end of the day; see --now)"),
      "tracker: " + health(report.health, clock: clock),
      "",
    ]
    let windows = gaps.windows.map { "\(clock.time($0.start))–\(clock.time($0.end))" }
    lines.append(
      row("expected", gaps.expected)
        + (windows.isEmpty
          ? "  (no heartbeat yet: nothing to judge)" : "  " + windows.joined(separator: ", ")))
    lines.append(row("  tracked", gaps.tracked))
    lines.append(row("  idle", gaps.idle))
    for gapClass in [GapClass.trackerDown, .notificationLoss] {
      let count = gaps.gaps(gapClass).count
      lines.append(
        row("  " + gapClass.displayName, gaps.time(of: gapClass, in: gaps.period))
          + "  \(count) gap" + (count == 1 ? "" : "s"))
    }
    lines += ["", gaps.gaps.isEmpty ? "no gaps" : "gaps:"]
    for gap in gaps.gaps {
      let kinds = Set(gap.evidence.map(\.kind))
      let missed = gap.evidence.compactMap(\.missed?.values).map {
        "\($0.lowerBound)...\($0.upperBound)"
      }
      let evidence = GapEvidence.Kind.allCases.filter(kinds.contains).map { kind in
        kind == .missedSequence
          ? kind.displayName + " " + missed.joined(separator: ", ") : kind.displayName
      }
      lines.append(
        "  " + padded("\(clock.time(gap.start))–\(clock.time(gap.end))", 13)
          + padded(formatted(gap.duration), 10) + padded(gap.classification.displayName, 19)
          + evidence.joined(separator: ", ") + (gap.isOngoing ? " (ongoing)" : ""))
    }
    lines.append("")
    if report.alerts.isEmpty {
      lines.append(
        "no alert: tracker-down time stays under \(formatted(HealthPolicy.standard.alertAfter)) "
          + "in every window")
    }
    for alert in report.alerts {
      lines.append(
        "ALERT: the tracker was down for \(formatted(alert.trackerDown)) between "
          + "\(clock.time(alert.window.start)) and \(clock.time(alert.window.end)) "
          + "(threshold \(formatted(alert.threshold)))")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The tracker's health at the report's instant, from its latest heartbeat.
  private func health(_ health: HeartbeatHealth, clock: Clock) -> String {
    let latest = health.latest.map { "last heartbeat at \(clock.time($0.at))" } ?? ""
    switch health.status {
    case .neverSeen: return "never seen: no heartbeat of source monitor"
    case .healthy(let age): return "healthy, \(latest), \(formatted(age)) before"
    case .stale(let age): return "stale, \(latest), \(formatted(age)) before"
    case .clockSkew(let ahead): return "clock skew, \(latest), \(formatted(ahead)) in the future"
    }
  }
}

/// Wall-clock times of the report's day: `14:05`, `24:00` for its end, with the date for an
/// instant of another day, and with the offset on a day when clocks went back (whose repeated
/// hour would otherwise read the same twice).
private struct Clock {
  let day: LocalDay
  let end: Date
  let length: Duration
  let clocksChange: Bool
  let clocksWentBack: Bool
  let formatter = DateFormatter()

  init(day: LocalDay, boundary: DayBoundary) {
    self.day = day
    let interval = boundary.interval(of: day)
    end = interval.end
    length = boundary.length(of: day)
    let offsets = (
      boundary.timeZone.secondsFromGMT(for: interval.start),
      boundary.timeZone.secondsFromGMT(for: interval.end)
    )
    clocksChange = offsets.0 != offsets.1
    clocksWentBack = offsets.0 > offsets.1
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = boundary.timeZone
  }

  /// The wall-clock time of `date`, as short as it can be said without ambiguity.
  func time(_ date: Date) -> String {
    if date == end { return "24:00" }
    formatter.dateFormat = "yyyy-MM-dd"
    let onDay = formatter.string(from: date) == day.description
    formatter.dateFormat =
      (onDay ? "" : "yyyy-MM-dd ")
      + (date.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0 ? "HH:mm" : "HH:mm:ss")
      + (clocksWentBack ? " xxx" : "")
    return formatter.string(from: date)
  }

  /// `2026-03-29 14:05:00 +02:00`.
  func dateTime(_ date: Date) -> String {
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
    return formatter.string(from: date)
  }
}

/// A label and a time, the time right-aligned at column 30.
private func row(_ label: String, _ duration: Duration) -> String {
  let time = formatted(duration)
  return label + String(repeating: " ", count: max(1, 30 - label.count - time.count)) + time
}

/// A time for people, exact: `2h 05m`, `58m 03s`, `45s`, `1.250s`.
func formatted(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
  let (hours, minutes, fraction) = (total / 3_600_000, total / 60_000 % 60, total % 1000)
  let wide = hours > 0 || minutes > 0
  var text =
    padded(total / 1000 % 60, wide ? 2 : 1) + (fraction == 0 ? "s" : ".\(padded(fraction, 3))s")
  if wide {
    text = padded(minutes, hours > 0 ? 2 : 1) + "m" + (total % 60_000 == 0 ? "" : " " + text)
  }
  if hours > 0 { text = "\(hours)h " + text }
  return text
}

/// `text` followed by spaces up to `width` characters, and at least one.
private func padded(_ text: String, _ width: Int) -> String {
  text + String(repeating: " ", count: max(1, width - text.count))
}

private func padded(_ value: Int64, _ width: Int) -> String {
  let text = String(value)
  return String(repeating: "0", count: max(0, width - text.count)) + text
}
