import Foundation
import NameClash
import SharedStore
import TestSupport
import Testing

// The spelling the documentation gives integrators, valid from Swift 6.0: a scoped import makes
// SharedStore's declaration win, in this file, over a same-named one from another module.
// `SharedStore.FileStore` cannot be written: it names a member of the protocol `SharedStore`.
import struct SharedStore.Errno
import class SharedStore.FileStore
import struct SharedStore.StoreKey

/// An integrator whose own module has a `FileStore`, a `StoreKey` or an `Errno` can still use
/// SharedStore's.
@Suite("Naming SharedStore's types beside same-named ones")
struct NameClashTests {
  @Test("scoped imports select SharedStore's FileStore, StoreKey and Errno")
  func scopedImportsSelectSharedStoreTypes() throws {
    let directory = try TemporaryDirectory()
    let store = try FileStore(directory: directory.url)
    let key = StoreKey("count", default: 1)
    try store.update(key) { $0 += 1 }
    #expect(try store.value(for: key) == 2)
    let shared: any SharedStore = store
    #expect(try shared.keys() == ["count"])
    #expect(String(reflecting: FileStore.self) == "SharedStore.FileStore")
    #expect(String(reflecting: StoreKey<Int>.self) == "SharedStore.StoreKey<Swift.Int>")
    #expect(String(reflecting: Errno.self) == "SharedStore.Errno")
    #expect(Errno.noSpace.description.isEmpty == false)
  }

  @Test("the other module's types stay reachable through their module's name")
  func otherTypesAreQualified() {
    #expect(String(reflecting: NameClash.FileStore.self) == "NameClash.FileStore")
    #expect(NameClash.StoreKey("count").name == "count")
    #expect(NameClash.Errno(rawValue: 28).rawValue == 28)
  }
}
