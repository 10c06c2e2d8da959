import Foundation

extension Milliseconds {
  /// The instant of `date` in milliseconds, or the error `failure` makes from the value and the
  /// requirement it missed; each module wraps this with its own error type.
  package static func checkedInstant<Failure: Error>(
    _ date: Date,
    orThrow failure: (_ value: String, _ requirement: String) -> Failure
  ) throws(Failure) -> Int64 {
    guard let value = instant(date) else {
      throw failure(
        "\(date.timeIntervalSince1970) s since 1970",
        "a finite instant within 0001-01-03...9999-12-29")
    }
    return value
  }

  /// A duration in whole milliseconds, at least `minimum`, or the error `failure` makes from the
  /// value and the requirement it missed.
  package static func checkedAmount<Failure: Error>(
    _ duration: Duration,
    minimum: Int64 = 0,
    orThrow failure: (_ value: String, _ requirement: String) -> Failure
  ) throws(Failure) -> Int64 {
    guard isWhole(duration), let value = amount(duration), value >= minimum else {
      let bound = minimum == 0 ? "zero or more" : "at least \(Self.duration(minimum))"
      throw failure("\(duration)", "\(bound), in whole milliseconds")
    }
    return value
  }

  /// Text naming `date` for an error message, safe for every `Date`.
  ///
  /// Foundation stops the process when it describes a NaN `Date`, so a date that is not a
  /// supported instant is named by its seconds since 1970 instead; a supported one as ISO 8601.
  package static func describe(_ date: Date) -> String {
    guard let value = instant(date) else { return "\(date.timeIntervalSince1970) s since 1970" }
    return ISO8601Instant.format(value)
  }

  /// `DateInterval` of two instants in milliseconds.
  package static func interval(_ start: Int64, _ end: Int64) -> DateInterval {
    DateInterval(start: date(start), end: date(end))
  }

  /// The two ends of `interval` in milliseconds, clamped to the supported range.
  package static func bounds(of interval: DateInterval) -> (start: Int64, end: Int64) {
    let start = instant(interval.start) ?? clampedInstant(interval.start)
    let end = instant(interval.end) ?? clampedInstant(interval.end)
    return (start, max(start, end))
  }

  /// The instant of `date`, clamped into the supported range (NaN counts as the earliest).
  package static func clampedInstant(_ date: Date) -> Int64 {
    if let value = instant(date) { return value }
    return date.timeIntervalSince1970 > 0 ? latest : earliest
  }
}
