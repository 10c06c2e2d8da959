import Foundation
import UsageModel

/// Conversions between the public `Date` / `Duration` values and the module's integer
/// milliseconds, with errors that name the field.
enum TimeValues {
  /// The instant of `date` in milliseconds, rounded once.
  static func instant(_ date: Date, field: String) throws(GapDetectionError) -> Int64 {
    guard let value = Milliseconds.instant(date) else {
      throw .invalidValue(
        field: field, value: "\(date.timeIntervalSince1970) s since 1970",
        requirement: "a finite instant within 0001-01-03...9999-12-29")
    }
    return value
  }

  /// A duration in whole milliseconds, at least `minimum` (zero unless told).
  static func amount(
    _ duration: Duration, field: String, minimum: Int64 = 0
  ) throws(GapDetectionError) -> Int64 {
    guard Milliseconds.isWhole(duration), let value = Milliseconds.amount(duration),
      value >= minimum
    else {
      let bound = minimum == 0 ? "zero or more" : "at least \(Milliseconds.duration(minimum))"
      throw .invalidValue(
        field: field, value: "\(duration)", requirement: "\(bound), in whole milliseconds")
    }
    return value
  }

  /// `DateInterval` of two instants in milliseconds.
  static func interval(_ start: Int64, _ end: Int64) -> DateInterval {
    DateInterval(start: Milliseconds.date(start), end: Milliseconds.date(end))
  }

  /// The two ends of `interval` in milliseconds (clamped to the supported range).
  static func bounds(of interval: DateInterval) -> (start: Int64, end: Int64) {
    let start = Milliseconds.instant(interval.start) ?? clampedInstant(interval.start)
    let end = Milliseconds.instant(interval.end) ?? clampedInstant(interval.end)
    return (start, max(start, end))
  }

  /// The instant of `date`, clamped into the supported range (NaN counts as the earliest).
  static func clampedInstant(_ date: Date) -> Int64 {
    if let value = Milliseconds.instant(date) { return value }
    return date.timeIntervalSince1970 > 0 ? Milliseconds.latest : Milliseconds.earliest
  }
}
