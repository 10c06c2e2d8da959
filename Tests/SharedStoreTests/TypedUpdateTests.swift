import Foundation
import SharedStore
import TestSupport
import Testing

/// `update` with a body that cannot fail throws only the store's typed error and its result may
/// be ignored; a body that throws keeps its own error, and nothing is written.
///
/// Several of these tests are proofs by compilation: the package builds its tests with warnings
/// as errors, so an unused result or an untyped error here would fail the build.
@Suite("Typed updates")
struct TypedUpdateTests {
  struct Refused: Error, Equatable {
    var reason = "no"
  }

  /// Bumps a counter from a function whose errors are typed: this compiles only if the
  /// non-throwing-body update throws `SharedStoreError` and its result is discardable.
  static func bump(_ key: StoreKey<Int>, in store: any SharedStore) throws(SharedStoreError) {
    try store.update(key) { $0 += 1 }
    try store.update(key) { value -> Int in
      value += 1
      return value
    }
    try store.update(key) { (value: inout Int) -> Void in value += 1 }
    try store.update(key.name) { data in data?.count ?? 0 }
    try store.update(key.name) { (data: inout Data?) -> Int in data?.count ?? 0 }
  }

  @Test("an update whose body cannot throw throws only SharedStoreError")
  func nonThrowingBodyHasTypedThrows() throws {
    let store = InMemoryStore()
    let key = StoreKey("counter", default: 0)
    try Self.bump(key, in: store)
    #expect(try store.value(for: key) == 3)
    do {
      try store.update(StoreKey("not/valid", default: 0)) { $0 += 1 }
      Issue.record("an invalid key was accepted")
    } catch {
      let typed: SharedStoreError = error
      #expect(typed == .invalidKey(key: "not/valid", reason: .disallowedCharacter("/", offset: 3)))
    }
  }

  @Test("a typed update's result can be ignored or used")
  func resultIsDiscardable() throws {
    let store = InMemoryStore()
    let key = StoreKey("counter", default: 10)
    try store.update(key) { value -> Int in
      value += 1
      return value
    }
    let ticket = try store.update(key) { value -> Int in
      value += 1
      return value
    }
    #expect(ticket == 12)
  }

  @Test(
    "a body's own error propagates unchanged and nothing is written, not even the default",
    arguments: StoreBackend.allCases)
  func throwingBodyWritesNothing(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let absent = StoreKey("absent", default: 5)
    #expect(throws: Refused()) {
      try store.update(absent) { value in
        value = 6
        throw Refused()
      }
    }
    #expect(try store.read("absent") == nil)

    let present = StoreKey("present", default: 0)
    try store.set(1, for: present)
    let token = try store.changeToken(for: "present")
    #expect(throws: Refused(reason: "typed")) {
      try store.update(present) { (value: inout Int) throws(Refused) -> Void in
        value = 2
        throw Refused(reason: "typed")
      }
    }
    #expect(try store.value(for: present) == 1)
    #expect(try store.changeToken(for: "present") == token)
  }

  @Test("a body that throws still returns its result when it does not throw")
  func throwingBodyReturnsResult() throws {
    let store = InMemoryStore()
    let key = StoreKey("counter", default: 0)
    func check(_ value: Int) throws -> Int {
      guard value < 100 else { throw Refused() }
      return value
    }
    let untyped = try store.update(key) { value in
      value = try check(value + 1)
      return value
    }
    let typed = try store.update(key) { (value: inout Int) throws(Refused) -> Int in
      guard value < 100 else { throw Refused() }
      value += 1
      return value
    }
    let raw = try store.update("raw") { (data: inout Data?) throws -> Bool in
      data = Data([UInt8(try check(7))])
      return true
    }
    #expect(untyped == 1)
    #expect(typed == 2)
    #expect(raw)
    #expect(try store.read("raw") == Data([7]))
    #expect(try store.value(for: key) == 2)
  }

  @Test("a raw update's body that throws has its changes undone", arguments: StoreBackend.allCases)
  func rawThrowingBodyIsUndone(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    #expect(throws: Refused()) {
      try store.update("k") { (data: inout Data?) throws(Refused) -> Void in
        data = Data([1])
        throw Refused()
      }
    }
    #expect(try store.read("k") == nil)
    #expect(try store.changeToken(for: "k") == nil)
  }

  @Test("a store error from a throwing-body update is still a SharedStoreError")
  func storeErrorOfThrowingBody() {
    let store = InMemoryStore()
    #expect(throws: SharedStoreError.invalidKey(key: "", reason: .empty)) {
      try store.update(StoreKey("", default: 0)) { (_: inout Int) throws(Refused) in }
    }
  }
}
