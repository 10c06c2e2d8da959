import Foundation
import UsageModel

/// Conversions between the public `Date` / `Duration` values and integer milliseconds, with
/// errors that name the field.
enum TimeValues {
  /// The instant of `date` in milliseconds, rounded once.
  static func instant(_ date: Date, field: String) throws(TrackerSignalsError) -> Int64 {
    try Milliseconds.checkedInstant(date) {
      TrackerSignalsError.invalidValue(field: field, value: $0, requirement: $1)
    }
  }

  /// A duration in whole milliseconds, at least `minimum` (zero unless told).
  static func amount(
    _ duration: Duration, field: String, minimum: Int64 = 0
  ) throws(TrackerSignalsError) -> Int64 {
    try Milliseconds.checkedAmount(duration, minimum: minimum) {
      TrackerSignalsError.invalidValue(field: field, value: $0, requirement: $1)
    }
  }
}
