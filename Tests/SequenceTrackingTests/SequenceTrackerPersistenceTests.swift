import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing

@Suite("Sequence tracker persistence")
struct SequenceTrackerPersistenceTests {
  static let trackerKey = StoreKey("tracker", default: SequenceTracker())

  @Test("the tracker's JSON form is stable")
  func trackerJSONForm() throws {
    var tracker = SequenceTracker()
    for value: UInt64 in [1, 2, 3, 7] { tracker.observe(number(value, .b)) }
    for value: UInt64 in [1, 2, 5, 5, 9, 4] { tracker.observe(number(value)) }
    tracker.observe(number(3, .b))
    let json =
      #"{"counts":{"duplicates":1,"givenUp":3,"received":9,"recovered":1,"resets":1,"stale":1},"#
      + #""run":{"epoch":"000000000000000a","floor":1,"highest":9,"#
      + #""outstanding":[{"first":3,"last":3},{"first":6,"last":8}],"#
      + #""retired":["000000000000000b"]}}"#
    #expect(try storedJSON(tracker) == json)
    #expect(try decode(SequenceTracker.self, json) == tracker)
  }

  @Test("a tracker that has observed nothing encodes without a run, its zero counts left out")
  func emptyTrackerJSONForm() throws {
    #expect(try storedJSON(SequenceTracker()) == #"{"counts":{}}"#)
    let spelledOut =
      #"{"counts":{"duplicates":0,"givenUp":0,"received":0,"recovered":0,"resets":0,"stale":0}}"#
    #expect(try decode(SequenceTracker.self, spelledOut) == SequenceTracker())
  }

  @Test("zero counts and empty lists are left out, and read back as zero and empty")
  func compactTrackerJSONForm() throws {
    var tracker = SequenceTracker()
    for value: UInt64 in 1...3 {
      _ = tracker.observe(SequenceNumber(epoch: SequenceEpoch(rawValue: 10), value: value))
    }
    let json =
      #"{"counts":{"received":3},"run":{"epoch":"000000000000000a","floor":1,"highest":3}}"#
    #expect(try storedJSON(tracker) == json)
    #expect(try decode(SequenceTracker.self, json) == tracker)
  }

  @Test("a tracker stored before stale counts and retired epochs existed still decodes")
  func trackerWithoutStaleOrRetiredDecodes() throws {
    let json =
      #"{"counts":{"duplicates":1,"givenUp":0,"received":5,"recovered":1,"resets":0},"#
      + #""run":{"epoch":"000000000000000a","floor":1,"highest":9,"#
      + #""outstanding":[{"first":3,"last":3},{"first":6,"last":8}]}}"#
    var tracker = try decode(SequenceTracker.self, json)
    #expect(tracker.retiredEpochs == [])
    #expect(
      tracker.statistics
        == SequenceStatistics(received: 5, missed: 4, recovered: 1, duplicates: 1))
    #expect(tracker.observe(number(3)) == .lateArrival(number(3)))
  }

  @Test("statistics encode every count but not the derived delivery rate")
  func statisticsJSONForm() throws {
    let statistics = SequenceStatistics(
      received: 7, missed: 2, recovered: 1, duplicates: 1, resets: 0, givenUp: 0, stale: 3)
    let json =
      #"{"duplicates":1,"givenUp":0,"missed":2,"received":7,"recovered":1,"resets":0,"stale":3}"#
    #expect(try storedJSON(statistics) == json)
    #expect(try decode(SequenceStatistics.self, json) == statistics)
    let earlier = #"{"duplicates":1,"givenUp":0,"missed":2,"received":7,"recovered":1,"resets":0}"#
    #expect(
      try decode(SequenceStatistics.self, earlier)
        == SequenceStatistics(received: 7, missed: 2, recovered: 1, duplicates: 1))
  }

  static let invalidRuns: [String] = [
    #""floor":5,"highest":4,"outstanding":[]"#,
    #""floor":1,"highest":9,"outstanding":[{"first":4,"last":3}]"#,
    #""floor":1,"highest":9,"outstanding":[{"first":5,"last":6},{"first":2,"last":3}]"#,
    #""floor":1,"highest":9,"outstanding":[{"first":2,"last":3},{"first":4,"last":5}]"#,
    #""floor":1,"highest":9,"outstanding":[{"first":2,"last":4},{"first":4,"last":5}]"#,
    #""floor":3,"highest":9,"outstanding":[{"first":2,"last":4}]"#,
    #""floor":1,"highest":9,"outstanding":[{"first":8,"last":9}]"#,
    #""floor":1,"highest":9,"outstanding":[],"retired":["000000000000000a"]"#,
    #""floor":1,"highest":9,"outstanding":[],"retired":["000000000000000b","000000000000000b"]"#,
    #""floor":1,"highest":9,"outstanding":[],"retired":["#
      + (1...5).map { #""000000000000000\#($0)""# }.joined(separator: ",") + "]",
  ]

  @Test("a stored run that breaks the tracker's rules does not decode", arguments: invalidRuns)
  func invalidRunIsRejected(run: String) {
    let json =
      #"{"counts":{"duplicates":0,"givenUp":0,"received":0,"recovered":0,"resets":0},"#
      + #""run":{"epoch":"000000000000000a","# + run + "}}"
    #expect(throws: DecodingError.self) { try decode(SequenceTracker.self, json) }
  }

  @Test("a stored run with more holes than the limit does not decode")
  func tooManyHolesIsRejected() {
    let holes = (0...SequenceTracker.outstandingRangeLimit).map {
      #"{"first":\#(2 * $0 + 2),"last":\#(2 * $0 + 2)}"#
    }
    let json =
      #"{"counts":{"duplicates":0,"givenUp":0,"received":0,"recovered":0,"resets":0},"#
      + #""run":{"epoch":"000000000000000a","floor":1,"highest":1000,"outstanding":["#
      + holes.joined(separator: ",") + "]}}"
    #expect(throws: DecodingError.self) { try decode(SequenceTracker.self, json) }
  }

  @Test(
    "the range missed while the consumer was not running is reported after a relaunch",
    arguments: Backend.allCases)
  func missedWhileNotRunning(backend: Backend) throws {
    let (store, directory) = try backend.makeStore()
    _ = directory
    // First launch: the consumer sees 1 to 3.
    for value: UInt64 in 1...3 {
      try store.update(Self.trackerKey) { tracker in tracker.observe(number(value)) }
    }
    // The app is killed; 4 to 6 are published while it is not running; it relaunches with only
    // what the store kept and is woken for 7.
    let relaunched = try store.update(Self.trackerKey) { tracker in
      tracker.observeHead(number(7))
    }
    #expect(relaunched == .gap(number(7), missing: range(4...6)))
    #expect(try store.value(for: Self.trackerKey).statistics.missed == 3)
  }

  @Test("a restored tracker behaves exactly like the one that was stored")
  func restoredTrackerContinues() throws {
    var original = SequenceTracker()
    for value: UInt64 in [3, 7, 5, 12] { original.observe(number(value)) }
    var restored = try JSONDecoder().decode(
      SequenceTracker.self, from: JSONEncoder().encode(original))
    for value: UInt64 in [4, 6, 13, 1, 8, 8] {
      #expect(restored.observe(number(value)) == original.observe(number(value)))
    }
    #expect(restored == original)
  }
}
