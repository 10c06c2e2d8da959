import Foundation
import SharedStore
import TestSupport
import Testing

/// A key's default given as a closure is built once, when first needed, and its failure is an
/// error, never a fallback.
@Suite("StoreKey lazy defaults")
struct LazyDefaultTests {
  /// A default whose construction can fail, like a validated configuration.
  struct Thresholds: Codable, Sendable, Equatable {
    var percents: [Int]

    struct Invalid: Error, CustomStringConvertible {
      var description: String { "thresholds must be between 1 and 100" }
    }

    init(_ percents: [Int]) throws {
      guard percents.allSatisfy({ (1...100).contains($0) }) else { throw Invalid() }
      self.percents = percents
    }
  }

  /// A default closure that counts its runs and fails while `failures` is positive.
  final class Builder: Sendable {
    private let state: LockedValue<(runs: Int, failures: Int)>

    init(failures: Int = 0) {
      state = LockedValue((0, failures))
    }

    var runs: Int { state.withLock { $0.runs } }

    func build() throws -> Thresholds {
      let fail = state.withLock { state -> Bool in
        state.runs += 1
        guard state.failures > 0 else { return false }
        state.failures -= 1
        return true
      }
      return try Thresholds(fail ? [0] : [50, 80])
    }
  }

  @Test("a default closure reads naturally as a trailing closure and is not run on declaration")
  func trailingClosureDeclaresWithoutRunning() throws {
    let builder = Builder()
    let key = StoreKey("alerts") { try builder.build() }
    #expect(builder.runs == 0)
    #expect(try InMemoryStore().value(for: key) == Thresholds([50, 80]))
    #expect(builder.runs == 1)
  }

  @Test("the default is built once and kept, by every copy of the key, for every store")
  func defaultIsBuiltOnce() throws {
    let builder = Builder()
    let key = StoreKey("alerts") { try builder.build() }
    let copy = key
    for _ in 0..<3 {
      _ = try InMemoryStore().value(for: key)
      _ = try InMemoryStore().value(for: copy)
      _ = try key.defaultValue
    }
    try InMemoryStore().update(copy) { $0.percents.append(100) }
    #expect(builder.runs == 1)
    #expect(
      try key.defaultValue == Thresholds([50, 80]), "an update changes a copy, not the default")
  }

  @Test("the default is not built while a value is stored")
  func storedValueNeedsNoDefault() throws {
    let builder = Builder()
    let key = StoreKey("alerts") { try builder.build() }
    let store = InMemoryStore()
    try store.set(Thresholds([90]), for: key)
    #expect(try store.value(for: key) == Thresholds([90]))
    try store.update(key) { $0.percents.append(95) }
    #expect(builder.runs == 0)
  }

  @Test("threads asking at once for a default build it once")
  func concurrentFirstUseBuildsOnce() async throws {
    let builder = Builder()
    let key = StoreKey("alerts") { try builder.build() }
    let store = InMemoryStore()
    try await withThrowingTaskGroup(of: Thresholds.self) { group in
      for _ in 0..<64 {
        group.addTask { try store.value(for: key) }
      }
      for try await value in group {
        #expect(value.percents == [50, 80])
      }
    }
    #expect(builder.runs == 1)
  }

  @Test("a default that throws is defaultValueFailed with the key, the type and the reason")
  func throwingDefaultIsTypedError() throws {
    let key = StoreKey("alerts") { try Thresholds([0]) }
    let expected = SharedStoreError.defaultValueFailed(
      key: "alerts", type: "Thresholds", description: "thresholds must be between 1 and 100")
    #expect(throws: expected) { try InMemoryStore().value(for: key) }
    #expect(throws: expected) { try key.defaultValue }
    #expect(expected.description.contains("'alerts'"))
    #expect(expected.description.contains("between 1 and 100"))
  }

  @Test(
    "an update that needs a failing default writes nothing, and the next use builds it again",
    arguments: StoreBackend.allCases)
  func failedDefaultIsRetried(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    let builder = Builder(failures: 2)
    let key = StoreKey("alerts") { try builder.build() }
    var bodyRuns = 0
    for _ in 0..<2 {
      #expect(throws: SharedStoreError.self) {
        try store.update(key) { _ in bodyRuns += 1 }
      }
    }
    #expect(bodyRuns == 0)
    #expect(try store.read("alerts") == nil, "no fallback value was written")
    #expect(try store.value(for: key) == Thresholds([50, 80]))
    #expect(builder.runs == 3)
    _ = try store.value(for: key)
    #expect(builder.runs == 3, "only success is kept")
  }

  @Test("a lazy key stores its values with its codec")
  func lazyKeyKeepsCodec() throws {
    let codec = StoreCodec<Int>(
      encode: { Data(String($0).utf8) },
      decode: { data in
        guard let value = Int(String(decoding: data, as: UTF8.self)) else {
          throw CocoaError(.coderReadCorrupt)
        }
        return value
      })
    let key = StoreKey("count", codec: codec) { 41 }
    let store = InMemoryStore()
    try store.update(key) { $0 += 1 }
    #expect(try store.read("count") == Data("42".utf8))
    #expect(try store.value(for: key) == 42)
  }

  @Test("a key with a given default never fails to produce it")
  func givenDefaultIsReturned() throws {
    let key = StoreKey("count", default: 7)
    #expect(try key.defaultValue == 7)
    #expect(try InMemoryStore().value(for: key) == 7)
  }
}
