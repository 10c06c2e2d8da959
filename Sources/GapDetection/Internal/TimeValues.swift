import Foundation
import UsageModel

/// Conversions between the public `Date` / `Duration` values and the module's integer
/// milliseconds, with errors that name the field.
enum TimeValues {
  /// The instant of `date` in milliseconds, rounded once.
  static func instant(_ date: Date, field: String) throws(GapDetectionError) -> Int64 {
    try Milliseconds.checkedInstant(date) {
      GapDetectionError.invalidValue(field: field, value: $0, requirement: $1)
    }
  }

  /// A duration in whole milliseconds, at least `minimum` (zero unless told).
  static func amount(
    _ duration: Duration, field: String, minimum: Int64 = 0
  ) throws(GapDetectionError) -> Int64 {
    try Milliseconds.checkedAmount(duration, minimum: minimum) {
      GapDetectionError.invalidValue(field: field, value: $0, requirement: $1)
    }
  }

  /// `DateInterval` of two instants in milliseconds.
  static func interval(_ start: Int64, _ end: Int64) -> DateInterval {
    Milliseconds.interval(start, end)
  }

  /// The two ends of `interval` in milliseconds (clamped to the supported range).
  static func bounds(of interval: DateInterval) -> (start: Int64, end: Int64) {
    Milliseconds.bounds(of: interval)
  }

  /// The instant of `date`, clamped into the supported range (NaN counts as the earliest).
  static func clampedInstant(_ date: Date) -> Int64 {
    Milliseconds.clampedInstant(date)
  }
}
