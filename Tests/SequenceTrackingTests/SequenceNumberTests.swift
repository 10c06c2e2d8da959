import Foundation
import SequenceTracking
import SignalValues
import TestSupport
import Testing

@Suite("Sequence numbers, epochs and ranges")
struct SequenceNumberTests {
  @Test("an epoch encodes as 16 lowercase hexadecimal digits")
  func epochJSONForm() throws {
    #expect(try storedJSON(SequenceEpoch(rawValue: 255)) == #""00000000000000ff""#)
    #expect(try storedJSON(SequenceEpoch(rawValue: .max)) == #""ffffffffffffffff""#)
    #expect(
      try decode(SequenceEpoch.self, #""5f1c0a3be29d4471""#).rawValue == 0x5F1C_0A3B_E29D_4471)
  }

  @Test(
    "an epoch that is not 16 lowercase hexadecimal digits does not decode",
    arguments: [
      #""ff""#, #""00000000000000FF""#, #""00000000000000fg""#, #""000000000000000ff""#,
      #""+0000000000000ff""#, "255", #""""#,
    ])
  func malformedEpochIsRejected(json: String) {
    #expect(throws: DecodingError.self) { try decode(SequenceEpoch.self, json) }
  }

  @Test("random epochs come from the generator")
  func randomEpochUsesGenerator() {
    var first = SplitMix64(seed: 7)
    var second = SplitMix64(seed: 7)
    var other = SplitMix64(seed: 8)
    let epoch = SequenceEpoch.random(using: &first)
    #expect(epoch == SequenceEpoch.random(using: &second))
    #expect(epoch != SequenceEpoch.random(using: &other))
  }

  @Test("a number encodes as its epoch and value")
  func numberJSONForm() throws {
    let json = #"{"epoch":"000000000000000a","value":42}"#
    #expect(try storedJSON(number(42)) == json)
    #expect(try decode(SequenceNumber.self, json) == number(42))
    #expect(number(42).description == "42@000000000000000a")
  }

  @Test("numbers are ordered within an epoch and never across epochs")
  func precedesOnlyWithinAnEpoch() {
    #expect(number(1).precedes(number(2)))
    #expect(!number(2).precedes(number(1)))
    #expect(!number(2).precedes(number(2)))
    #expect(!number(1, .a).precedes(number(2, .b)))
    #expect(!number(2, .b).precedes(number(1, .a)))
  }

  @Test("a range encodes as epoch, first and last, and counts both ends")
  func rangeJSONForm() throws {
    let json = #"{"epoch":"000000000000000a","first":5,"last":7}"#
    #expect(try storedJSON(range(5...7)) == json)
    #expect(try decode(SequenceRange.self, json) == range(5...7))
    #expect(range(5...7).count == 3)
    #expect(range(5...5).count == 1)
    #expect(range(5...7).first == number(5))
    #expect(range(5...7).last == number(7))
    #expect(range(5...7).description == "5...7@000000000000000a")
    #expect(range(5...5).description == "5@000000000000000a")
  }

  @Test("a range whose last value is before its first does not decode")
  func backwardsRangeIsRejected() {
    #expect(throws: DecodingError.self) {
      try decode(SequenceRange.self, #"{"epoch":"000000000000000a","first":7,"last":5}"#)
    }
  }

  @Test("the count of a range over every value saturates instead of trapping")
  func fullRangeCountSaturates() {
    #expect(range(0...UInt64.max).count == UInt64.max)
  }

  @Test("a range contains numbers of its epoch only")
  func rangeContainsOnlyItsEpoch() {
    #expect(range(5...7).contains(number(6)))
    #expect(!range(5...7).contains(number(8)))
    #expect(!range(5...7).contains(number(6, .b)))
  }
}
