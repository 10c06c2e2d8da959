import SequenceTracking
import SharedStore
import TestSupport
import Testing

@Suite("SequenceTracking errors")
struct SequenceTrackingErrorTests {
  static let errors: [(SequenceTrackingError, [String])] = [
    (.store(.invalidKey(key: "a/b", reason: .disallowedCharacter("/", offset: 1))), ["a/b"]),
    (
      .notDurable(committed: .published(range(5...6)), key: "outbox", path: "/d", errno: .ioError),
      [
        "'outbox'", "entries 5...6@000000000000000a were published and notified", "'/d'",
        "errno 5", "Do not retry",
      ]
    ),
    (
      .notDurable(committed: .issued(number(9)), key: "sequence", path: "/d", errno: .ioError),
      ["number 9@000000000000000a was handed out", "Do not retry"]
    ),
    (
      .notDurable(
        committed: .drained(
          applied: range(2...3), lost: range(1...1), reset: .rewritten(at: 1),
          cursor: OutboxCursor(after: number(3))),
        key: "consumer", path: "/d", errno: .ioError),
      [
        "entries 2...3@000000000000000a were applied", "1@000000000000000a reported lost",
        "entry 1 was rewritten", "moved after 3@000000000000000a",
      ]
    ),
    (.exhausted(key: "sequence"), ["'sequence'", "remove the key"]),
    (.invalidCapacity(key: "outbox", capacity: 0), ["'outbox'", "at least 1", "not 0"]),
    (.sameKeyAsOutbox(key: "outbox"), ["'outbox'", "choose another key"]),
    (
      .corruptedOutbox(key: "outbox", reason: "bad header"),
      ["'outbox'", "bad header", "quarantine"]
    ),
    (.unsupportedOutboxFormat(key: "outbox", found: 2, supported: 1), ["version 2", "version 1"]),
    (.payloadEncoding(key: "outbox", type: "Double", description: "NaN"), ["Double", "NaN"]),
    (
      .payloadDecoding(key: "outbox", number: number(7), type: "Int", description: "not a number"),
      ["7@000000000000000a", "Int", "not a number", "Nothing was applied", "skip"]
    ),
  ]

  @Test("each error's description names what failed and what to do", arguments: errors)
  func descriptionIsActionable(error: SequenceTrackingError, fragments: [String]) {
    for fragment in fragments {
      #expect(error.description.contains(fragment), "\(error.description)")
    }
  }
  @Test("storeError returns the wrapped store error")
  func storeErrorOfStoreCase() {
    let wrapped = SharedStoreError.io(operation: "open", path: "/d/k", errno: .noSpace)
    #expect(SequenceTrackingError.store(wrapped).storeError == wrapped)
  }

  @Test("storeError of notDurable is the store's notDurable with the same key, path and errno")
  func storeErrorOfNotDurable() {
    let error = SequenceTrackingError.notDurable(
      committed: .issued(number(9)), key: "sequence", path: "/d", errno: .ioError)
    #expect(error.storeError == .notDurable(key: "sequence", path: "/d", errno: .ioError))
    guard case .notDurable(_, _, .ioError)? = error.storeError else {
      Issue.record("the error number is not matchable by name")
      return
    }
  }

  /// The errors of SequenceTracking itself, not wrapping a store's.
  ///
  /// A property, not a closure in `@Test`'s arguments, which crashes the Swift 6.0 compiler.
  static let ownErrors = errors.map(\.0).filter {
    switch $0 {
    case .store, .notDurable: return false
    default: return true
    }
  }

  @Test("storeError is nil for the errors of SequenceTracking itself", arguments: ownErrors)
  func storeErrorOfOwnErrorsIsNil(error: SequenceTrackingError) {
    #expect(error.storeError == nil)
  }

  @Test("a store failure during a publish is found through storeError")
  func storeFailureIsFoundThroughStoreError() throws {
    let fixture = try NotDurableTests.Fixture()
    let outbox = try SequencedOutbox<Int>(store: fixture.store, key: "outbox", capacity: 10)
    fixture.fileSystem.failNextFlushOfAChange()
    do {
      try outbox.publish(1) { _ in }
      Issue.record("the publish did not report the failed flush")
    } catch {
      guard case .notDurable(let key, _, .ioError)? = error.storeError else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(key == "outbox")
    }
  }
}
