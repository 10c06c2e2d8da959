/// Formats and parses instants as ISO 8601 text, exactly, without a `DateFormatter`.
///
/// Output is always UTC: `2026-01-02T10:30:00Z`, with `.SSS` only when the millisecond is not
/// zero (`2026-01-02T10:30:00.250Z`). Input accepts `yyyy-MM-ddTHH:mm:ss`, an optional fraction
/// of 1 to 9 digits (rounded to the millisecond), and `Z` or an offset `±HH:MM` / `±HHMM`.
package enum ISO8601Instant {
  /// The text of an instant given in milliseconds since 1970.
  package static func format(_ milliseconds: Int64) -> String {
    var text: [UInt8] = []
    append(milliseconds, to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends the text of an instant given in milliseconds since 1970, as ``format(_:)`` gives
  /// it, to UTF-8 `output`: what a fact's JSON writes at every callback, without a string.
  package static func append(_ milliseconds: Int64, to output: inout [UInt8]) {
    let dayNumber = Int(CivilCalendar.floorDivide(milliseconds, CivilCalendar.millisecondsPerDay))
    let withinDay = Int(CivilCalendar.floorModulo(milliseconds, CivilCalendar.millisecondsPerDay))
    let (year, month, day) = CivilCalendar.civil(dayNumber: dayNumber)
    let seconds = withinDay / 1000
    appendPadded(year, 4, to: &output)
    output.append(UInt8(ascii: "-"))
    appendPadded(month, 2, to: &output)
    output.append(UInt8(ascii: "-"))
    appendPadded(day, 2, to: &output)
    output.append(UInt8(ascii: "T"))
    appendPadded(seconds / 3600, 2, to: &output)
    output.append(UInt8(ascii: ":"))
    appendPadded(seconds / 60 % 60, 2, to: &output)
    output.append(UInt8(ascii: ":"))
    appendPadded(seconds % 60, 2, to: &output)
    if withinDay % 1000 != 0 {
      output.append(UInt8(ascii: "."))
      appendPadded(withinDay % 1000, 3, to: &output)
    }
    output.append(UInt8(ascii: "Z"))
  }

  /// The instant in milliseconds of ISO 8601 text, or a reason it is not valid.
  package static func parse(_ text: String) -> Result<Int64, ParseFailure> {
    var scanner = DigitScanner(text)
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
      let hour = scanner.number(digits: 2), scanner.skip(":"),
      let minute = scanner.number(digits: 2), scanner.skip(":"),
      let second = scanner.number(digits: 2)
    else { return .failure(ParseFailure(text: text, reason: "expected yyyy-MM-ddTHH:mm:ss")) }
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day),
      hour < 24, minute < 60, second < 60
    else { return .failure(ParseFailure(text: text, reason: "no such date or time")) }
    var fractionMilliseconds: Int64 = 0
    if scanner.skip(".") || scanner.skip(",") {
      let fractionDigits = scanner.digitRun()
      guard (1...9).contains(fractionDigits.count) else {
        return .failure(ParseFailure(text: text, reason: "a fraction needs 1 to 9 digits"))
      }
      let padded = fractionDigits + Array(repeating: 0, count: 9 - fractionDigits.count)
      let nanoseconds = padded.reduce(Int64(0)) { $0 * 10 + Int64($1) }
      fractionMilliseconds = (nanoseconds + 500_000) / 1_000_000
    }
    let offsetSeconds: Int
    if scanner.skip("Z") || scanner.skip("z") {
      offsetSeconds = 0
    } else if let sign = scanner.sign() {
      guard let hours = scanner.number(digits: 2) else {
        return .failure(ParseFailure(text: text, reason: "an offset needs ±HH:MM"))
      }
      _ = scanner.skip(":")
      guard let minutes = scanner.number(digits: 2), hours < 24, minutes < 60 else {
        return .failure(ParseFailure(text: text, reason: "an offset needs ±HH:MM"))
      }
      offsetSeconds = sign * (hours * 3600 + minutes * 60)
    } else {
      return .failure(ParseFailure(text: text, reason: "missing time zone designator Z or ±HH:MM"))
    }
    guard scanner.isAtEnd else {
      return .failure(ParseFailure(text: text, reason: "unexpected characters at the end"))
    }
    let dayNumber = CivilCalendar.dayNumber(year: year, month: month, day: day)
    let localSeconds = Int64(dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    let milliseconds = (localSeconds - Int64(offsetSeconds)) * 1000 + fractionMilliseconds
    guard milliseconds >= Milliseconds.earliest, milliseconds <= Milliseconds.latest else {
      return .failure(ParseFailure(text: text, reason: "outside 0001-01-03...9999-12-29"))
    }
    return .success(milliseconds)
  }

  /// Why a text is not an ISO 8601 instant.
  package struct ParseFailure: Error {
    package var text: String
    package var reason: String
  }

  /// Appends `String(value)` padded on the left with zeros to `width` characters.
  private static func appendPadded(_ value: Int, _ width: Int, to output: inout [UInt8]) {
    // The usual case, a field that fits its width, digit by digit from the highest.
    var power = 1
    for _ in 1..<width { power *= 10 }
    if value >= 0, value / 10 < power {
      var rest = value
      while power > 0 {
        output.append(UInt8(ascii: "0") + UInt8(rest / power))
        rest %= power
        power /= 10
      }
      return
    }
    var magnitude = value.magnitude
    var digits = 1
    var probe = magnitude / 10
    while probe > 0 {
      digits += 1
      probe /= 10
    }
    let characters = digits + (value < 0 ? 1 : 0)
    for _ in characters..<max(width, characters) { output.append(UInt8(ascii: "0")) }
    if value < 0 { output.append(UInt8(ascii: "-")) }
    output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
    var index = output.count - 1
    repeat {
      output[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
      magnitude /= 10
      index -= 1
    } while magnitude > 0
  }
}
