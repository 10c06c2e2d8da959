import Foundation

/// ActivityWatch's durations: a JSON number of seconds, held in whole microseconds exactly as
/// aw-core holds it — `timedelta(seconds=json.loads(text))`.
///
/// Python reads a literal with a fraction or an exponent as a `float` (the nearest double), and
/// `timedelta` turns that into microseconds with float arithmetic, rounding half to even; an
/// integer literal is exact. So `0.0006` is 600 µs, `0.0004999` is 500 µs, `0.0000025` is 2 µs
/// and `100000.0000005` is 100,000,000,001 µs. `microseconds(_:)` reproduces this bit for bit:
/// literals of at most six decimals (every duration this library writes) are exact decimals,
/// which Python also reproduces exactly below 100 years; any other literal goes through the
/// same double arithmetic as CPython's `timedelta` constructor.
enum PythonDuration {
  /// The longest duration accepted: 100 years (of 365 days), in microseconds.
  static let maximum: Int64 = 100 * 365 * 86_400 * 1_000_000

  /// The microseconds of a JSON number of seconds (validated by the scanner).
  ///
  /// A negative number is rejected unless it rounds to zero microseconds, as `-0`, `-0.0`,
  /// `-0e5` and `-0.0000001` do in Python.
  static func microseconds(_ number: UnsafeRawBufferPointer) throws(JSONFailure) -> Int64 {
    let negative = number.first == UInt8(ascii: "-")
    let digits = UnsafeRawBufferPointer(rebasing: number[(negative ? 1 : 0)...])
    let magnitude: Int64
    if let exact = try exactDecimal(digits) {
      magnitude = exact
    } else {
      magnitude = try viaDouble(digits)
    }
    guard magnitude <= maximum else {
      throw JSONFailure(reason: "\"duration\" \(shown(number)) is too long: more than 100 years")
    }
    guard !negative || magnitude == 0 else {
      throw JSONFailure(reason: "\"duration\" \(shown(number)) is negative")
    }
    return magnitude
  }

  /// A literal without an exponent and with at most six decimals, exactly; `nil` otherwise.
  private static func exactDecimal(_ digits: UnsafeRawBufferPointer) throws(JSONFailure) -> Int64? {
    var whole: Int64 = 0
    var fraction: Int64 = 0
    var fractionDigits = 0
    var inFraction = false
    for byte in digits {
      switch byte {
      case UInt8(ascii: "."):
        inFraction = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        return nil
      default:
        let digit = Int64(byte &- 0x30)
        if inFraction {
          fractionDigits += 1
          guard fractionDigits <= 6 else { return nil }
          fraction = fraction * 10 + digit
        } else {
          guard whole <= maximum / 1_000_000 else {
            throw JSONFailure(
              reason: "\"duration\" \(shown(digits)) is too long: more than 100 years")
          }
          whole = whole * 10 + digit
        }
      }
    }
    for _ in fractionDigits..<6 { fraction *= 10 }
    return whole * 1_000_000 + fraction
  }

  /// Any other literal, through a double as in Python.
  private static func viaDouble(_ digits: UnsafeRawBufferPointer) throws(JSONFailure) -> Int64 {
    guard let seconds = Double(String(decoding: digits, as: UTF8.self)), seconds.isFinite,
      seconds <= Double(maximum / 1_000_000)
    else {
      throw JSONFailure(reason: "\"duration\" \(shown(digits)) is too long: more than 100 years")
    }
    return microseconds(ofSeconds: seconds)
  }

  /// CPython's `timedelta(seconds=seconds)` in microseconds, for `0 <= seconds <= 100 years`.
  ///
  /// The integral seconds are exact; the fraction is scaled by 10⁶ in double arithmetic, its
  /// integral part kept, and what is left rounded half to even (`delta_new` and `accum` in
  /// `Modules/_datetimemodule.c`).
  static func microseconds(ofSeconds seconds: Double) -> Int64 {
    var whole = 0.0
    let fraction = modf(seconds, &whole)
    var result = Int64(whole) * 1_000_000
    guard fraction != 0 else { return result }
    var scaledWhole = 0.0
    let leftover = modf(1_000_000 * fraction, &scaledWhole)
    result += Int64(scaledWhole)
    var rounded = leftover.rounded()
    if abs(rounded - leftover) == 0.5 {
      let isOdd = Double(result & 1)
      rounded = 2 * ((leftover + isOdd) * 0.5).rounded() - isOdd
    }
    return result + Int64(rounded)
  }

  private static func shown(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes, as: UTF8.self)
  }
}
