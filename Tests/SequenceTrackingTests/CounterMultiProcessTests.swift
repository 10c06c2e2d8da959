import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing

@Suite("Sequence counter across processes")
struct CounterMultiProcessTests {
  static let processes = 4
  static let perProcess = 250

  static func invocations(_ command: String, directory: TemporaryDirectory, barrier: URL)
    -> [[String]]
  {
    (0..<processes).map { _ in
      [
        command, "--dir", directory.url.appendingPathComponent("store").path, "--key", "sequence",
        "--count", "\(perProcess)", "--durability", "processCrashSafe", "--barrier", barrier.path,
      ]
    }
  }

  @Test("N processes calling next() M times receive exactly 1 to N×M, each once")
  func nextAcrossProcesses() throws {
    let directory = try TemporaryDirectory(prefix: "stk-counter")
    let barrier = directory.url.appendingPathComponent("barrier")
    let outputs = try HelperProcess.runConcurrently(
      Self.invocations("sequence-next", directory: directory, barrier: barrier), releasing: barrier)
    let handedOut = try outputs.flatMap(numbers(in:))
    #expect(Set(handedOut.map(\.epoch)).count == 1, "one epoch for every process")
    #expect(
      handedOut.map(\.value).sorted()
        == Array(1...UInt64(Self.processes * Self.perProcess)))
    for output in outputs {
      let values = try numbers(in: output).map(\.value)
      #expect(values == values.sorted(), "each process sees its numbers increase")
    }
    let counter = try SequenceCounter(
      store: try FileStore(directory: directory.url.appendingPathComponent("store")),
      key: "sequence")
    #expect(try counter.current()?.value == UInt64(Self.processes * Self.perProcess))
  }

  @Test("control: a read-then-write increment hands two processes the same number")
  func racyIncrementCollides() throws {
    // Collisions are a matter of timing; a few rounds make a miss practically impossible.
    var collisions = 0
    for _ in 0..<3 where collisions == 0 {
      let directory = try TemporaryDirectory(prefix: "stk-counter-racy")
      let barrier = directory.url.appendingPathComponent("barrier")
      let outputs = try HelperProcess.runConcurrently(
        Self.invocations("sequence-next-racy", directory: directory, barrier: barrier),
        releasing: barrier)
      let values = try outputs.flatMap(numbers(in:)).map(\.value)
      collisions = values.count - Set(values).count
    }
    #expect(collisions > 0, "the check must see the read-then-write race")
  }
}
