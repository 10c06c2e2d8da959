import Foundation
import SignalValues
import UsageModel

/// One observation that points to a gap, within the time tracking was expected.
///
/// JSON form: `{"kind": "heartbeat_silence", "start": "2026-03-08T10:03:00Z", "end":
/// "2026-03-08T10:18:00Z"}`; a missed sequence adds `"missedFirst": 6, "missedLast": 8,
/// "missedEpoch": "5f1c0a3be29d4471"`.
public struct GapEvidence: Sendable, Hashable, Codable {
  /// The kinds of evidence.
  public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
    /// No heartbeat for longer than ``HealthPolicy/gapAfter``.
    case heartbeatSilence = "heartbeat_silence"
    /// No usage between two consecutive records for longer than
    /// ``HealthPolicy/usageGapAfter``.
    case usageSilence = "usage_silence"
    /// Notification sequence numbers that never arrived.
    case missedSequence = "missed_sequence"

    /// A name to show a person: "heartbeat silence", "usage silence", "missed notifications".
    public var displayName: String {
      switch self {
      case .heartbeatSilence: return "heartbeat silence"
      case .usageSilence: return "usage silence"
      case .missedSequence: return "missed notifications"
      }
    }
  }

  /// What was observed.
  public let kind: Kind
  /// For ``Kind/missedSequence``, the numbers that never arrived, in their epoch.
  public let missed: SequenceRange?
  let startInstant: Int64
  let endInstant: Int64

  init(
    kind: Kind, start: Int64, end: Int64, missed: SequenceRange? = nil
  ) {
    self.kind = kind
    startInstant = start
    endInstant = end
    self.missed = missed
  }

  /// Where the observation starts (clipped to the window in which tracking was expected).
  public var start: Date { Milliseconds.date(startInstant) }
  /// Where it ends (clipped likewise).
  public var end: Date { Milliseconds.date(endInstant) }
  /// How long it lasts, exactly.
  public var duration: Duration { .milliseconds(endInstant - startInstant) }
  /// The observation's interval, from ``start`` to ``end``; its exact length is ``duration``.
  public var interval: DateInterval { TimeValues.interval(startInstant, endInstant) }

  private enum CodingKeys: String, CodingKey {
    case kind
    case start
    case end
    case missedFirst
    case missedLast
    case missedEpoch
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let kind = try container.decode(Kind.self, forKey: .kind)
    let start = try container.decodeInstant(forKey: .start)
    let end = try container.decodeInstant(forKey: .end)
    let first = try container.decodeIfPresent(UInt64.self, forKey: .missedFirst)
    let last = try container.decodeIfPresent(UInt64.self, forKey: .missedLast)
    guard end >= start else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container, debugDescription: "end is before start")
    }
    var missed: SequenceRange?
    switch (kind, first, last) {
    case (.missedSequence, let first?, let last?) where first <= last:
      missed = SequenceRange(
        epoch: try container.decode(SequenceEpoch.self, forKey: .missedEpoch), values: first...last)
    case (.missedSequence, _, _):
      throw DecodingError.dataCorruptedError(
        forKey: .missedFirst, in: container,
        debugDescription: "missed_sequence evidence needs missedFirst <= missedLast")
    default: missed = nil
    }
    self.init(kind: kind, start: start, end: end, missed: missed)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind, forKey: .kind)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
    try container.encodeIfPresent(missed?.values.lowerBound, forKey: .missedFirst)
    try container.encodeIfPresent(missed?.values.upperBound, forKey: .missedLast)
    try container.encodeIfPresent(missed?.epoch, forKey: .missedEpoch)
  }
}
