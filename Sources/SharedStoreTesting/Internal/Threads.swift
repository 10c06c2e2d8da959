import Foundation
import SharedStore

/// Runs `body` on `count` threads started together, and returns what each returned, by thread.
///
/// Threads, not tasks: a store's `update` blocks, and the checks want as many of them waiting on
/// the store at once as they asked for, whatever the size of the cooperative pool.
func onThreads<Value: Sendable>(
  _ count: Int, _ body: @escaping @Sendable (Int) throws -> Value
) throws -> [Value] {
  let results = LockedValue<[Int: Result<Value, any Error>]>([:])
  let start = DispatchSemaphore(value: 0)
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      defer { group.leave() }
      start.wait()
      let result = Result { try body(index) }
      results.withLock { $0[index] = result }
    }
    thread.start()
  }
  for _ in 0..<count { start.signal() }
  group.wait()
  return try results.withLock { results in
    try (0..<count).map { index in try results[index, default: .failure(CancellationError())].get()
    }
  }
}

/// A small seeded generator, so that a failing sequence of operations is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
