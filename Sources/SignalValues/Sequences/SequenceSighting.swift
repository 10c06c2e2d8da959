import Foundation
import UsageModel

/// A notification sequence number the app received, and when.
///
/// Sightings are what an app that does not keep a ``/SequenceTracking/SequenceTracker`` can still
/// log: each number it received, with its epoch. ``losses(in:)`` turns a day of them into
/// ``SequenceLoss`` values for gap detection.
///
/// JSON form: `{"epoch": "5f1c0a3be29d4471", "value": 42, "at": "2026-03-08T10:30:00Z"}`.
public struct SequenceSighting: Sendable, Hashable, Codable {
  /// The sequence number received.
  public let number: SequenceNumber
  package let instant: Int64

  /// Creates a sighting.
  ///
  /// - Parameters:
  ///   - number: The sequence number received.
  ///   - at: When it was received; rounded to the millisecond.
  /// - Throws: ``SignalValuesError/invalidValue(field:value:requirement:)`` for an instant out of
  ///   range.
  public init(_ number: SequenceNumber, at: Date) throws(SignalValuesError) {
    self.number = number
    instant = try TimeValues.instant(at, field: "at")
  }

  /// When it was received.
  public var at: Date { Milliseconds.date(instant) }

  /// Finds the numbers missing between sightings.
  ///
  /// Sightings are taken in order of time (equal instants in the order given). Within an epoch,
  /// a number more than one above the highest seen so far leaves a hole, lost between the
  /// sighting of that highest number and this one; a number at or below it (a duplicate, or a
  /// late arrival) loses nothing and fills no hole (a ``/SequenceTracking/SequenceTracker`` keeps
  /// track of late arrivals). The first sighting of a new epoch after another epoch's means the
  /// producer started again from 1, so the numbers of the new epoch below it were lost since the
  /// previous sighting. The numbers below the very first sighting are not counted: nothing says
  /// the app was meant to see them.
  ///
  /// - Parameter sightings: What the app received.
  /// - Returns: The losses, in order of time.
  /// - Complexity: O(*n* log *n*).
  public static func losses(in sightings: [SequenceSighting]) -> [SequenceLoss] {
    let ordered = sightings.enumerated().sorted { left, right in
      (left.element.instant, left.offset) < (right.element.instant, right.offset)
    }.map(\.element)
    var highest: [SequenceEpoch: SequenceSighting] = [:]
    var previous: SequenceSighting?
    var losses: [SequenceLoss] = []
    for sighting in ordered {
      let number = sighting.number
      if let seen = highest[number.epoch] {
        if number.value > seen.number.value {
          if number.value - seen.number.value > 1 {
            let values = (seen.number.value + 1)...(number.value - 1)
            losses.append(
              SequenceLoss(
                range: SequenceRange(epoch: number.epoch, values: values), after: seen.instant,
                before: sighting.instant))
          }
          highest[number.epoch] = sighting
        }
      } else {
        if let previous, number.value > 1 {
          losses.append(
            SequenceLoss(
              range: SequenceRange(epoch: number.epoch, values: 1...(number.value - 1)),
              after: previous.instant, before: sighting.instant))
        }
        highest[number.epoch] = sighting
      }
      previous = sighting
    }
    return losses
  }

  private enum CodingKeys: String, CodingKey {
    case epoch
    case value
    case at
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    number = SequenceNumber(
      epoch: try container.decode(SequenceEpoch.self, forKey: .epoch),
      value: try container.decode(UInt64.self, forKey: .value))
    instant = try container.decodeInstant(forKey: .at)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(number.epoch, forKey: .epoch)
    try container.encode(number.value, forKey: .value)
    try container.encodeInstant(instant, forKey: .at)
  }
}
