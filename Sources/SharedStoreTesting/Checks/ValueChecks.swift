import Foundation
import SharedStore

extension SharedStoreConformance.Check {
  /// Reading, writing, removing and listing values.
  static let valueChecks: [Self] = [
    Self("written-value-reads-back", "A written value reads back byte for byte.") { context in
      let store = try context.freshStore()
      let data = Data((0..<1_000).map { UInt8($0 % 251) })
      try store.write(data, for: "blob")
      try context.expect(try store.read("blob"), data, key: "blob", "read after write")
    },
    Self("missing-key-reads-nil", "A key that holds nothing reads as nil.") { context in
      let store = try context.freshStore()
      try context.expect(try store.read("absent"), nil, key: "absent", "read of a missing key")
    },
    Self(
      "empty-value-is-not-absence",
      "An empty value is stored, read back and listed: it is not the same as no value."
    ) { context in
      let store = try context.freshStore()
      try store.write(Data(), for: "empty")
      try context.expect(try store.read("empty"), Data(), key: "empty", "read of an empty value")
      try context.expect(try store.keys(), ["empty"], key: "empty", "keys() after the write")
    },
    Self("write-replaces-value", "A write replaces the previous value whole.") { context in
      let store = try context.freshStore()
      try store.write(Data("first, and longer".utf8), for: "k")
      try store.write(Data("second".utf8), for: "k")
      try context.expect(try store.read("k"), Data("second".utf8), key: "k", "read after 2 writes")
    },
    Self(
      "remove-deletes-value",
      "remove deletes the value, and removing a missing key does nothing and does not throw."
    ) { context in
      let store = try context.freshStore()
      try store.write(Data([1]), for: "k")
      try store.remove("k")
      try context.expect(try store.read("k"), nil, key: "k", "read after remove")
      try store.remove("k")
      try store.remove("never-written")
      try context.expect(try store.keys(), [], key: nil, "keys() after removing everything")
    },
    Self(
      "keys-lists-stored-keys-sorted",
      "keys() lists every key that holds something, sorted in ascending order, and only those."
    ) { context in
      let store = try context.freshStore()
      for key in ["b", "a.b", "A", "z-9", "_x", "a"] { try store.write(Data([0]), for: key) }
      try store.remove("z-9")
      try context.expect(
        try store.keys(), ["A", "_x", "a", "a.b", "b"], key: nil, "keys() after 6 writes, 1 remove")
    },
    Self(
      "keys-are-case-sensitive", "Keys that differ only in case are different keys."
    ) { context in
      let store = try context.freshStore()
      let values = ["Count": "upper", "count": "lower", "cOUNT": "mixed"]
      for (key, value) in values { try store.write(Data(value.utf8), for: key) }
      for (key, value) in values {
        try context.expect(try store.read(key), Data(value.utf8), key: key, "read")
      }
      try context.expect(try store.keys(), ["Count", "cOUNT", "count"], key: nil, "keys()")
    },
  ]
}
