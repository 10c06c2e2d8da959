import Foundation
import SharedStore
import TestSupport

/// Several `stk-test-helper increment` processes started together on one key, and the numbers
/// each handed out: the value its `update` produced, one per increment, in its order.
///
/// `MultiProcessTests` runs a few at `swift test` scale; `IncrementStressTests` runs eight at the
/// scale of `Scripts/stress.sh`.
struct IncrementRun {
  /// The numbers each process printed, in process order.
  var numbers: [[Int]]
  /// The key's value once every process had ended.
  var final: Int

  /// Starts `processes` helpers that each make `count` increments of `key` in the store at
  /// `storePath`, released together by a barrier file in `directory`.
  ///
  /// - Parameters:
  ///   - processes: How many helpers.
  ///   - count: How many increments each makes.
  ///   - durability: The durability of the helpers' stores.
  ///   - directory: Where the store and the barrier file go.
  ///   - key: The key incremented.
  /// - Throws: When a helper fails.
  init(
    processes: Int, count: Int, durability: FileStore.Durability, in directory: URL,
    key: String = "counter"
  ) throws {
    let storePath = directory.appendingPathComponent("store").path
    let barrier = directory.appendingPathComponent("go-\(key)")
    defer { try? FileManager.default.removeItem(at: barrier) }
    let outputs = try HelperProcess.runConcurrently(
      (0..<processes).map { _ in
        [
          "increment", "--dir", storePath, "--key", key, "--count", "\(count)",
          "--durability", durability.rawValue, "--barrier", barrier.path,
        ]
      },
      releasing: barrier)
    numbers = outputs.map { $0.compactMap(Int.init) }
    final = try FileStore(directory: URL(fileURLWithPath: storePath))
      .value(for: StoreKey(key, default: 0))
  }

  /// All the numbers handed out.
  var all: [Int] { numbers.flatMap { $0 } }

  /// How many numbers were handed out more than once (each extra copy counts).
  var duplicates: Int { all.count - Set(all).count }

  /// How many of `1...total` no process handed out.
  ///
  /// - Parameter total: The number of increments made.
  /// - Returns: The count of numbers missing.
  func missing(of total: Int) -> Int {
    guard total > 0 else { return 0 }
    return Set(1...total).subtracting(all).count
  }

  /// How many processes saw their own numbers other than strictly increasing.
  var processesOutOfOrder: Int {
    numbers.filter { own in zip(own, own.dropFirst()).contains { $0 >= $1 } }.count
  }
}
