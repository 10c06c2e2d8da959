import Foundation
import UsageModel

/// One fact in a focus session's history: what happened and when.
///
/// Events are the only state a ``FocusSession`` stores; everything else — the phase, the time
/// remaining, when it ends — is derived from them and the instant you ask about.
///
/// JSON form: `{"kind": "beginBreak", "at": "2026-03-08T09:30:00Z", "breakLengthMs": 300000}`:
/// `at` is an ISO 8601 UTC instant with milliseconds, `breakLengthMs` is present only on a break
/// with a planned length. A session rounds event instants to the millisecond when it records
/// them, so the JSON form round-trips exactly.
public struct FocusEvent: Sendable, Hashable, Codable {
  /// What happened.
  public let kind: FocusEventKind
  /// When it happened.
  public let at: Date
  /// For ``FocusEventKind/beginBreak`` with a planned length: the break ends by itself after it.
  public let breakLength: Duration?

  /// Start focusing at `at`.
  ///
  /// - Parameter at: The instant focus starts.
  /// - Returns: The event.
  public static func start(at: Date) -> FocusEvent {
    FocusEvent(kind: .start, at: at, breakLength: nil)
  }

  /// Begin a break at `at`, open-ended or lasting `length`.
  ///
  /// A break with a length ends by itself — focus resumes at `at + length` without any further
  /// event, so a countdown never freezes waiting for a timer that did not fire.
  ///
  /// - Parameters:
  ///   - at: The instant the break starts.
  ///   - length: The planned length, or `nil` for a break that lasts until ``endBreak(at:)``.
  /// - Returns: The event.
  public static func beginBreak(at: Date, length: Duration? = nil) -> FocusEvent {
    FocusEvent(kind: .beginBreak, at: at, breakLength: length)
  }

  /// End the current break at `at`.
  ///
  /// - Parameter at: The instant focus resumes.
  /// - Returns: The event.
  public static func endBreak(at: Date) -> FocusEvent {
    FocusEvent(kind: .endBreak, at: at, breakLength: nil)
  }

  /// Finish the session at `at`, counting it as completed even if focus time remains.
  ///
  /// - Parameter at: The instant the session ends.
  /// - Returns: The event.
  public static func complete(at: Date) -> FocusEvent {
    FocusEvent(kind: .complete, at: at, breakLength: nil)
  }

  /// Abandon the session at `at`.
  ///
  /// - Parameter at: The instant the session ends.
  /// - Returns: The event.
  public static func cancel(at: Date) -> FocusEvent {
    FocusEvent(kind: .cancel, at: at, breakLength: nil)
  }

  private enum CodingKeys: String, CodingKey {
    case kind, at, breakLengthMs
  }

  /// Decodes an event from its JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a missing field, an invalid instant or a negative length.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    kind = try container.decode(FocusEventKind.self, forKey: .kind)
    at = Milliseconds.date(try container.decodeInstant(forKey: .at))
    breakLength =
      container.contains(.breakLengthMs)
      ? try container.decodeMilliseconds(forKey: .breakLengthMs) : nil
  }

  /// Encodes the event in its JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError` for an instant out of range or a length that is not a whole
  ///   number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind, forKey: .kind)
    guard let instant = Milliseconds.instant(at) else {
      throw EncodingError.invalidValue(
        at,
        .init(codingPath: container.codingPath + [CodingKeys.at], debugDescription: "out of range"))
    }
    try container.encodeInstant(instant, forKey: .at)
    if let breakLength { try container.encodeMilliseconds(breakLength, forKey: .breakLengthMs) }
  }

  init(kind: FocusEventKind, at: Date, breakLength: Duration?) {
    self.kind = kind
    self.at = at
    self.breakLength = breakLength
  }
}
