import Foundation

/// An error with a case saying that a value broke a requirement: the error enum of each module
/// that converts public `Date` and `Duration` values into milliseconds.
///
/// An enum's `case invalidValue(field:value:requirement:)` is the witness.
package protocol InvalidValueError: Error {
  /// The error for `value`, given for `field`, which does not meet `requirement`.
  static func invalidValue(field: String, value: String, requirement: String) -> Self
}

/// Conversions between the public `Date` / `Duration` values and integer milliseconds, with
/// errors of the calling module that name the field.
///
/// Each module names its own: `typealias TimeValues = UsageModel.TimeValues<GapDetectionError>`.
package enum TimeValues<Failure: InvalidValueError> {
  /// The instant of `date` in milliseconds, rounded once.
  package static func instant(_ date: Date, field: String) throws(Failure) -> Int64 {
    try Milliseconds.checkedInstant(date) {
      Failure.invalidValue(field: field, value: $0, requirement: $1)
    }
  }

  /// A duration in whole milliseconds, at least `minimum` (zero unless told).
  package static func amount(
    _ duration: Duration, field: String, minimum: Int64 = 0
  ) throws(Failure) -> Int64 {
    try Milliseconds.checkedAmount(duration, minimum: minimum) {
      Failure.invalidValue(field: field, value: $0, requirement: $1)
    }
  }

  /// `DateInterval` of two instants in milliseconds.
  package static func interval(_ start: Int64, _ end: Int64) -> DateInterval {
    Milliseconds.interval(start, end)
  }

  /// The two ends of `interval` in milliseconds (clamped to the supported range).
  package static func bounds(of interval: DateInterval) -> (start: Int64, end: Int64) {
    Milliseconds.bounds(of: interval)
  }

  /// The instant of `date`, clamped into the supported range (NaN counts as the earliest).
  package static func clampedInstant(_ date: Date) -> Int64 {
    Milliseconds.clampedInstant(date)
  }
}
