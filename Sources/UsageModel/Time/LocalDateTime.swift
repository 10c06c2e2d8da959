import Foundation

/// A wall-clock date and time — a ``LocalDay`` and a ``TimeOfDay`` — with no time zone.
///
/// What a clock on the wall shows. ``TimerWindow`` uses it to give both ends of a window *with
/// their dates*, so that a window from 23:50 for 30 minutes ends on the next day at 00:20.
///
/// JSON form: the string `"yyyy-MM-ddTHH:mm"` or `"yyyy-MM-ddTHH:mm:ss"`.
public struct LocalDateTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// The date.
  public var day: LocalDay
  /// The time on that date.
  public var time: TimeOfDay

  /// Creates a wall-clock date and time.
  ///
  /// - Parameters:
  ///   - day: The date.
  ///   - time: The time on that date.
  public init(day: LocalDay, time: TimeOfDay) {
    self.day = day
    self.time = time
  }

  /// The year, month, day, hour, minute and second as date components, for a
  /// `DeviceActivitySchedule` that must not lose its date.
  public var dateComponents: DateComponents {
    DateComponents(
      year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute,
      second: time.second)
  }

  /// Whether `lhs` shows an earlier wall-clock reading than `rhs`.
  public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
    (lhs.day, lhs.time) < (rhs.day, rhs.time)
  }

  /// `yyyy-MM-ddTHH:mm`, with `:ss` when the second is not zero.
  public var description: String { day.description + "T" + time.description }

  /// Decodes the string form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the text is not a date and time.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
    do throws(UsageModelError) {
      guard parts.count == 2 else {
        throw UsageModelError.malformedText(text: text, expected: "yyyy-MM-ddTHH:mm[:ss]")
      }
      self.init(
        day: try LocalDay(parsing: String(parts[0])),
        time: try TimeOfDay(parsing: String(parts[1])))
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
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
