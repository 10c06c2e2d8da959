import Foundation
import UsageModel

/// Everything a countdown screen shows about a focus session at one instant, derived afresh
/// from the session's stored instants every time it is asked for.
///
/// JSON form: `{"phase": "active", "startedAt": "…Z", "focusElapsedMs": 600000,
/// "focusRemainingMs": 900000, "breakTimeMs": 0, "breakEndsAt": "…Z", "endsAt": "…Z",
/// "endedAt": "…Z"}`; instants are ISO 8601 UTC with milliseconds and are absent when `nil`.
public struct FocusSessionState: Sendable, Hashable, Codable {
  /// Where the session is.
  public let phase: FocusPhase
  /// When focus started (on schedule, or earlier on a start event); `nil` while scheduled.
  public let startedAt: Date?
  /// Focus time spent so far; breaks do not count.
  public let focusElapsed: Duration
  /// Focus time still to spend; zero once completed.
  public let focusRemaining: Duration
  /// Time spent on breaks so far, including the current one.
  public let breakTime: Duration
  /// When the current break ends by itself; `nil` unless on a break of planned length.
  ///
  /// A break that would end after 9999-12-29T23:59:59.999Z, the latest supported instant, is
  /// reported as ending then.
  public let breakEndsAt: Date?
  /// When focus time will be used up if no further break is taken.
  ///
  /// `nil` during an open-ended break. For a finished session, when it ended. A session that
  /// would end after 9999-12-29T23:59:59.999Z, the latest supported instant, is reported as
  /// ending then.
  public let endsAt: Date?
  /// When the session completed or was cancelled; `nil` until then.
  public let endedAt: Date?

  private enum CodingKeys: String, CodingKey {
    case phase, startedAt, focusElapsedMs, focusRemainingMs, breakTimeMs, breakEndsAt, endsAt
    case endedAt
  }

  init(
    phase: FocusPhase, startedAt: Int64?, focusElapsed: Int64, focusRemaining: Int64,
    breakTime: Int64, breakEndsAt: Int64?, endsAt: Int64?, endedAt: Int64?
  ) {
    self.phase = phase
    self.startedAt = startedAt.map(Milliseconds.date)
    self.focusElapsed = .milliseconds(focusElapsed)
    self.focusRemaining = .milliseconds(focusRemaining)
    self.breakTime = .milliseconds(breakTime)
    self.breakEndsAt = breakEndsAt.map { Milliseconds.date(min($0, Milliseconds.latest)) }
    self.endsAt = endsAt.map { Milliseconds.date(min($0, Milliseconds.latest)) }
    self.endedAt = endedAt.map(Milliseconds.date)
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func instant(_ key: CodingKeys) throws -> Date? {
      container.contains(key) ? Milliseconds.date(try container.decodeInstant(forKey: key)) : nil
    }
    phase = try container.decode(FocusPhase.self, forKey: .phase)
    startedAt = try instant(.startedAt)
    focusElapsed = try container.decodeMilliseconds(forKey: .focusElapsedMs)
    focusRemaining = try container.decodeMilliseconds(forKey: .focusRemainingMs)
    breakTime = try container.decodeMilliseconds(forKey: .breakTimeMs)
    breakEndsAt = try instant(.breakEndsAt)
    endsAt = try instant(.endsAt)
    endedAt = try instant(.endedAt)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    func instant(_ date: Date?, _ key: CodingKeys) throws {
      if let date, let value = Milliseconds.instant(date) {
        try container.encodeInstant(value, forKey: key)
      }
    }
    try container.encode(phase, forKey: .phase)
    try instant(startedAt, .startedAt)
    try container.encodeMilliseconds(focusElapsed, forKey: .focusElapsedMs)
    try container.encodeMilliseconds(focusRemaining, forKey: .focusRemainingMs)
    try container.encodeMilliseconds(breakTime, forKey: .breakTimeMs)
    try instant(breakEndsAt, .breakEndsAt)
    try instant(endsAt, .endsAt)
    try instant(endedAt, .endedAt)
  }
}
