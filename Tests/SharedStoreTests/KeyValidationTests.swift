import Foundation
import SharedStore
import TestSupport
import Testing

@Suite("Key validation")
struct KeyValidationTests {
  static let hostileKeys: [(String, InvalidKeyReason)] = [
    ("../x", .leadingDot),
    ("/abs", .disallowedCharacter("/", offset: 0)),
    ("", .empty),
    ("a\u{0}b", .disallowedCharacter("\u{0}", offset: 1)),
    (
      String(repeating: "k", count: StoreKeyRules.maximumLength + 1),
      .tooLong(length: StoreKeyRules.maximumLength + 1, limit: StoreKeyRules.maximumLength)
    ),
    (".hidden", .leadingDot),
    ("a/b", .disallowedCharacter("/", offset: 1)),
    ("..", .leadingDot),
    ("spaced key", .disallowedCharacter(" ", offset: 6)),
    ("ünicode", .disallowedCharacter("ü", offset: 0)),
    ("a\\b", .disallowedCharacter("\\", offset: 1)),
    ("tab\tkey", .disallowedCharacter("\t", offset: 3)),
    ("new\nline", .disallowedCharacter("\n", offset: 3)),
    ("caret^", .disallowedCharacter("^", offset: 5)),
  ]

  @Test(
    "a hostile key is rejected with the reason it breaks",
    arguments: hostileKeys)
  func hostileKeyIsRejected(key: String, reason: InvalidKeyReason) {
    #expect(StoreKeyRules.violation(in: key) == reason)
    #expect(throws: SharedStoreError.invalidKey(key: key, reason: reason)) {
      try StoreKeyRules.validate(key)
    }
  }

  @Test(
    "keys from the safe alphabet up to the length limit are accepted",
    arguments: [
      "a", "Z", "0", "_", "-", "a.b", "usage.2026-01-02", "launch_Count-9",
      String(repeating: "x", count: StoreKeyRules.maximumLength), "trailing.",
    ])
  func safeKeyIsAccepted(key: String) throws {
    #expect(StoreKeyRules.violation(in: key) == nil)
    try StoreKeyRules.validate(key)
  }

  @Test("the invalid-key message names the key and the rule")
  func invalidKeyMessageIsActionable() {
    let error = SharedStoreError.invalidKey(
      key: "a/b", reason: .disallowedCharacter("/", offset: 1))
    #expect(error.description.contains("\"a/b\""))
    #expect(error.description.contains("'/'"))
    #expect(error.description.contains("offset 1"))
    let nul = SharedStoreError.invalidKey(
      key: "a\u{0}", reason: .disallowedCharacter("\u{0}", offset: 1))
    #expect(nul.description.contains("U+0000"))
  }

  @Test(
    "every operation rejects a hostile key and touches no file",
    arguments: hostileKeys.map(\.0), StoreBackend.allCases)
  func everyOperationRejectsHostileKey(key: String, backend: StoreBackend) throws {
    let store = try backend.makeStore()
    try store.write(Data("keep".utf8), for: "existing")
    // The snapshot covers the store's folder and the folder around it, where `../x` would land.
    let before = try store.directory?.snapshot()

    let operations: [(String, () throws -> Void)] = [
      ("read", { _ = try store.read(key) }),
      ("write", { try store.write(Data([1]), for: key) }),
      ("remove", { try store.remove(key) }),
      ("update", { try store.update(key) { $0 = Data([1]) } }),
      ("changeToken", { _ = try store.changeToken(for: key) }),
      ("quarantine", { _ = try store.quarantine(key) }),
      ("typed set", { try store.set(1, for: StoreKey(key, default: 0)) }),
      ("bounded log", { _ = try BoundedLog<Int>(store: store, key: key, capacity: 3) }),
    ]
    for (name, operation) in operations {
      #expect(
        "\(name)",
        performing: operation,
        throws: { error in
          guard case .invalidKey(let rejected, _) = error as? SharedStoreError else { return false }
          return rejected == key
        })
    }
    #expect(try store.directory?.snapshot() == before)
    #expect(!FileManager.default.fileExists(atPath: "/abs"))
    #expect(try store.keys() == ["existing"])
  }
}
