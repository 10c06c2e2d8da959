import UsageModel

/// Writes events in ActivityWatch's form, one compact JSON object per line:
/// `{"timestamp":"2026-03-08T06:00:00.250+00:00","duration":40.0006,"data":{…}}`.
///
/// Timestamps are UTC with the offset written `+00:00` as ActivityWatch writes it, with `.SSS`
/// only when the millisecond is not zero. Durations are seconds with the microseconds exact — at
/// most six decimals and at least one (`40.0`) — which Python reads back as the very `float`
/// that aw-core's `Event.to_json_str()` writes for the same `timedelta`. The data object is
/// written without the whitespace outside its strings, so that a data text spread over several
/// lines still makes one line.
struct EventLineWriter {
  /// The date part `yyyy-MM-ddT` of the last day written, and the day's number.
  private var cachedDay: (number: Int64, prefix: [UInt8])?

  mutating func append(
    timestamp: Int64, durationMicroseconds: Int64, data: UnsafeRawBufferPointer,
    to output: inout [UInt8]
  ) {
    output.append(contentsOf: #"{"timestamp":""#.utf8)
    appendTimestamp(timestamp, to: &output)
    output.append(contentsOf: #"","duration":"#.utf8)
    Self.appendSeconds(microseconds: durationMicroseconds, to: &output)
    output.append(contentsOf: #","data":"#.utf8)
    Self.appendCompact(data, to: &output)
    output.append(contentsOf: "}\n".utf8)
  }

  /// Appends validated JSON text without the whitespace outside its strings.
  static func appendCompact(_ json: UnsafeRawBufferPointer, to output: inout [UInt8]) {
    var runStart = 0
    var index = 0
    var inString = false
    while index < json.count {
      let byte = json[index]
      if inString {
        if byte == UInt8(ascii: "\\") {
          index += 1  // the escaped byte cannot end the string
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: json[runStart..<index]))
        runStart = index + 1
      }
      index += 1
    }
    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: json[runStart..<json.count]))
  }

  mutating func appendTimestamp(_ instant: Int64, to output: inout [UInt8]) {
    let day = instant >= 0 ? instant / 86_400_000 : (instant - 86_399_999) / 86_400_000
    let within = instant - day * 86_400_000
    if cachedDay?.number != day {
      cachedDay = (day, Array(ISO8601Instant.format(day * 86_400_000).utf8.prefix(11)))
    }
    if let cachedDay { output.append(contentsOf: cachedDay.prefix) }
    let seconds = within / 1000
    Self.appendDigits(seconds / 3600, width: 2, to: &output)
    output.append(UInt8(ascii: ":"))
    Self.appendDigits(seconds / 60 % 60, width: 2, to: &output)
    output.append(UInt8(ascii: ":"))
    Self.appendDigits(seconds % 60, width: 2, to: &output)
    if within % 1000 != 0 {
      output.append(UInt8(ascii: "."))
      Self.appendDigits(within % 1000, width: 3, to: &output)
    }
    output.append(contentsOf: "+00:00".utf8)
  }

  /// Seconds with the microseconds exact: `0.0`, `40.0`, `0.0006`, `12.000001`.
  static func appendSeconds(microseconds: Int64, to output: inout [UInt8]) {
    appendDigits(microseconds / 1_000_000, width: 1, to: &output)
    output.append(UInt8(ascii: "."))
    var fraction = microseconds % 1_000_000
    if fraction == 0 {
      output.append(UInt8(ascii: "0"))
      return
    }
    var width = 6
    while fraction % 10 == 0 {
      fraction /= 10
      width -= 1
    }
    appendDigits(fraction, width: width, to: &output)
  }

  static func appendDigits(_ value: Int64, width: Int, to output: inout [UInt8]) {
    var digits:
      (
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[19 - count] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
        rest /= 10
        count += 1
      } while rest > 0 && count < 20
      while count < width && count < 20 {
        buffer[19 - count] = 0x30
        count += 1
      }
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
    }
  }
}
