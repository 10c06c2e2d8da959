import Foundation
import SharedStore
import TestSupport
import XCTest

/// Several processes appending to one log at once: no record lost, no position handed out twice,
/// even while appends compact the log.
final class AppendLogMultiProcessTests: XCTestCase {
  private var directory: TemporaryDirectory!
  private var barrier: URL!

  override func setUpWithError() throws {
    directory = try TemporaryDirectory(prefix: "stk-log-processes")
    barrier = directory.url.appendingPathComponent("go")
  }

  override func tearDown() {
    directory = nil
  }

  private var storePath: String { directory.url.appendingPathComponent("store").path }

  /// Runs `processes` helpers appending `appends` records each, together.
  private func appendTogether(
    processes: Int, appends: Int, capacity: Int, durability: String, unlocked: Bool = false
  ) throws {
    defer { try? FileManager.default.removeItem(at: barrier) }
    _ = try HelperProcess.runConcurrently(
      (0..<processes).map { writer in
        [
          "append-records", "--dir", storePath, "--key", "log", "--capacity", "\(capacity)",
          "--count", "\(appends)", "--writer", "\(writer)", "--durability", durability,
          "--barrier", barrier.path, "--unlocked", unlocked ? "yes" : "no",
        ]
      }, releasing: barrier)
  }

  private func log() throws -> LogSnapshot? {
    try FileStore(directory: URL(fileURLWithPath: storePath)).readLog("log")
  }

  /// Each writer's records in the log, as indices, in log order.
  private func indices(of writer: Int, in log: LogSnapshot) -> [Int] {
    log.records.compactMap { record in
      let parts = String(decoding: record.bytes, as: UTF8.self).split(separator: ":")
      return parts.count == 2 && parts[0] == "\(writer)" ? Int(parts[1]) : nil
    }
  }

  private func assertEveryRecordOnce(processes: Int, appends: Int, durability: String) throws {
    try appendTogether(
      processes: processes, appends: appends, capacity: 100_000, durability: durability)
    let log = try XCTUnwrap(try log())
    XCTAssertEqual(log.count, processes * appends)
    XCTAssertEqual(log.records.map(\.position), Array(1...UInt64(processes * appends)))
    XCTAssertEqual(log.evictedCount, 0)
    for writer in 0..<processes {
      XCTAssertEqual(indices(of: writer, in: log), Array(0..<appends), "writer \(writer)")
    }
  }

  func testFourProcessesAppendingLoseNoRecordAndShareNoPosition() throws {
    try assertEveryRecordOnce(processes: 4, appends: 400, durability: "processCrashSafe")
  }

  func testDurableAppendsFromFourProcessesLoseNoRecord() throws {
    try assertEveryRecordOnce(processes: 4, appends: 60, durability: "durable")
  }

  func testProcessesAppendingWhileTheLogCompactsKeepExactlyTheNewest() throws {
    let processes = 4
    let appends = 300
    let capacity = 25
    try appendTogether(
      processes: processes, appends: appends, capacity: capacity, durability: "processCrashSafe")
    let log = try XCTUnwrap(try log())
    let total = UInt64(processes * appends)
    XCTAssertEqual(log.count, capacity)
    XCTAssertEqual(log.records.map(\.position), Array((total - UInt64(capacity) + 1)...total))
    XCTAssertEqual(log.evictedCount, total - UInt64(capacity))
    for writer in 0..<processes {
      // What is kept of each writer is the end of its sequence, in order.
      let kept = indices(of: writer, in: log)
      XCTAssertEqual(kept, Array((appends - kept.count)..<appends), "writer \(writer)")
    }
  }

  func testControlAppendsWithoutTheLockLoseRecords() throws {
    // The same appends with the store's flock turned into a no-op: processes read the same end
    // of the file and write over each other's frames, or rename over each other's compactions.
    var broken = false
    for _ in 0..<3 where !broken {
      do {
        try appendTogether(
          processes: 4, appends: 300, capacity: 100_000, durability: "processCrashSafe",
          unlocked: true)
        // Not XCTUnwrap: it would record the damage a reader reports as a failure of the test.
        guard let log = try log() else {
          broken = true
          continue
        }
        broken = log.count < 1_200 || Set(log.records.map(\.bytes)).count < 1_200
      } catch {
        broken = true  // a helper or the reader met overlapping frames: damage, reported
      }
      if !broken { try FileStore(directory: URL(fileURLWithPath: storePath)).remove("log") }
    }
    XCTAssertTrue(broken, "without the lock, concurrent appends must lose or damage records")
  }
}
