import Foundation

/// A wall-clock time of day, 00:00:00...23:59:59, with no date and no time zone.
///
/// Used for the start of a day (``DayBoundary``) and the ends of a ``DailyWindow``. A time of day
/// may not exist on some dates (it falls in a daylight-saving gap) or exist twice (it falls in a
/// repeated hour); the types that turn it into an instant document what they do then.
///
/// ```swift
/// let bedtime = try TimeOfDay(hour: 21, minute: 30)
/// bedtime.description   // "21:30"
/// ```
///
/// JSON form: the string `"HH:mm"`, or `"HH:mm:ss"` when the second is not zero.
public struct TimeOfDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// Midnight, 00:00.
  public static let midnight = TimeOfDay(uncheckedSecondsSinceMidnight: 0)

  /// Seconds since midnight on the wall clock, 0...86,399.
  public let secondsSinceMidnight: Int

  /// Creates a time of day.
  ///
  /// - Parameters:
  ///   - hour: 0...23.
  ///   - minute: 0...59.
  ///   - second: 0...59.
  /// - Throws: ``UsageModelError/invalidTimeOfDay(hour:minute:second:)``.
  public init(hour: Int, minute: Int = 0, second: Int = 0) throws(UsageModelError) {
    guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
      throw .invalidTimeOfDay(hour: hour, minute: minute, second: second)
    }
    self.init(uncheckedSecondsSinceMidnight: hour * 3600 + minute * 60 + second)
  }

  /// Parses `HH:mm` or `HH:mm:ss` (24-hour clock, two digits each).
  ///
  /// - Parameter text: For example `"04:00"` or `"23:59:30"`.
  /// - Throws: ``UsageModelError/malformedText(text:expected:)`` or
  ///   ``UsageModelError/invalidTimeOfDay(hour:minute:second:)``.
  public init(parsing text: String) throws(UsageModelError) {
    var scanner = DigitScanner(text)
    guard let hour = scanner.number(digits: 2), scanner.skip(":"),
      let minute = scanner.number(digits: 2)
    else { throw .malformedText(text: text, expected: "HH:mm or HH:mm:ss") }
    var second = 0
    if scanner.skip(":") {
      guard let value = scanner.number(digits: 2) else {
        throw .malformedText(text: text, expected: "HH:mm or HH:mm:ss")
      }
      second = value
    }
    guard scanner.isAtEnd else { throw .malformedText(text: text, expected: "HH:mm or HH:mm:ss") }
    try self.init(hour: hour, minute: minute, second: second)
  }

  init(uncheckedSecondsSinceMidnight seconds: Int) {
    secondsSinceMidnight = seconds
  }

  /// The hour, 0...23.
  public var hour: Int { secondsSinceMidnight / 3600 }
  /// The minute, 0...59.
  public var minute: Int { secondsSinceMidnight / 60 % 60 }
  /// The second, 0...59.
  public var second: Int { secondsSinceMidnight % 60 }

  /// The hour, minute and second as date components, for a `DeviceActivitySchedule`.
  public var dateComponents: DateComponents {
    DateComponents(hour: hour, minute: minute, second: second)
  }

  /// Whether `lhs` is earlier in the day than `rhs`.
  public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
    lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
  }

  /// `HH:mm`, or `HH:mm:ss` when the second is not zero.
  public var description: String {
    let text = LocalDay.padded(hour, 2) + ":" + LocalDay.padded(minute, 2)
    return second == 0 ? text : text + ":" + LocalDay.padded(second, 2)
  }

  /// Decodes the string form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the text is not a time of day.
  public init(from decoder: any Decoder) throws {
    self = try decoder.decodeText { try Self(parsing: $0) }
  }

  /// Encodes the string form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
