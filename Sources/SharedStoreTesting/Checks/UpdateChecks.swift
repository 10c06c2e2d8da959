import Foundation
import SharedStore

extension SharedStoreConformance.Check {
  /// `update(_:_:)`: what it writes, what it does not, and that it is atomic.
  static let updateChecks: [Self] = [
    Self(
      "update-creates-changes-and-removes",
      "update shows the current bytes (nil when absent), stores what the body leaves, and "
        + "removes the key when the body sets nil."
    ) { context in
      let store = try context.freshStore()
      let seen = try store.update("k") { data -> Data? in
        let old = data
        data = Data([1])
        return old
      }
      try context.expect(seen, nil, key: "k", "the bytes the first update's body saw")
      let seenNext = try store.update("k") { data -> Data? in
        let old = data
        data?.append(2)
        return old
      }
      try context.expect(seenNext, Data([1]), key: "k", "the bytes the second update's body saw")
      try context.expect(try store.read("k"), Data([1, 2]), key: "k", "read after 2 updates")
      try store.update("k") { data in data = nil }
      try context.expect(try store.read("k"), nil, key: "k", "read after an update set nil")
      try context.expect(try store.keys(), [], key: "k", "keys() after an update set nil")
    },
    Self(
      "throwing-update-writes-nothing",
      "When update's body throws, its error reaches the caller unchanged and nothing is written."
    ) { context in
      let store = try context.freshStore()
      try store.write(Data([7]), for: "k")
      let token = try store.changeToken(for: "k")
      let refusal = SharedStoreError.encoding(key: "k", type: "T", description: "refused")
      try context.expect(throws: refusal, key: "k", "update whose body throws a SharedStoreError") {
        try store.update("k") { (data: inout Data?) throws(SharedStoreError) in
          data = Data([8])
          throw refusal
        }
      }
      struct Refused: Error {}
      var foreign: (any Error)?
      do {
        try store.update("k") { (data: inout Data?) throws(Refused) in
          data = Data([9])
          throw Refused()
        }
      } catch {
        foreign = error
      }
      try context.expect(
        foreign is Refused, key: "k", "update whose body throws an error of its own",
        expected: "that error, unchanged", actual: foreign.map { "\($0)" } ?? "no error")
      try context.expect(try store.read("k"), Data([7]), key: "k", "read after the throws")
      try context.expect(try store.changeToken(for: "k"), token, key: "k", "token after the throws")
    },
    Self(
      "unchanged-update-writes-nothing",
      "An update that leaves the bytes as they were writes nothing: the change token stays."
    ) { context in
      let store = try context.freshStore()
      let key = StoreKey("n", default: 0)
      try store.set(5, for: key)
      let token = try store.changeToken(for: "n")
      try store.update(key) { value in value = 5 }
      try context.expect(try store.changeToken(for: "n"), token, key: "n", "token after value = 5")
      try store.update("n") { _ in }
      try context.expect(try store.changeToken(for: "n"), token, key: "n", "token after a no-op")
      try store.update("absent") { _ in }
      try context.expect(try store.keys(), ["n"], key: "absent", "keys() after a no-op update")
    },
    Self(
      "typed-update-returns-result",
      "A typed update stores the body's change and returns what the body returned."
    ) { context in
      let store = try context.freshStore()
      let key = StoreKey("counter", default: 0)
      var tickets: [Int] = []
      for _ in 0..<5 {
        tickets.append(
          try store.update(key) { value -> Int in
            value += 1
            return value
          })
      }
      try context.expect(tickets, [1, 2, 3, 4, 5], key: key.name, "the values 5 updates returned")
      try context.expect(try store.value(for: key), 5, key: key.name, "value after 5 updates")
    },
    Self(
      "update-is-atomic-across-threads",
      "No other update or write of the key runs between update's read and its write: threads "
        + "incrementing one counter at once lose no increment and never see the same value."
    ) { context in
      let store = try context.freshStore()
      let key = StoreKey("counter", default: 0)
      let threads = context.configuration.concurrentThreads
      let each = context.configuration.operationsPerThread
      let handedOut = try onThreads(threads) { _ in
        try (0..<each).map { _ in
          try store.update(key) { value -> Int in
            value += 1
            return value
          }
        }
      }.flatMap { $0 }
      let total = threads * each
      let distinct = Set(handedOut)
      try context.expect(
        handedOut.sorted() == Array(1...total), key: key.name,
        "\(threads) threads incrementing \(each) times each",
        expected: "the values 1...\(total), each handed out once",
        actual: "\(distinct.count) distinct values among \(handedOut.count), the largest "
          + "\(handedOut.max() ?? 0): \(handedOut.count - distinct.count) increments were lost")
      try context.expect(try store.value(for: key), total, key: key.name, "the final count")
    },
    Self(
      "concurrent-writes-to-different-keys-all-land",
      "Threads writing and updating different keys at once lose none of them: a backend that "
        + "keeps every key in one blob must still keep each thread's change."
    ) { context in
      let store = try context.freshStore()
      let threads = context.configuration.concurrentThreads
      let each = context.configuration.operationsPerThread
      _ = try onThreads(threads) { thread in
        for index in 0..<each {
          try store.write(Data([UInt8(thread)]), for: "t\(thread).\(index)")
          try store.update("t\(thread)") { data in data = (data ?? Data()) + [UInt8(index % 256)] }
        }
      }
      var expectedKeys: [String] = []
      for thread in 0..<threads {
        expectedKeys.append("t\(thread)")
        expectedKeys += (0..<each).map { "t\(thread).\($0)" }
        try context.expect(
          try store.read("t\(thread)")?.count, each, key: "t\(thread)",
          "the length of thread \(thread)'s updated value")
      }
      try context.expect(try store.keys(), expectedKeys.sorted(), key: nil, "keys()")
    },
  ]
}
