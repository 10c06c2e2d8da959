import Foundation
import SharedStore
import SharedStoreTesting
import Testing

/// The kit must be able to fail: a backend that breaks one rule on purpose fails the check of
/// that rule, and the failure names the check, the key, and what was expected and seen.
@Suite("SharedStoreConformance catches broken backends")
struct BrokenBackendTests {
  @Test("a correct backend passes every check")
  func correctBackendPasses() throws {
    let conformance = SharedStoreConformance { InMemoryStore() }
    #expect(conformance.failures() == [])
    try conformance.run()
  }

  @Test(
    "control: a backend that breaks a rule fails the check of that rule", arguments: Broken.allCases
  )
  func brokenBackendFails(broken: Broken) throws {
    let conformance = SharedStoreConformance(
      configuration: .init(concurrentThreads: 8, operationsPerThread: 50)
    ) { broken.makeStore() }
    let failures = conformance.failures()
    let failure = try #require(
      failures.first { $0.check == broken.caughtBy },
      "\(broken.caughtBy) did not catch it; failures: \(failures.map(\.check))")
    #expect(failure.key == broken.key)
    #expect(
      failure.rule == SharedStoreConformance.Check.all.first { $0.name == failure.check }?.rule)
    #expect(failure.description.contains("'\(broken.caughtBy)'"))
    #expect(failure.expected != failure.actual)
    #expect(throws: SharedStoreConformanceFailure.self) { try conformance.run() }
  }

  @Test("a store factory that throws fails with the factory's error")
  func throwingFactoryFails() throws {
    struct NoContainer: Error {}
    let conformance = SharedStoreConformance { throw NoContainer() }
    let check = try #require(SharedStoreConformance.Check.all.first)
    #expect {
      try conformance.run(check)
    } throws: { error in
      let failure = error as? SharedStoreConformanceFailure
      return failure?.step == "makeStore()" && failure?.actual.contains("NoContainer") == true
    }
  }

  @Test("check names are unique and stable identifiers")
  func checkNamesAreUnique() {
    let names = SharedStoreConformance.Check.all.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } })
    #expect(names.contains("update-is-atomic-across-threads"))
  }
}

/// Backends that each break one rule of the contract, and the check that must catch it.
enum Broken: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case nonAtomicUpdate
  case staleChangeToken
  case laxKeyValidation
  case alwaysWritingUpdate
  case unsortedKeys

  var testDescription: String { rawValue }

  func makeStore() -> any SharedStore {
    switch self {
    case .nonAtomicUpdate: NonAtomicUpdateStore()
    case .staleChangeToken: StaleChangeTokenStore()
    case .laxKeyValidation: LaxKeyStore()
    case .alwaysWritingUpdate: AlwaysWritingUpdateStore()
    case .unsortedKeys: UnsortedKeysStore()
    }
  }

  var caughtBy: String {
    switch self {
    case .nonAtomicUpdate: "update-is-atomic-across-threads"
    case .staleChangeToken: "change-token-changes-on-every-write"
    case .laxKeyValidation: "invalid-key-is-refused-and-touches-nothing"
    case .alwaysWritingUpdate: "unchanged-update-writes-nothing"
    case .unsortedKeys: "keys-lists-stored-keys-sorted"
    }
  }

  /// The key the failure should name.
  var key: String? {
    switch self {
    case .nonAtomicUpdate: "counter"
    case .staleChangeToken: "k"
    case .laxKeyValidation: ""
    case .alwaysWritingUpdate: "n"
    case .unsortedKeys: nil
    }
  }
}

@Suite("SharedStoreTesting's documentation")
struct DocumentationExampleTests {
  @Test("the catalog's example runs the checks against a FileStore in a fresh folder")
  func catalogExampleRuns() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent(UUID().uuidString, isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let conformance = SharedStoreConformance {
      try FileStore(directory: folder.appendingPathComponent(UUID().uuidString, isDirectory: true))
    }
    let check = try #require(
      SharedStoreConformance.Check.all.first { $0.name == "update-is-atomic-across-threads" })
    try conformance.run(check)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
  }
}
