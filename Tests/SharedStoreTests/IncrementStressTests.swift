import Foundation
import SharedStore
import TestSupport
import Testing

/// `Scripts/stress.sh`, scenario 1: eight processes increment one key of a durable `FileStore`
/// through `update` at once, and every number from 1 to the total is handed out exactly once.
///
/// Each increment prints the value its `update` produced, so a lost update shows as a number
/// handed out twice and another missing. `MultiProcessTests` holds the control (a read then a
/// write) that this would catch.
@Suite("Stress: multi-process increments")
struct IncrementStressTests {
  @Test(
    "8 processes incrementing one key hand out every number once and end at the total",
    .enabled(if: StressRun.current != nil, "set STK_STRESS, as Scripts/stress.sh does"))
  func everyNumberOnce() throws {
    let stress = try #require(StressRun.current)
    let processes = 8
    let count = stress.scaled(full: 5_000, short: 500)
    let total = processes * count
    // On the memory file system where there is one, so that 40,000 durable updates measure the
    // store's exclusion and not the disk's flushes.
    let directory = try TemporaryDirectory(
      prefix: "stk-stress-increments", preferringMemory: true)
    let fileSystem =
      directory.url.path.hasPrefix("/dev/shm") ? "/dev/shm" : "the temporary folder"
    let clock = ContinuousClock()
    let started = clock.now
    let run = try IncrementRun(
      processes: processes, count: count, durability: .durable, in: directory.url)
    let seconds = (clock.now - started) / .seconds(1)
    StressRun.report(
      "increments",
      "\(processes) processes x \(count) durable updates on \(fileSystem), final "
        + "\(run.final) (expected \(total)), \(run.all.count) values, duplicates "
        + "\(run.duplicates), missing \(run.missing(of: total)), "
        + "\(Int(Double(total) / seconds)) updates/s")
    #expect(run.final == total)
    #expect(run.all.count == total)
    #expect(run.duplicates == 0)
    #expect(run.missing(of: total) == 0)
    #expect(run.processesOutOfOrder == 0, "each process sees its own numbers increase")
  }
}
