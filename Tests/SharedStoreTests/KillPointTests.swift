import Foundation
import SharedStore
import TestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A writer killed at each fixed step of the store's write path leaves the old state or the new
/// one, never a torn or damaged one, and the next writer gets the lock within 100 ms of the kill.
///
/// Where `KillSafetyTests` kills at random moments, these kill at named ones, deterministically:
/// `stk-test-helper kill-point-run` makes one change through a file system that SIGKILLs its own
/// process at the chosen step — with the lock just taken, with the temporary file just created,
/// half-way through a write, before the flush of the file, before the rename, before the flush of
/// the directory. For a value, and for the three logs built on append-only logs (`BoundedLog`,
/// `SequencedOutbox`, `HeartbeatRecorder`), both for an append (a frame written in place) and for
/// an append that compacts (a new file renamed into place). Serialized, so that the lock waits
/// measure the kernel, not other tests.
@Suite("FileStore kill points", .serialized)
struct KillPointTests {
  /// One change of one subject, killed at one point.
  struct Scenario: CustomTestStringConvertible, Sendable {
    var subject: String
    var variant: String
    var point: String

    var testDescription: String { "\(subject) \(variant), killed \(point)" }
  }

  /// Points where a change that writes a new file and renames it can die.
  static let replacingPoints = [
    "lock-held", "temporary-created", "mid-write", "before-flush", "before-rename",
    "before-directory-flush",
  ]
  /// Points where an append that writes a frame in place can die.
  static let appendingPoints = ["lock-held", "mid-write", "before-flush"]

  static let scenarios: [Scenario] =
    replacingPoints.map { Scenario(subject: "value", variant: "write", point: $0) }
    + ["bounded-log", "outbox", "heartbeats"].flatMap { subject in
      appendingPoints.map { Scenario(subject: subject, variant: "append", point: $0) }
        + replacingPoints.map { Scenario(subject: subject, variant: "compact", point: $0) }
    }

  /// The most a writer may wait for the lock after the holder was killed.
  static let lockWaitLimit: UInt64 = 100_000_000

  /// What a kill left, and what came before and after it.
  struct Outcome {
    /// The subject's state before the change, and after it when nothing killed it.
    var old: [String]
    var new: [String]
    /// The state a reader saw after the kill.
    var afterKill: [String]
    /// The state after the next change, made once the kill's leftovers were removed.
    var afterNext: [String]
    /// How long after the kill another process took the lock, in nanoseconds.
    var lockWait: UInt64
  }

