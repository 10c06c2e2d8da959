import Foundation
import SequenceTracking
import UsageModel

/// Sequence numbers that never arrived, and the stretch of time in which they were lost.
///
/// When the app received number 5 at 10:00 and then number 9 at 10:20, numbers 6...8 were
/// posted and lost between the two: `MissedSequence(numbers: 6...8, after: 10:00, before:
/// 10:20)`. ``GapDetector`` turns the stretch into evidence of a gap.
///
/// Numbers alone are ambiguous across a reinstall or a reset store, which starts numbering
/// afresh: a missed range made from SequenceTracking's values carries its `SequenceEpoch`
/// (``init(missing:after:before:)``, ``init(_:after:before:)``), so that the report says which
/// run the numbers were lost from.
///
/// JSON form: `{"epoch": "5f1c0a3be29d4471", "first": 6, "last": 8, "after":
/// "2026-03-08T10:00:00Z", "before": "2026-03-08T10:20:00Z"}`; `epoch` is omitted when unknown.
public struct MissedSequence: Sendable, Hashable, Codable {
  /// The numbers that never arrived.
  public let numbers: ClosedRange<UInt64>
  /// The numbering run the numbers belong to, when known.
  public let epoch: SequenceEpoch?
  let afterInstant: Int64
  let beforeInstant: Int64

  /// Creates a missed range.
  ///
  /// - Parameters:
  ///   - numbers: The numbers that never arrived.
  ///   - after: When the last number before them was received.
  ///   - before: When the first number after them was received; not before `after`.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range or `before` earlier than `after`.
  public init(numbers: ClosedRange<UInt64>, after: Date, before: Date) throws(GapDetectionError) {
    let afterInstant = try TimeValues.instant(after, field: "after")
    let beforeInstant = try TimeValues.instant(before, field: "before")
    guard beforeInstant >= afterInstant else {
      throw .invalidValue(field: "before", value: "\(before)", requirement: "not before \(after)")
    }
    self.init(numbers: numbers, epoch: nil, after: afterInstant, before: beforeInstant)
  }

  /// Creates a missed range from SequenceTracking's numbers, with their epoch.
  ///
  /// The bridge from an outbox's losses (`OutboxBatch.lost`) or a tracker's observation of a
  /// skip (`SequenceObservation.skipped(_:missing:)`).
  ///
  /// - Parameters:
  ///   - missing: The numbers that never arrived, in their epoch.
  ///   - after: When the last number before them was received (or published).
  ///   - before: When the first number after them was; not before `after`.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range or `before` earlier than `after`.
  public init(missing: SequenceRange, after: Date, before: Date) throws(GapDetectionError) {
    let afterInstant = try TimeValues.instant(after, field: "after")
    let beforeInstant = try TimeValues.instant(before, field: "before")
    guard beforeInstant >= afterInstant else {
      throw .invalidValue(field: "before", value: "\(before)", requirement: "not before \(after)")
    }
    self.init(
      numbers: missing.values, epoch: missing.epoch, after: afterInstant, before: beforeInstant)
  }

  /// The numbers a tracker's observation says were missed, with their epoch, or `nil` when it
  /// says none were.
  ///
  /// `.skipped(_:missing:)` and a `.reset(_:reason:missing:)` that names the numbers of the new
  /// run below the one observed are missed numbers; every other observation is not.
  ///
  /// - Parameters:
  ///   - observation: What a `SequenceTracker` made of a number.
  ///   - after: When the last number before the observed one was received.
  ///   - before: When the observed number was received; not before `after`.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range or `before` earlier than `after`.
  public init?(_ observation: SequenceObservation, after: Date, before: Date)
    throws(GapDetectionError)
  {
    switch observation {
    case .skipped(_, let missing), .reset(_, _, let missing?):
      try self.init(missing: missing, after: after, before: before)
    case .first, .inOrder, .duplicate, .lateArrival, .stale, .reset(_, _, nil):
      return nil
    }
  }

  package init(numbers: ClosedRange<UInt64>, epoch: SequenceEpoch?, after: Int64, before: Int64) {
    self.numbers = numbers
    self.epoch = epoch
    afterInstant = after
    beforeInstant = before
  }

  /// When the last number before the missing ones was received.
  public var after: Date { Milliseconds.date(afterInstant) }
  /// When the first number after the missing ones was received.
  public var before: Date { Milliseconds.date(beforeInstant) }
  /// The stretch in which the numbers were lost, from ``after`` to ``before``; its exact length
  /// is ``duration``.
  public var interval: DateInterval { TimeValues.interval(afterInstant, beforeInstant) }
  /// How long the stretch in which the numbers were lost lasts, exactly.
  public var duration: Duration { .milliseconds(beforeInstant - afterInstant) }
  /// How many numbers were lost; `UInt64.max` for the whole range `0...UInt64.max`, one more
  /// than a `UInt64` holds.
  public var count: UInt64 {
    let (count, overflow) = (numbers.upperBound - numbers.lowerBound).addingReportingOverflow(1)
    return overflow ? .max : count
  }

  /// Finds the numbers missing between consecutive sightings.
  ///
  /// Sightings are taken in order of time (equal instants in the order given). A number more
  /// than one above its predecessor leaves a hole; a number equal to or below it is a duplicate
  /// or a counter reset and loses nothing (SequenceTracking tells the two apart).
  ///
  /// - Parameter sightings: What the app received.
  /// - Returns: The holes, in order of time.
  /// - Complexity: O(*n* log *n*).
  public static func find(in sightings: [SequenceSighting]) -> [MissedSequence] {
    let ordered = sightings.enumerated().sorted { left, right in
      (left.element.instant, left.offset) < (right.element.instant, right.offset)
    }.map(\.element)
    var missed: [MissedSequence] = []
    for (previous, next) in zip(ordered, ordered.dropFirst())
    where next.value > previous.value && next.value - previous.value > 1 {
      missed.append(
        MissedSequence(
          numbers: (previous.value + 1)...(next.value - 1), epoch: nil, after: previous.instant,
          before: next.instant))
    }
    return missed
  }

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
    let first = try container.decode(UInt64.self, forKey: .first)
    let last = try container.decode(UInt64.self, forKey: .last)
    let after = try container.decodeInstant(forKey: .after)
    let before = try container.decodeInstant(forKey: .before)
    guard first <= last, after <= before else {
      throw DecodingError.dataCorruptedError(
        forKey: .last, in: container, debugDescription: "needs first <= last and after <= before")
    }
    self.init(
      numbers: first...last,
      epoch: try container.decodeIfPresent(SequenceEpoch.self, forKey: .epoch), after: after,
      before: before)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(epoch, forKey: .epoch)
    try container.encode(numbers.lowerBound, forKey: .first)
    try container.encode(numbers.upperBound, forKey: .last)
    try container.encodeInstant(afterInstant, forKey: .after)
    try container.encodeInstant(beforeInstant, forKey: .before)
  }
}
