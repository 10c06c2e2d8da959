import Foundation
import UsageModel

/// `show` of a value in `ThresholdAccountant`'s documented JSON form, as an app that keeps the
/// accountant under a key of its own stores it: one line per monitoring interval, then its apps.
enum AccountantView {
  /// The accountant `data` holds, or `nil` when it holds anything else (then shown as JSON).
  static func decode(_ data: Data) -> ThresholdAccountant? {
    try? JSONDecoder().decode(ThresholdAccountant.self, from: data)
  }

  /// The accountant in readable lines: its time zone and tolerance, then each interval (start in
  /// UTC, total, apps with the highest threshold reached and when) and the events not counted.
  static func lines(_ accountant: ThresholdAccountant) -> [String] {
    var lines = [
      "time zone \(accountant.timeZone.identifier), tolerance \(format(accountant.tolerance)), "
        + count(accountant.intervals.count, "monitoring interval") + ", "
        + count(accountant.implausibleEvents.count, "implausible event") + " not counted"
    ]
    for interval in accountant.intervals {
      lines.append("")
      lines.append(
        "interval from \(instant(interval.start)): \(format(interval.total)) over "
          + count(interval.apps.count, "app"))
      lines += table(
        interval.apps.map { app in
          ["  " + app.app.rawValue, format(app.highest), "reached at " + instant(app.reachedAt)]
        })
      for implausible in interval.implausibleEvents {
        lines.append("  not counted: \(implausible)")
      }
    }
    return lines
  }
}
