import Foundation
import UsageModel

/// Time left until a stored instant, as a pure function of `now`.
///
/// Store the end instant once — when a break, a reward session or a block starts — and ask
/// ``remaining(at:)`` whenever the screen redraws. Nothing is decremented, so a countdown that
/// was suspended, backgrounded or raced by a timer callback is right the moment it is asked
/// again (a decremented countdown freezes at 00:00 when its timer callback races a state
/// change).
///
/// JSON form: `{"end": "2026-03-08T09:30:00Z"}`.
public struct Countdown: Sendable, Hashable, Codable {
  /// The instant the countdown reaches zero.
  public let end: Date

  private let endInstant: Int64

  /// Creates a countdown to `end`, rounded to the millisecond.
  ///
  /// - Parameter end: The instant it reaches zero.
  public init(end: Date) {
    endInstant = clampedInstant(end)
    self.end = Milliseconds.date(endInstant)
  }

  /// Creates a countdown that reaches zero `duration` after `start`.
  ///
  /// An end beyond the supported instants (0001-01-03...9999-12-29) is clamped to them.
  ///
  /// - Parameters:
  ///   - start: The instant it starts.
  ///   - duration: Its length, rounded to the millisecond.
  public init(start: Date, duration: Duration) {
    let length = Milliseconds.amount(duration) ?? (duration > .zero ? .max : .min)
    let (sum, overflow) = clampedInstant(start).addingReportingOverflow(length)
    endInstant =
      overflow
      ? (length > 0 ? Milliseconds.latest : Milliseconds.earliest)
      : min(max(sum, Milliseconds.earliest), Milliseconds.latest)
    end = Milliseconds.date(endInstant)
  }

  /// The time left at `now`, in whole milliseconds; zero once the end has passed.
  ///
  /// - Parameter now: The instant to ask about, rounded to the millisecond.
  /// - Returns: The time left, never negative.
  public func remaining(at now: Date) -> Duration {
    .milliseconds(max(0, endInstant - clampedInstant(now)))
  }

  /// Whether the end has been reached at `now`.
  ///
  /// - Parameter now: The instant to ask about.
  /// - Returns: Whether no time is left.
  public func isFinished(at now: Date) -> Bool { remaining(at: now) == .zero }

  private enum CodingKeys: String, CodingKey {
    case end
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a missing or invalid instant.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    endInstant = try container.decodeInstant(forKey: .end)
    end = Milliseconds.date(endInstant)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(endInstant, forKey: .end)
  }
}
