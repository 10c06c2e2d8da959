import Foundation
import SharedStore

extension SharedStoreConformance.Check {
  /// Keys the rules accept, keys they refuse, and what a refused key leaves behind: nothing.
  static let keyChecks: [Self] = [
    Self(
      "valid-keys-are-accepted",
      "Every key that StoreKeyRules accepts, up to the length limit, stores and reads a value."
    ) { context in
      let store = try context.freshStore()
      let keys = [
        "a", "Z", "0", "_", "-", "a.b", "usage.2026-01-02", "launch_Count-9", "trailing.",
        String(repeating: "x", count: StoreKeyRules.maximumLength),
      ]
      for key in keys {
        try store.write(Data(key.utf8), for: key)
        try context.expect(try store.read(key), Data(key.utf8), key: key, "read after write")
      }
      try context.expect(try store.keys(), keys.sorted(), key: nil, "keys()")
    },
    Self(
      "invalid-key-is-refused-and-touches-nothing",
      "Every operation refuses a key that StoreKeyRules refuses, with invalidKey and the rule's "
        + "reason, before running any closure, and changes nothing in the store."
    ) { context in
      let store = try context.freshStore()
      try store.write(Data("keep".utf8), for: "existing")
      let token = try store.changeToken(for: "existing")
      for key in invalidKeys {
        guard let reason = StoreKeyRules.violation(in: key) else { continue }
        let refused = SharedStoreError.invalidKey(key: key, reason: reason)
        let bodyRan = LockedValue(false)
        let operations: [(String, () throws -> Void)] = [
          ("read", { _ = try store.read(key) }),
          ("write", { try store.write(Data([1]), for: key) }),
          ("remove", { try store.remove(key) }),
          (
            "update",
            {
              try store.update(key) { data in
                data = Data([1])
                bodyRan.withLock { $0 = true }
              }
            }
          ),
          ("changeToken(for:)", { _ = try store.changeToken(for: key) }),
          ("quarantine", { _ = try store.quarantine(key) }),
          ("set(_:for:) of a StoreKey", { try store.set(1, for: StoreKey(key, default: 0)) }),
          (
            "appendToLog",
            {
              try store.appendToLog(key, capacity: 2, examiningNewest: 1) { _ in
                bodyRan.withLock { $0 = true }
                return [Data([1])]
              }
            }
          ),
          ("readLog", { _ = try store.readLog(key, newest: nil) }),
          (
            "compactLog",
            {
              try store.compactLog(key) { _ in
                bodyRan.withLock { $0 = true }
                return false
              }
            }
          ),
        ]
        for (name, operation) in operations {
          try context.expect(throws: refused, key: key, name, operation)
          try context.expect(
            !bodyRan.withLock { $0 }, key: key, "\(name)'s closure", expected: "not to run",
            actual: "it ran")
        }
      }
      try context.expect(try store.keys(), ["existing"], key: nil, "keys() after the refusals")
      try context.expect(
        try store.read("existing"), Data("keep".utf8), key: "existing", "read after the refusals")
      try context.expect(
        try store.changeToken(for: "existing"), token, key: "existing",
        "changeToken(for:) after the refusals")
    },
  ]

  /// Keys that break each of StoreKeyRules' rules, including ones that would escape a folder.
  static let invalidKeys = [
    "", "../x", "..", ".hidden", "/abs", "a/b", "a\\b", "a\u{0}b", "spaced key", "tab\tkey",
    "new\nline", "ünicode", "caret^",
    String(repeating: "k", count: StoreKeyRules.maximumLength + 1),
  ]
}
