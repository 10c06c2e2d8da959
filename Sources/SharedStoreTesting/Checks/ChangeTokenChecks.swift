import Foundation
import SharedStore

extension SharedStoreConformance.Check {
  /// `changeToken(for:)`: nil when absent, new on every change, the same when nothing changed.
  static let changeTokenChecks: [Self] = [
    Self(
      "change-token-changes-on-every-write",
      "The change token is nil when nothing is stored and is new after every write, even of an "
        + "equal value."
    ) { context in
      let store = try context.freshStore()
      try context.expect(try store.changeToken(for: "k"), nil, key: "k", "token of a missing key")
      var tokens: [ChangeToken] = []
      for index in 0..<20 {
        try store.write(Data([UInt8(index % 2)]), for: "k")
        let token = try store.changeToken(for: "k")
        try context.expect(
          token.map { !tokens.contains($0) } ?? false, key: "k", "token after write \(index + 1)",
          expected: "a token never seen before on this key",
          actual: describe(token as Any) + " after \(tokens.map(\.description))")
        if let token { tokens.append(token) }
      }
    },
    Self(
      "change-token-changes-on-update-and-remove",
      "An update that changes the bytes gives a new token, and remove makes it nil."
    ) { context in
      let store = try context.freshStore()
      try store.write(Data([1]), for: "k")
      let before = try store.changeToken(for: "k")
      try store.update("k") { data in data = Data([2]) }
      let after = try store.changeToken(for: "k")
      try context.expect(
        after != nil && after != before, key: "k", "token after an update",
        expected: "a token other than \(describe(before as Any))", actual: describe(after as Any))
      try store.remove("k")
      try context.expect(try store.changeToken(for: "k"), nil, key: "k", "token after remove")
    },
    Self(
      "reading-keeps-the-token",
      "Reading a value, listing keys and reading another key's token leave the token as it was."
    ) { context in
      let store = try context.freshStore()
      try store.write(Data([1]), for: "k")
      let token = try store.changeToken(for: "k")
      _ = try store.read("k")
      _ = try store.keys()
      _ = try store.changeToken(for: "other")
      try context.expect(try store.changeToken(for: "k"), token, key: "k", "token after reads")
    },
    Self(
      "recreated-key-never-brings-back-a-token",
      "Removing a key and storing it again never hands out a token the key had before, so a "
        + "poller never mistakes a new value for one it has seen."
    ) { context in
      let store = try context.freshStore()
      var seen: [ChangeToken] = []
      for round in 0..<10 {
        try store.write(Data([1]), for: "k")
        let token = try store.changeToken(for: "k")
        try context.expect(
          token.map { !seen.contains($0) } ?? false, key: "k", "token after re-creation \(round)",
          expected: "a token never seen before on this key", actual: describe(token as Any))
        if let token { seen.append(token) }
        try store.remove("k")
      }
    },
    Self(
      "tokens-of-keys-are-independent",
      "Writing one key leaves every other key's token as it was."
    ) { context in
      let store = try context.freshStore()
      try store.write(Data([1]), for: "a")
      let token = try store.changeToken(for: "a")
      try store.write(Data([2]), for: "b")
      try store.update("b") { data in data = Data([3]) }
      try store.remove("b")
      try context.expect(try store.changeToken(for: "a"), token, key: "a", "token after writing b")
    },
  ]

  /// `quarantine(_:)`: the key starts afresh, and a second quarantine keeps the first.
  static let quarantineChecks: [Self] = [
    Self(
      "quarantine-frees-the-key",
      "quarantine moves a value aside and frees its key, returns nil when nothing is stored, and "
        + "never reuses the place of an earlier quarantine."
    ) { context in
      let store = try context.freshStore()
      try store.write(Data("evidence".utf8), for: "log")
      let kept = try store.quarantine("log")
      try context.expect(
        kept != nil, key: "log", "quarantine of a stored value", expected: "where it was kept",
        actual: "nil")
      try context.expect(try store.read("log"), nil, key: "log", "read after quarantine")
      try context.expect(try store.keys(), [], key: "log", "keys() after quarantine")
      try context.expect(try store.changeToken(for: "log"), nil, key: "log", "token after it")
      try context.expect(try store.quarantine("log"), nil, key: "log", "a second quarantine")
      try store.write(Data("again".utf8), for: "log")
      try context.expect(
        try store.read("log"), Data("again".utf8), key: "log", "read after writing again")
      let keptAgain = try store.quarantine("log")
      try context.expect(
        keptAgain != nil && keptAgain != kept, key: "log", "quarantine of the new value",
        expected: "a place other than \(describe(kept as Any))", actual: describe(keptAgain as Any))
    }
  ]
}
