import Foundation
import SharedStore
import TestSupport
import Testing

/// The backends every conformance test runs against.
enum StoreBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case inMemory
  case fileDurable
  case fileProcessCrashSafe
  /// A store of an integrator's own that implements values only: its logs come from the
  /// protocol's default implementations, kept in a value through `update`.
  case valueOnly

  /// Whether the backend keeps logs apart from values (`kindMismatch` between them).
  var separatesLogsFromValues: Bool { self != .valueOnly }

  var testDescription: String { rawValue }

  /// A fresh, empty store that keeps its temporary directory alive for as long as it is used.
  func makeStore() throws -> TestStore {
    switch self {
    case .inMemory:
      return TestStore(base: InMemoryStore(), directory: nil)
    case .valueOnly:
      return TestStore(base: ValueOnlyStore(), directory: nil)
    case .fileDurable, .fileProcessCrashSafe:
      let directory = try TemporaryDirectory()
      let store = try FileStore(
        directory: directory.url.appendingPathComponent("store", isDirectory: true),
        durability: self == .fileDurable ? .durable : .processCrashSafe)
      return TestStore(base: store, directory: directory)
    }
  }
}

/// A store under test that owns the temporary directory it lives in.
///
/// A file store lives in the `store` folder of the temporary directory, so that a snapshot of the
/// temporary directory also shows anything written beside the store. Every call is forwarded.
final class TestStore: ForwardingStore {
  let base: any SharedStore
  let directory: TemporaryDirectory?

  init(base: any SharedStore, directory: TemporaryDirectory?) {
    self.base = base
    self.directory = directory
  }
}

/// A store that implements the value requirements only, over an `InMemoryStore`; the log
/// requirements are the protocol's default implementations.
final class ValueOnlyStore: SharedStore {
  let base = InMemoryStore()

  func read(_ key: String) throws(SharedStoreError) -> Data? { try base.read(key) }
  func write(_ data: Data, for key: String) throws(SharedStoreError) {
    try base.write(data, for: key)
  }
  func remove(_ key: String) throws(SharedStoreError) { try base.remove(key) }
  func keys() -> [String] { base.keys() }
  func update<Result>(
    _ key: String, _ body: (inout Data?) throws(SharedStoreError) -> Result
  ) throws(SharedStoreError) -> Result {
    try base.update(key, body)
  }
  func changeToken(for key: String) throws(SharedStoreError) -> ChangeToken? {
    try base.changeToken(for: key)
  }
  func quarantine(_ key: String) throws(SharedStoreError) -> String? { try base.quarantine(key) }
}
