import Foundation
import SharedStore
import SharedStoreTesting
import TestSupport
import Testing

/// The contract of `SharedStore`, checked against every backend with the public conformance kit
/// that integrators run against their own.
@Suite("SharedStore conformance")
struct ConformanceTests {
  @Test(
    "every backend passes every check of SharedStoreConformance",
    arguments: StoreBackend.allCases, SharedStoreConformance.Check.all)
  func backendPassesCheck(backend: StoreBackend, check: SharedStoreConformance.Check) throws {
    let configuration = SharedStoreConformance.Configuration(
      logsAreSeparateFromValues: backend.separatesLogsFromValues)
    let conformance = SharedStoreConformance(configuration: configuration) {
      try backend.makeStore()
    }
    try conformance.run(check)
  }

  @Test("the change token encodes as a bare JSON number")
  func changeTokenJSONForm() throws {
    let token = ChangeToken(generation: 42)
    #expect(String(decoding: try JSONEncoder().encode(token), as: UTF8.self) == "42")
    #expect(try JSONDecoder().decode(ChangeToken.self, from: Data("42".utf8)) == token)
  }

  @Test("a kind mismatch says how to use the key")
  func kindMismatchIsActionable() {
    let error = SharedStoreError.kindMismatch(key: "log", holds: .log)
    #expect(error.description.contains("append-only log"))
  }

  // MARK: - Where each backend keeps what it quarantines

  @Test(
    "quarantine keeps the bytes where the backend says, and never overwrites an earlier one",
    arguments: StoreBackend.allCases)
  func quarantineKeepsBytes(backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data("evidence".utf8), for: "log")
    let kept = try #require(try store.quarantine("log"))
    try store.write(Data("again".utf8), for: "log")
    let keptAgain = try #require(try store.quarantine("log"))
    switch (store.base as? ValueOnlyStore)?.base ?? store.base {
    case let memory as InMemoryStore:
      #expect(memory.quarantinedValues[kept] == Data("evidence".utf8))
      #expect(memory.quarantinedValues[keptAgain] == Data("again".utf8))
    case let file as FileStore:
      #expect(try file.quarantinedFiles() == [kept, keptAgain])
      let bytes = try Data(contentsOf: URL(fileURLWithPath: kept))
      #expect(bytes.suffix(8) == Data("evidence".utf8))
    default:
      Issue.record("unexpected backend \(type(of: store))")
    }
  }
}
