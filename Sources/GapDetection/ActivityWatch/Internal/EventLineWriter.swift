import UsageModel

/// Writes events in ActivityWatch's form, one compact JSON object per line:
/// `{"timestamp":"2026-03-08T06:00:00.250+00:00","duration":40.0,"data":{…}}`.
///
/// Timestamps are UTC with the offset written `+00:00` as ActivityWatch writes it, with `.SSS`
/// only when the millisecond is not zero; durations are seconds with at most three decimals and
/// at least one (`40.0`), which Python reads back as the same `float`.
struct EventLineWriter {
  /// The date part `yyyy-MM-ddT` of the last day written, and the day's number.
  private var cachedDay: (number: Int64, prefix: [UInt8])?

  mutating func append(
    timestamp: Int64, duration: Int64, data: UnsafeRawBufferPointer, to output: inout [UInt8]
  ) {
    output.append(contentsOf: #"{"timestamp":""#.utf8)
    appendTimestamp(timestamp, to: &output)
    output.append(contentsOf: #"","duration":"#.utf8)
    Self.appendSeconds(duration, to: &output)
    output.append(contentsOf: #","data":"#.utf8)
    output.append(contentsOf: data)
    output.append(contentsOf: "}\n".utf8)
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

  static func appendSeconds(_ milliseconds: Int64, to output: inout [UInt8]) {
    appendDigits(milliseconds / 1000, width: 1, to: &output)
    output.append(UInt8(ascii: "."))
    var fraction = milliseconds % 1000
    if fraction == 0 {
      output.append(UInt8(ascii: "0"))
      return
    }
    var width = 3
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
