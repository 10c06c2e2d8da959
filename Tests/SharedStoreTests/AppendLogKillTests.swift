import Foundation
import TestSupport
import XCTest

@testable import SharedStore

/// An appender killed with SIGKILL at random moments never leaves a record that a reader returns
/// torn, and never loses a record whose append had returned.
///
/// A helper appends self-checking records (see `KillPattern`) of 16 KiB, printing each counter
/// once its append returned, and is killed after a random delay. Every record read back must then
/// be whole, its counter its position, and every acknowledged counter still kept present; the
/// next append must work and keep them. One test slows the helper's writes down so that kills
/// land inside them and leave torn frames on disk.
/// The control appends the same records to a file without frames or checksums, and its naive
/// reader must see a torn record — proof that the harness can fail.
final class AppendLogKillTests: XCTestCase {
  private let recordSize = 16 * 1024

  private struct Outcome {
    var kills = 0
    var tornRecords = 0
    var lostAcknowledged = 0
    var tornTailsOnDisk = 0
    var recordsSeen: Set<Int> = []
  }

  private func killRepeatedly(
    rounds: Int, capacity: Int, durability: FileStore.Durability, seed: UInt64,
    slowWrites: Bool = false
  ) throws -> Outcome {
    let directory = try TemporaryDirectory(prefix: "stk-log-kill")
    let store = try FileStore(directory: directory.url, durability: durability)
    let path = directory.url.appendingPathComponent("log").path
    var generator = SplitMix64(seed: seed)
    var outcome = Outcome()
    for _ in 0..<rounds {
      let (process, output) = try HelperProcess.start([
        "append-loop", "--dir", directory.path, "--key", "log", "--size", "\(recordSize)",
        "--capacity", "\(capacity)", "--durability", durability.rawValue,
        "--slow-writes", slowWrites ? "yes" : "no",
      ])
      XCTAssertEqual(String(decoding: output.readData(ofLength: 6), as: UTF8.self), "ready\n")
      usleep(UInt32.random(in: 0...30_000, using: &generator))
      HelperProcess.kill(process)
      outcome.kills += 1
      let acknowledged = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        .split(separator: "\n").compactMap { UInt64($0) }

      if case .success(let view) = LogFileFormat.parse(
        try Data(contentsOf: URL(fileURLWithPath: path))), case .torn = view.tail
      {
        outcome.tornTailsOnDisk += 1
      }
      let log = try XCTUnwrap(try store.readLog("log"))
      let counters = log.records.map { KillPattern.counter(in: $0.bytes, size: recordSize) }
      outcome.tornRecords += counters.filter { $0 == nil }.count
      let whole = counters.compactMap { $0 }
      XCTAssertEqual(whole, log.records.map(\.position), "a record's counter is its position")
      let oldestKept = log.records.first?.position ?? 1
      outcome.lostAcknowledged +=
        acknowledged.filter { $0 >= oldestKept && !whole.contains($0) }.count
      if let newest = acknowledged.last {
        XCTAssertGreaterThanOrEqual(log.nextPosition, newest + 1)
      }
      outcome.recordsSeen.insert(whole.count)

      // The next append works after any kill, and keeps what was there.
      let next = log.nextPosition
      try store.append(
        [KillPattern.value(next, size: recordSize)], toLog: "log", capacity: capacity)
      let after = try XCTUnwrap(try store.readLog("log"))
      XCTAssertEqual(after.records.last?.position, next)
      XCTAssertEqual(
        Array(after.records.map(\.position).dropLast().suffix(capacity - 1)),
        Array(log.records.map(\.position).suffix(capacity - 1)))
    }
    return outcome
  }

  private func assertKillsAreHarmless(_ durability: FileStore.Durability, seed: UInt64) throws {
    let outcome = try killRepeatedly(rounds: 40, capacity: 64, durability: durability, seed: seed)
    XCTAssertEqual(outcome.kills, 40)
    XCTAssertEqual(outcome.tornRecords, 0, "a reader returned a torn record")
    XCTAssertEqual(outcome.lostAcknowledged, 0, "an acknowledged record was lost")
    XCTAssertGreaterThan(outcome.recordsSeen.count, 1, "kills landed at different moments")
  }

  func testKilledProcessCrashSafeAppenderLeavesNoTornRecordAndLosesNothing() throws {
    try assertKillsAreHarmless(.processCrashSafe, seed: 11)
  }

  func testKilledDurableAppenderLeavesNoTornRecordAndLosesNothing() throws {
    try assertKillsAreHarmless(.durable, seed: 12)
  }

  func testKillsLandInsideAppendsAndCompactions() throws {
    // Writes in slow pieces, so that kills land inside them and leave torn frames on disk; and
    // a small capacity, so that the helper compacts every few appends and kills also land in
    // compactions (a temporary file and a rename).
    let outcome = try killRepeatedly(
      rounds: 40, capacity: 6, durability: .processCrashSafe, seed: 13, slowWrites: true)
    XCTAssertEqual(outcome.tornRecords, 0)
    XCTAssertEqual(outcome.lostAcknowledged, 0)
    XCTAssertGreaterThan(outcome.tornTailsOnDisk, 0, "some kills must tear a frame on disk")
  }

  func testControlUnframedAppenderIsCaughtTearing() throws {
    let directory = try TemporaryDirectory(prefix: "stk-log-kill")
    var generator = SplitMix64(seed: 14)
    var torn = 0
    for _ in 0..<30 where torn == 0 {
      let (process, output) = try HelperProcess.start([
        "append-unframed-loop", "--dir", directory.path, "--size", "\(recordSize)",
      ])
      XCTAssertEqual(String(decoding: output.readData(ofLength: 6), as: UTF8.self), "ready\n")
      usleep(UInt32.random(in: 0...30_000, using: &generator))
      HelperProcess.kill(process)
      // The naive reader: length, then that many bytes, or whatever is left.
      let bytes = try Data(contentsOf: directory.url.appendingPathComponent("unframed"))
      var offset = 0
      while offset + 8 <= bytes.count {
        let length = bytes[offset..<offset + 8].reduce(0) { $0 << 8 | Int($1) }
        let record = bytes[(offset + 8)..<min(offset + 8 + length, bytes.count)]
        if KillPattern.counter(in: Data(record), size: recordSize) == nil { torn += 1 }
        offset += 8 + length
      }
    }
    XCTAssertGreaterThan(torn, 0, "the harness must see torn records without frames")
  }
}
