import Foundation
import UsageModel

/// A stretch of expected tracking time without usage, with its class and the evidence for it.
///
/// Gaps come from ``GapDetector``, sorted and never overlapping; two gaps of different classes
/// may touch. Every piece of evidence that overlaps a gap is attached to it, so a tracker-down
/// gap may also carry the usage silence around it.
///
/// JSON form: `{"class": "tracker_down", "start": "2026-03-08T10:03:00Z", "end":
/// "2026-03-08T10:18:00Z", "durationMs": 900000, "ongoing": false, "evidence": [GapEvidence,
/// …]}`.
public struct Gap: Sendable, Hashable, Codable {
  /// What the gap means for usage.
  public let classification: GapClass
  /// The observations that overlap the gap, sorted by start.
  public let evidence: [GapEvidence]
  /// Whether the gap reaches the instant of the analysis (it may still be growing).
  public let isOngoing: Bool
  let startInstant: Int64
  let endInstant: Int64

  init(
    classification: GapClass, start: Int64, end: Int64, evidence: [GapEvidence], isOngoing: Bool
  ) {
    self.classification = classification
    startInstant = start
    endInstant = end
    self.evidence = evidence
    self.isOngoing = isOngoing
  }

  /// Where the gap starts.
  public var start: Date { Milliseconds.date(startInstant) }
  /// Where the gap ends.
  public var end: Date { Milliseconds.date(endInstant) }
  /// How long it lasts, exactly.
  public var duration: Duration { .milliseconds(endInstant - startInstant) }
  /// The gap's interval, from ``start`` to ``end``; its exact length is ``duration``.
  public var interval: DateInterval { TimeValues.interval(startInstant, endInstant) }

  private enum CodingKeys: String, CodingKey {
    case classification = "class"
    case start
    case end
    case durationMs
    case ongoing
    case evidence
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let start = try container.decodeInstant(forKey: .start)
    let end = try container.decodeInstant(forKey: .end)
    guard end >= start else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container, debugDescription: "end is before start")
    }
    self.init(
      classification: try container.decode(GapClass.self, forKey: .classification), start: start,
      end: end, evidence: try container.decode([GapEvidence].self, forKey: .evidence),
      isOngoing: try container.decode(Bool.self, forKey: .ongoing))
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(classification, forKey: .classification)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
    try container.encode(endInstant - startInstant, forKey: .durationMs)
    try container.encode(isOngoing, forKey: .ongoing)
    try container.encode(evidence, forKey: .evidence)
  }
}
