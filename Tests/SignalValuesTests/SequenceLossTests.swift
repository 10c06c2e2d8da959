import Foundation
import SignalValues
import TestSupport
import Testing

/// One vocabulary for a lost notification: a range of one epoch, and when it was lost.
@Suite("Sequence losses and sightings")
struct SequenceLossTests {
  let epoch = SequenceEpoch(rawValue: 0xA1)

  @Test("a loss keeps the JSON form of MissedSequence with an epoch, byte for byte")
  func lossJSON() throws {
    let loss = try SequenceLoss(
      range: SequenceRange(epoch: epoch, values: 6...8),
      after: instant("2026-03-08T10:00:00Z"), before: instant("2026-03-08T10:20:00.250Z"))
    let text =
      #"{"after":"2026-03-08T10:00:00Z","before":"2026-03-08T10:20:00.250Z","#
      + #""epoch":"00000000000000a1","first":6,"last":8}"#
    #expect(try json(loss) == text)
    #expect(try decode(SequenceLoss.self, text) == loss)
    #expect(loss.count == 3)
    #expect(loss.duration == .milliseconds(1_200_250))
  }

  @Test("a loss without an epoch, or with its ends reversed, does not decode")
  func lossRejects() throws {
    #expect(throws: DecodingError.self) {
      try decode(
        SequenceLoss.self,
        #"{"first":6,"last":8,"after":"2026-03-08T10:00:00Z","before":"2026-03-08T10:20:00Z"}"#)
    }
    #expect(throws: SignalValuesError.self) {
      try SequenceLoss(
        range: SequenceRange(epoch: epoch, values: 6...8),
        after: instant("2026-03-08T10:20:00Z"), before: instant("2026-03-08T10:00:00Z"))
    }
  }

  @Test("sightings lose the numbers above the highest of their epoch, and a new run's first ones")
  func sightings() throws {
    let other = SequenceEpoch(rawValue: 0xB2)
    let t0 = try instant("2026-03-08T09:00:00Z")
    func seen(_ value: UInt64, _ epoch: SequenceEpoch, _ minute: Double) throws
      -> SequenceSighting
    {
      try SequenceSighting(
        SequenceNumber(epoch: epoch, value: value), at: t0.addingTimeInterval(minute * 60))
    }
    let losses = SequenceSighting.losses(in: [
      try seen(3, epoch, 0), try seen(5, epoch, 1), try seen(4, epoch, 2), try seen(5, epoch, 3),
      try seen(4, other, 4), try seen(6, epoch, 5),
    ])
    #expect(
      losses.map(\.range) == [
        SequenceRange(epoch: epoch, values: 4...4), SequenceRange(epoch: other, values: 1...3),
      ])
    #expect(losses.map(\.after) == [t0, t0.addingTimeInterval(180)])
    #expect(losses.map(\.before) == [t0.addingTimeInterval(60), t0.addingTimeInterval(240)])
  }

  @Test("a sighting's JSON form carries its epoch")
  func sightingJSON() throws {
    let text = #"{"at":"2026-03-08T09:00:00Z","epoch":"00000000000000a1","value":7}"#
    let sighting = try decode(SequenceSighting.self, text)
    #expect(sighting.number == SequenceNumber(epoch: epoch, value: 7))
    #expect(try json(sighting) == text)
  }
}
