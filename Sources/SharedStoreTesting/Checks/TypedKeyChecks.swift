import Foundation
import SharedStore

extension SharedStoreConformance.Check {
  /// ``/SharedStore/StoreKey``: defaults, round trips, and values that do not decode or encode.
  static let typedKeyChecks: [Self] = [
    Self(
      "typed-key-reads-its-default",
      "A StoreKey reads its default when nothing is stored, and reading the default writes nothing."
    ) { context in
      let store = try context.freshStore()
      let key = StoreKey("limits", default: ["social": 30])
      try context.expect(try store.value(for: key), ["social": 30], key: key.name, "value(for:)")
      try context.expect(try store.keys(), [], key: key.name, "keys() after reading the default")
      try context.expect(
        try store.changeToken(for: key.name), nil, key: key.name,
        "changeToken(for:) after reading the default")
    },
    Self(
      "typed-value-round-trips",
      "A value set through a StoreKey reads back equal, and after removeValue the default is back."
    ) { context in
      let store = try context.freshStore()
      let key = StoreKey("sample", default: Sample(name: "", when: .distantPast, minutes: []))
      let value = Sample(
        name: "Ünïcode ✓", when: Date(timeIntervalSince1970: 1_767_312_000.123_456),
        minutes: [1, 2, 3])
      try store.set(value, for: key)
      try context.expect(try store.value(for: key), value, key: key.name, "value(for:) after set")
      try store.removeValue(for: key)
      try context.expect(
        try store.value(for: key), key.defaultValue, key: key.name, "value(for:) after remove")
    },
    Self(
      "undecodable-value-throws",
      "A stored value that does not decode throws decoding, never reads as the default, and stays "
        + "untouched."
    ) { context in
      let store = try context.freshStore()
      let bytes = Data("\"not a number\"".utf8)
      try store.write(bytes, for: "count")
      let key = StoreKey("count", default: 0)
      try context.expect(
        throwing: "count", "value(for:) of a String as an Int", expected: "decoding(count, Int)",
        { try store.value(for: key) },
        matching: { error in
          guard case .decoding("count", "Int", _) = error else { return false }
          return true
        })
      try context.expect(try store.read("count"), bytes, key: "count", "read after the failure")
    },
    Self(
      "unencodable-value-throws-and-writes-nothing",
      "A value that cannot be encoded throws encoding and leaves the stored value as it was."
    ) { context in
      let store = try context.freshStore()
      let key = StoreKey("ratio", default: 0.5)
      try store.set(0.25, for: key)
      let token = try store.changeToken(for: key.name)
      try context.expect(
        throwing: "ratio", "set(.nan, for:) with JSON", expected: "encoding(ratio)",
        { try store.set(.nan, for: key) },
        matching: { error in
          guard case .encoding("ratio", _, _) = error else { return false }
          return true
        })
      try context.expect(try store.value(for: key), 0.25, key: "ratio", "value after the failure")
      try context.expect(
        try store.changeToken(for: key.name), token, key: "ratio", "token after the failure")
    },
    Self(
      "failed-default-throws-and-writes-nothing",
      "A typed update of a key whose lazy default cannot be built throws defaultValueFailed and "
        + "writes nothing."
    ) { context in
      let store = try context.freshStore()
      struct Unavailable: Error {}
      let key = StoreKey<Int>("lazy") { throw Unavailable() }
      try context.expect(
        throwing: "lazy", "update(_:_:) of the key", expected: "defaultValueFailed(lazy, Int)",
        { try store.update(key) { $0 += 1 } },
        matching: { error in
          guard case .defaultValueFailed("lazy", "Int", _) = error else { return false }
          return true
        })
      try context.expect(try store.keys(), [], key: "lazy", "keys() after the failure")
    },
  ]
}

/// A small Codable model for the typed-key checks: a string beyond ASCII, a date with a fraction
/// of a second, an array.
struct Sample: Codable, Equatable, Sendable {
  var name: String
  var when: Date
  var minutes: [Int]
}
