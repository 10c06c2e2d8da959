import Foundation
import UsageModel

/// `a × b / c` for non-negative values, rounded down, computed in 128 bits; `nil` when the
/// result does not fit in an `Int64` or `c` is not positive.
func multiplyDivide(_ a: Int64, _ b: Int64, _ c: Int64) -> Int64? {
  multiplyDivideWithRemainder(a, b, c)?.quotient
}

/// `a × b / c` for non-negative values as a quotient and remainder, computed in 128 bits; `nil`
/// when the quotient does not fit in an `Int64` or `c` is not positive.
func multiplyDivideWithRemainder(_ a: Int64, _ b: Int64, _ c: Int64)
  -> (quotient: Int64, remainder: Int64)?
{
  guard a >= 0, b >= 0, c > 0 else { return nil }
  // Both factors are non-negative, so the product is a non-negative 128-bit number; divide it
  // as unsigned, where `high < divisor` is exactly the condition for the quotient to fit.
  let product = UInt64(a).multipliedFullWidth(by: UInt64(b))
  let divisor = UInt64(c)
  guard product.high < divisor else { return nil }
  let (quotient, remainder) = divisor.dividingFullWidth(product)
  guard quotient <= UInt64(Int64.max) else { return nil }
  return (Int64(quotient), Int64(remainder))
}

/// `a + b`, or `nil` when the sum does not fit.
func checkedSum(_ a: Int64, _ b: Int64) -> Int64? {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? nil : sum
}

/// The instant of `date` in milliseconds, clamped into the supported range.
///
/// Used where an answer is always possible (asking a session about a far-future instant);
/// values that are *stored* are validated instead.
func clampedInstant(_ date: Date) -> Int64 {
  if let instant = Milliseconds.instant(date) { return instant }
  return date.timeIntervalSince1970 < 0 ? Milliseconds.earliest : Milliseconds.latest
}

/// `date` as text for an error message, for any `Date`.
///
/// Foundation's own description of a NaN date stops the program, and it describes dates outside
/// the supported instants as "<description unavailable>"; those are given as seconds since 1970.
func describe(_ date: Date) -> String {
  Milliseconds.instant(date) == nil ? "\(date.timeIntervalSince1970) s since 1970" : "\(date)"
}

/// `duration` kept within ±`Int64.max` milliseconds, so that a caller's extreme duration
/// (`.seconds(Int64.max)`) can take part in sums and differences without overflowing.
func clampedToMilliseconds(_ duration: Duration) -> Duration {
  min(max(duration, .milliseconds(Int64.min)), .milliseconds(Int64.max))
}
