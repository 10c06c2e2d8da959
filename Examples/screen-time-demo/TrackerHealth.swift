import Foundation
import ScreenTimeKit

/// Part 6 of the pipeline: whether the tracker is alive, and what the day's quiet stretches were.
///
/// A dead extension loses usage; a person who put the phone down loses nothing. Heartbeats tell
/// them apart.
struct TrackerHealth {
  let directory: URL

  /// The extension was killed at 13:10 and relaunched by the system at 13:52.
  static let outage = (from: SampleDay.instant(13, 10), to: SampleDay.instant(13, 52))

  func run(usage: [UsageRecord], svgPath: String?) throws {
    print("\n== 6. Is the tracker alive? A dead extension versus a phone put down ==")
    // The extension writes a heartbeat every minute, with the fast durability heartbeats need.
    let recorder = try HeartbeatRecorder(directory: directory, source: .monitorExtension)
    var instant = SampleDay.instant(7, 0)
    let now = SampleDay.instant(23, 30)
    var written = 0
    while instant <= now {
      if instant < Self.outage.from || instant >= Self.outage.to {
        try recorder.record(at: instant, memoryBytes: 3_400_000)
        written += 1
      }
      instant = instant.addingTimeInterval(60)
    }

    // The app, on its own store, reads the history and analyses the day from 07:00 on.
    let expected = TrackingExpectation.daily(
      try DailyWindow(start: TimeOfDay(hour: 7), end: .midnight), in: SampleDay.timeZone)
    let detector = GapDetector(boundary: SampleDay.boundary, expectation: expected)
    let heartbeats = try recorder.history().heartbeats
    let report = DiagnosticsReport(
      title: "Tracking Diagnostics", day: SampleDay.day, now: now, detector: detector,
      heartbeats: heartbeats, usage: usage, rules: SampleDay.rules)
    let gaps = report.gaps
    print("heartbeats written: \(written), one a minute, none from 13:10 to 13:52")
    print(
      "tracking expected \(format(gaps.expected)): tracked \(format(gaps.tracked)), "
        + "idle \(format(gaps.idle)), unknown \(format(gaps.unknown)) — they add up exactly")
    for gap in gaps.gaps {
      print(
        "  \(clock(gap.start))–\(clock(gap.end)) \(gap.classification.displayName.padded(17)) "
          + "\(format(gap.duration))")
    }
    for alert in report.alerts {
      print(
        "  alert: the tracker was down for \(format(alert.trackerDown)) (threshold \(format(alert.threshold)))"
      )
    }
    if let svgPath {
      try Data(report.svg.utf8).write(to: URL(fileURLWithPath: svgPath))
      print("the day's timeline, as SVG: \(svgPath)")
    } else {
      print("(run with --svg day.svg to draw the day's timeline)")
    }
  }

  private func clock(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = SampleDay.timeZone
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
  }
}