  @Test("a writer killed at a fixed point leaves the old or the new state", arguments: scenarios)
  func killedWriter(scenario: Scenario) throws {
    let outcome = try kill(scenario)
    // Before the rename (or, for an append, before the frame is written) readers see the old
    // state; from then on, the new one.
    let isNew =
      scenario.point == "before-directory-flush"
      || (scenario.variant == "append" && scenario.point == "before-flush")
    #expect(
      outcome.afterKill == (isNew ? outcome.new : outcome.old),
      "\(outcome.afterKill): old \(outcome.old), new \(outcome.new)")
    #expect(
      outcome.lockWait < Self.lockWaitLimit,
      "the next writer waited \(outcome.lockWait / 1_000) µs for the lock")
    // The next change lands, and keeps what readers saw after the kill, the oldest evicted:
    // nothing seen is lost, and no position or number is handed out twice.
    #expect(outcome.afterNext.contains { $0.hasSuffix(" 101") }, "\(outcome.afterNext)")
    if scenario.subject != "value" {
      let seen = outcome.afterKill.dropLast()
      let kept = Array(outcome.afterNext.dropLast(2))
      #expect(kept == Array(seen.suffix(kept.count)), "\(outcome.afterKill) → \(outcome.afterNext)")
    }
    if scenario.subject == "outbox" {
      // "number N entry C": the next publish takes the number after the newest one seen.
      func number(_ line: String?) -> UInt64? {
        line.flatMap { UInt64($0.split(separator: " ")[1]) }
      }
      let newest = number(outcome.afterNext.dropLast().last)
      #expect(newest != nil && newest == number(outcome.afterKill.dropLast().last).map { $0 + 1 })
    }
  }

  @Test("control: a writer that rewrites the file in place, killed mid-write, is caught tearing")
  func controlInPlaceWriterIsCaught() throws {
    let outcome = try kill(
      Scenario(subject: "value-in-place", variant: "write", point: "mid-write"))
    #expect(outcome.afterKill != outcome.old && outcome.afterKill != outcome.new)
    #expect(outcome.afterKill.first?.hasPrefix("error") == true, "\(outcome.afterKill)")
  }

  /// Prepares the subject, learns the old and new states, then makes the change in a process
  /// killed at the point while this one waits for the lock; then reads, cleans up and changes
  /// again.
  private func kill(_ scenario: Scenario) throws -> Outcome {
    let prepared = try TemporaryDirectory(prefix: "stk-kill-point")
    let store = prepared.path + "/store"
    _ = try helper(["kill-point-prepare", "--dir", store, "--variant", scenario.variant], scenario)
    let old = try helper(["kill-point-read", "--dir", store], scenario)

    // The state the change leaves when nothing kills it.
    let reference = try copy(prepared)
    let new = try helper(
      [
        "kill-point-run", "--dir", reference.path + "/store", "--counter", "100", "--point", "none",
      ],
      scenario)

    // The same change, killed at the point, while this process waits to take the lock.
    let killed = try copy(prepared)
    let killedStore = killed.path + "/store"
    let waiter = try FileStore(directory: URL(fileURLWithPath: killedStore))
    try waiter.write(Data("open the lock file".utf8), for: "waiter")
    let (process, output) = try HelperProcess.start([
      "kill-point-run", "--dir", killedStore, "--subject", scenario.subject, "--counter", "100",
      "--point", scenario.point,
    ])
    let line = HelperProcess.readLine(output)
    var acquired: UInt64 = 0
    try waiter.update("waiter") { (data: inout Data?) throws(SharedStoreError) in
      acquired = monotonicNanoseconds()
      data = Data("after the kill".utf8)
    }
    HelperProcess.waitForExit(process)
    #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    let killedAt = try #require(
      line.hasPrefix("killed ") ? UInt64(line.dropFirst("killed ".count)) : nil,
      "the helper did not reach \(scenario.point): \(line)")
    let wait = acquired > killedAt ? acquired - killedAt : 0
    print("kill point \(scenario.testDescription): lock taken \(wait / 1_000) µs after the kill")
    let afterKill = try helper(["kill-point-read", "--dir", killedStore], scenario)

    // The store keeps working: leftovers are cleaned up and the next change lands.
    try waiter.removeTemporaryFiles()
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: killedStore)
        .filter { $0.hasPrefix(".tmp.") }.isEmpty)
    let afterNext = try helper(
      ["kill-point-run", "--dir", killedStore, "--counter", "101", "--point", "none"], scenario)
    return Outcome(old: old, new: new, afterKill: afterKill, afterNext: afterNext, lockWait: wait)
  }

  /// Runs a kill-point subcommand on `scenario`'s subject and returns its lines.
  private func helper(_ arguments: [String], _ scenario: Scenario) throws -> [String] {
    try HelperProcess.run(arguments + ["--subject", scenario.subject], timeLimit: .seconds(20))
  }

  /// A copy of the prepared store in a fresh temporary directory.
  private func copy(_ prepared: TemporaryDirectory) throws -> TemporaryDirectory {
    let copy = try TemporaryDirectory(prefix: "stk-kill-point")
    try FileManager.default.copyItem(atPath: prepared.path + "/store", toPath: copy.path + "/store")
    return copy
  }
}
