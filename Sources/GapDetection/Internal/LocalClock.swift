import Foundation
import UsageModel

/// Wall-clock readings of instants in one time zone, for reports: no `DateFormatter`, no
/// `Calendar`, no locale.
struct LocalClock {
  let timeZone: TimeZone

  /// The offset from UTC in seconds at `instant`.
  func offset(at instant: Int64) -> Int {
    timeZone.secondsFromGMT(for: Milliseconds.date(instant))
  }

  /// The local wall reading of `instant`: milliseconds since 1970 as the clock shows them.
  func wall(_ instant: Int64) -> Int64 {
    instant + Int64(offset(at: instant)) * 1000
  }

  /// `yyyy-MM-dd HH:mm:ss`.
  func dateTime(_ instant: Int64) -> String {
    let wall = wall(instant)
    let dayNumber = Int((wall - Self.floorModulo(wall, 86_400_000)) / 86_400_000)
    // Instants are clamped to 0001-01-03...9999-12-29 UTC, whose local days all exist.
    let day = LocalDay(uncheckedDayNumber: dayNumber)
    return day.description + " " + time(instant, seconds: true)
  }

  /// `HH:mm`, or `HH:mm:ss` when `seconds` is true.
  func time(_ instant: Int64, seconds: Bool = false) -> String {
    let withinDay = Self.floorModulo(wall(instant), 86_400_000) / 1000
    var text = Self.two(withinDay / 3600) + ":" + Self.two(withinDay / 60 % 60)
    if seconds { text += ":" + Self.two(withinDay % 60) }
    return text
  }

  /// `UTC+01:00`, `UTC-03:30`, `UTC`.
  func offsetText(at instant: Int64) -> String {
    let seconds = offset(at: instant)
    guard seconds != 0 else { return "UTC" }
    let minutes = abs(seconds) / 60
    return "UTC" + (seconds < 0 ? "-" : "+") + Self.two(Int64(minutes / 60)) + ":"
      + Self.two(Int64(minutes % 60))
  }

  static func floorModulo(_ value: Int64, _ divisor: Int64) -> Int64 {
    let remainder = value % divisor
    return remainder < 0 ? remainder + divisor : remainder
  }

  static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// Durations and memory as a person reads them.
enum ReadableText {
  /// `45s`, `3m 05s`, `2h 07m`: whole seconds, rounded down.
  static func duration(_ milliseconds: Int64) -> String {
    let seconds = max(0, milliseconds) / 1000
    if seconds < 60 { return "\(seconds)s" }
    if seconds < 3600 { return "\(seconds / 60)m " + LocalClock.two(seconds % 60) + "s" }
    return "\(seconds / 3600)h " + LocalClock.two(seconds / 60 % 60) + "m"
  }

  /// `text` on one line: line breaks, tabs and other control characters (and the Unicode line
  /// and paragraph separators) are shown as escapes — `\n`, `\r`, `\t`, `\u{7}` — so that a
  /// string from outside cannot forge lines of a report.
  static func singleLine(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A relative time: `45s ago`, `3m ago`, `2h ago` (whole units, rounded down); a
  /// moment in the future reads `in 5s`.
  static func relative(_ ageMilliseconds: Int64) -> String {
    relative(seconds: ageMilliseconds.magnitude / 1000, future: ageMilliseconds < 0)
  }

  /// The same, from whole seconds and a direction.
  static func relative(seconds: UInt64, future: Bool) -> String {
    let amount: String
    if seconds < 60 {
      amount = "\(seconds)s"
    } else if seconds < 3600 {
      amount = "\(seconds / 60)m"
    } else {
      amount = "\(seconds / 3600)h"
    }
    return future ? "in " + amount : amount + " ago"
  }

  /// `3.2 MB`, one decimal, rounded half up, where 1 MB is 1,048,576 bytes (as in `MemoryPolicy`).
  ///
  /// Exact for every `UInt64`: the whole megabytes and the rest are rounded apart, so that no
  /// step overflows (`bytes × 10`, or that plus half a megabyte, would near `UInt64.max`).
  static func megabytes(_ bytes: UInt64) -> String {
    let (whole, rest) = bytes.quotientAndRemainder(dividingBy: 1_048_576)
    let tenths = whole * 10 + (rest * 10 + 524_288) / 1_048_576
    return "\(tenths / 10).\(tenths % 10) MB"
  }
}
