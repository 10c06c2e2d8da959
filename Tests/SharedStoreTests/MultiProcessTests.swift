import Foundation
import SharedStore
import TestSupport
import XCTest

/// Several processes on one store directory: no update is lost and no number handed out twice.
final class MultiProcessTests: XCTestCase {
  private var directory: TemporaryDirectory!
  private var barrier: URL!

  override func setUpWithError() throws {
    directory = try TemporaryDirectory(prefix: "stk-multiprocess")
    barrier = directory.url.appendingPathComponent("go")
  }

  override func tearDown() {
    directory = nil
  }

  /// Starts `invocations` together: each helper waits for the barrier file before its loop.
  private func runTogether(_ invocations: [[String]]) throws -> [[String]] {
    defer { try? FileManager.default.removeItem(at: barrier) }
    return try HelperProcess.runConcurrently(invocations, releasing: barrier)
  }

  private var storePath: String { directory.url.appendingPathComponent("store").path }

  func testFourProcessesOfDurableIncrementsHandOutEachNumberOnce() throws {
    let processes = 4
    let increments = 500
    let run = try IncrementRun(
      processes: processes, count: increments, durability: .durable, in: directory.url)
    XCTAssertEqual(run.all.count, processes * increments)
    XCTAssertEqual(run.all.sorted(), Array(1...(processes * increments)))
    XCTAssertEqual(run.processesOutOfOrder, 0, "each process sees its own numbers increase")
    XCTAssertEqual(run.final, processes * increments)
  }

  func testControlReadThenWriteIncrementsCollideAcrossProcesses() throws {
    // The same job done the naive way: read, then write. Without one atomic update,
    // processes hand out the same number twice; this is what the test above would catch.
    var collided = false
    for attempt in 0..<3 where !collided {
      let outputs = try runTogether(
        (0..<4).map { _ in
          [
            "increment-unlocked", "--dir", storePath, "--key", "counter-\(attempt)", "--count",
            "500", "--durability", "processCrashSafe", "--barrier", barrier.path,
          ]
        })
      let values = outputs.flatMap { $0 }.compactMap(Int.init)
      collided = Set(values).count < values.count
    }
    XCTAssertTrue(collided, "the unlocked control must hand out a duplicate number")
  }

  func testBoundedLogKeepsExactlyTheNewestEntriesWhenProcessesAppendAtOnce() throws {
    let processes = 4
    let appends = 200
    let capacity = 300
    _ = try runTogether(
      (0..<processes).map { writer in
        [
          "append-log", "--dir", storePath, "--key", "log", "--capacity", "\(capacity)", "--count",
          "\(appends)", "--writer", "\(writer)", "--durability", "processCrashSafe",
          "--barrier", barrier.path,
        ]
      })
    struct LogEntry: Codable, Hashable {
      var writer: Int
      var index: Int
    }
    let log = try BoundedLog<LogEntry>(
      store: try FileStore(directory: URL(fileURLWithPath: storePath)), key: "log",
      capacity: capacity)
    let snapshot = try log.snapshot()
    XCTAssertEqual(snapshot.entries.count, capacity)
    XCTAssertEqual(snapshot.evictedCount, processes * appends - capacity)
    XCTAssertEqual(Set(snapshot.entries).count, capacity, "no entry is duplicated")
    for writer in 0..<processes {
      // What is kept of each writer is the end of its sequence, in order: newest kept, oldest
      // evicted, nothing lost in the middle.
      let kept = snapshot.entries.filter { $0.writer == writer }.map(\.index)
      XCTAssertEqual(kept, Array((appends - kept.count)..<appends), "writer \(writer)")
    }
  }
}
