import Foundation
import SharedStore
import Testing

/// Values no sane caller passes to a store: each gives a defined result or a typed error, never
/// a trap, a hang or unbounded memory.
@Suite("Hostile values give a defined result or a typed error")
struct HostileValueTests {
  @Test("an empty, 1 MB, path-like or control-character key is refused and touches nothing")
  func hostileKeys() throws {
    let store = InMemoryStore()
    for key in ["", String(repeating: "k", count: 1 << 20), "../x", ".x", "a/b", "a\u{0}", "é"] {
      #expect(throws: SharedStoreError.self) { try store.write(Data(), for: key) }
      #expect(throws: SharedStoreError.self) { try store.read(key) }
      #expect(throws: SharedStoreError.self) {
        try store.update(key) { (data: inout Data?) throws -> Void in data = Data() }
      }
    }
    #expect(store.keys().isEmpty)
  }

  @Test("empty and 1 MB values round-trip; a stored value that is not the type is a typed error")
  func hostileValues() throws {
    let store = InMemoryStore()
    for value in ["", String(repeating: "v", count: 1 << 20)] {
      let key = StoreKey("text", default: "none")
      try store.set(value, for: key)
      #expect(try store.value(for: key) == value)
    }
    try store.write(Data(#"{"n":9223372036854775808}"#.utf8), for: "number")
    #expect(throws: SharedStoreError.self) {
      try store.value(for: StoreKey("number", default: [String: Int64]()))
    }
    let token = try JSONDecoder().decode(ChangeToken.self, from: Data("18446744073709551615".utf8))
    #expect(token.description == "gen:ffffffffffffffff")
    for errno in ["2147483647", "-2147483648"] {
      #expect(!(try JSONDecoder().decode(Errno.self, from: Data(errno.utf8))).description.isEmpty)
    }
  }
}
