import Foundation
import UsageModel

/// Sequence numbers of one epoch that never arrived, and the stretch of time in which they were
/// lost.
///
/// When the app received number 5 at 10:00 and then number 9 at 10:20, numbers 6...8 of that
/// run were posted and lost between the two: `SequenceLoss(range: 6...8@epoch, after: 10:00,
/// before: 10:20)`. GapDetection's ``/GapDetection/GapDetector`` turns the stretch into evidence of
/// a gap.
///
/// This is the one vocabulary for lost notifications: a ``SequenceRange`` says *which* numbers
/// were lost (always with their ``SequenceEpoch``, since numbering starts afresh after a
/// reinstall or a reset store), and a ``SequenceLoss`` adds *when*. The ranges come from whoever
/// saw the numbers: SequenceTracking's `SequenceObservation.missing` and `OutboxBatch.lost`, or
/// ``SequenceSighting/losses(in:)`` for a list of sightings.
///
/// ```swift
/// if let missing = tracker.observe(number).missing {
///   losses.append(try SequenceLoss(range: missing, after: lastReceivedAt, before: now))
/// }
/// ```
///
/// JSON form: `{"epoch": "5f1c0a3be29d4471", "first": 6, "last": 8, "after":
/// "2026-03-08T10:00:00Z", "before": "2026-03-08T10:20:00Z"}`: the ``SequenceRange``'s fields and
/// the two instants.
public struct SequenceLoss: Sendable, Hashable, Codable {
  /// The numbers that never arrived, in their epoch.
  public let range: SequenceRange
  package let afterInstant: Int64
  package let beforeInstant: Int64

  /// Creates a loss.
  ///
  /// - Parameters:
  ///   - range: The numbers that never arrived, in their epoch.
  ///   - after: When the last number before them was received (or published).
  ///   - before: When the first number after them was; not before `after`.
  /// - Throws: ``SignalValuesError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range or `before` earlier than `after`.
  public init(range: SequenceRange, after: Date, before: Date) throws(SignalValuesError) {
    let afterInstant = try TimeValues.instant(after, field: "after")
    let beforeInstant = try TimeValues.instant(before, field: "before")
    guard beforeInstant >= afterInstant else {
      throw .invalidValue(field: "before", value: "\(before)", requirement: "not before \(after)")
    }
    self.init(range: range, after: afterInstant, before: beforeInstant)
  }

  package init(range: SequenceRange, after: Int64, before: Int64) {
    self.range = range
    afterInstant = after
    beforeInstant = before
  }

  /// When the last number before the missing ones was received.
  public var after: Date { Milliseconds.date(afterInstant) }
  /// When the first number after the missing ones was received.
  public var before: Date { Milliseconds.date(beforeInstant) }
  /// The stretch in which the numbers were lost, from ``after`` to ``before``; its exact length
  /// is ``duration``.
  public var interval: DateInterval { Milliseconds.interval(afterInstant, beforeInstant) }
  /// How long the stretch in which the numbers were lost lasts, exactly.
  public var duration: Duration { .milliseconds(beforeInstant - afterInstant) }
  /// How many numbers were lost; see ``SequenceRange/count``.
  public var count: UInt64 { range.count }

  private enum CodingKeys: String, CodingKey {
    case epoch
    case first
    case last
    case after
    case before
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let epoch = try container.decode(SequenceEpoch.self, forKey: .epoch)
    let first = try container.decode(UInt64.self, forKey: .first)
    let last = try container.decode(UInt64.self, forKey: .last)
    let after = try container.decodeInstant(forKey: .after)
    let before = try container.decodeInstant(forKey: .before)
    guard first <= last, after <= before else {
      throw DecodingError.dataCorruptedError(
        forKey: .last, in: container, debugDescription: "needs first <= last and after <= before")
    }
    self.init(
      range: SequenceRange(epoch: epoch, values: first...last), after: after, before: before)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(range.epoch, forKey: .epoch)
    try container.encode(range.values.lowerBound, forKey: .first)
    try container.encode(range.values.upperBound, forKey: .last)
    try container.encodeInstant(afterInstant, forKey: .after)
    try container.encodeInstant(beforeInstant, forKey: .before)
  }
}
