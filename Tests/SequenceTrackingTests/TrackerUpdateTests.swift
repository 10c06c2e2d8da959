import SequenceTracking
import SharedStore
import SignalValues
import Testing

/// The documented way to observe a head through a store compiles as written — no unused-result
/// warning, no catch for errors that cannot happen — and behaves as documented.
///
/// This file is a proof by compilation: the package builds its tests with warnings as errors, so
/// `update` must be `@discardableResult` and, with a body that cannot throw, must throw
/// `SharedStoreError` alone for the typed functions below to build.
@Suite("Observing through a store update")
struct TrackerUpdateTests {
  static let trackerKey = StoreKey("usage-tracker", default: SequenceTracker())

  /// The snippet of the documentation, observing and ignoring the observation.
  static func observe(_ head: SequenceNumber, in store: any SharedStore) throws(SharedStoreError) {
    try store.update(trackerKey) { $0.observeHead(head) }
  }

  /// The snippet of the documentation, keeping the observation.
  static func observation(of head: SequenceNumber, in store: any SharedStore)
    throws(SharedStoreError) -> SequenceObservation
  {
    try store.update(trackerKey) { tracker in tracker.observeHead(head) }
  }

  @Test("a head observed through update without using the result is still recorded")
  func ignoredObservationIsRecorded() throws {
    let store = InMemoryStore()
    try Self.observe(number(3), in: store)
    let observation = try Self.observation(of: number(6), in: store)
    #expect(observation == .gap(number(6), missing: range(4...5)))
    #expect(try store.value(for: Self.trackerKey).statistics.missed == 2)
  }

  @Test("an observation's store error is caught as a SharedStoreError, with nothing else to catch")
  func storeErrorIsTyped() {
    let store = InMemoryStore()
    let badKey = StoreKey("usage/tracker", default: SequenceTracker())
    do {
      try store.update(badKey) { $0.observeHead(number(1)) }
      Issue.record("an invalid key was accepted")
    } catch {
      let typed: SharedStoreError = error
      #expect(
        typed == .invalidKey(key: "usage/tracker", reason: .disallowedCharacter("/", offset: 5)))
    }
  }
}
