import Foundation

/// The module's unit of time: whole milliseconds since 1970-01-01T00:00:00Z, in an `Int64`.
///
/// Every instant is rounded to the nearest millisecond once, when it enters a value of this
/// module; from then on all arithmetic is exact integer arithmetic.
package enum Milliseconds {
  /// The earliest supported instant: 0001-01-03T00:00:00Z, two days inside the first
  /// `LocalDay`, so that its local day exists in any time zone and with any day start.
  package static let earliest: Int64 = -62_135_424_000_000
  /// The latest supported instant: 9999-12-29T23:59:59.999Z, two days inside the last
  /// `LocalDay`.
  package static let latest: Int64 = 253_402_127_999_999

  /// The instant of `date` in milliseconds, or `nil` when it is not finite or out of range.
  package static func instant(_ date: Date) -> Int64? {
    let value = (date.timeIntervalSince1970 * 1000).rounded()
    guard value.isFinite, value >= Double(earliest), value <= Double(latest) else { return nil }
    return Int64(value)
  }

  /// The instant of `date` in milliseconds, or a typed error naming `field`.
  package static func instant(_ date: Date, field: String) throws(UsageModelError) -> Int64 {
    guard let value = instant(date) else {
      throw .instantOutOfRange(field: field, secondsSince1970: date.timeIntervalSince1970)
    }
    return value
  }

  /// The `Date` of an instant in milliseconds.
  package static func date(_ milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// A duration rounded to the nearest millisecond (halves away from zero), or `nil` when it is
  /// longer than about 290 million years either way.
  package static func amount(_ duration: Duration) -> Int64? {
    let (seconds, attoseconds) = duration.components
    let perMillisecond: Int64 = 1_000_000_000_000_000
    var milliseconds = attoseconds / perMillisecond
    let remainder = attoseconds % perMillisecond
    if remainder >= perMillisecond / 2 {
      milliseconds += 1
    } else if remainder <= -perMillisecond / 2 {
      milliseconds -= 1
    }
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    guard !overflow else { return nil }
    let (sum, sumOverflow) = scaled.addingReportingOverflow(milliseconds)
    return sumOverflow ? nil : sum
  }

  /// Whether `duration` is a whole number of milliseconds.
  package static func isWhole(_ duration: Duration) -> Bool {
    duration.components.attoseconds % 1_000_000_000_000_000 == 0
  }

  /// The exact `Duration` of an amount in milliseconds.
  package static func duration(_ milliseconds: Int64) -> Duration {
    .milliseconds(milliseconds)
  }
}
