import Foundation
import SharedStore
import TestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// `Scripts/stress.sh`, scenario 5: on a real full file system, a write fails with the typed
/// disk-full error, every old value stays as it was, and the store works again once space is
/// freed.
///
/// `stk-test-helper probe --tmpfs-kb` mounts a 1 MiB tmpfs on the store's folder in a mount
/// namespace of its own, so the mount needs root (`CAP_SYS_ADMIN`) but can never outlive the
/// helper. `FaultMatrixTests` injects `ENOSPC` at every system call of the write path; this
/// checks the same against the kernel's own answer.
@Suite("Stress: disk full")
struct DiskFullStressTests {
  /// The probe's operations, in order, and what each must answer; `nil` for `fill`, checked apart.
  static let steps: [(operation: String, expected: String?)] = [
    ("write", "ok written"),
    ("readText", "ok new"),
    ("appendToLog@log", "ok appended"),
    ("fill", nil),
    ("write", "io ENOSPC .tmp"),
    ("update", "io ENOSPC .tmp"),
    ("appendToLog@fresh-log", "io ENOSPC .tmp"),
    ("readText", "ok new"),
    ("readLog@log", "ok 1 records"),
    ("removeTemporaryFiles", "ok 0 removed"),
    ("unfill", nil),
    ("update", "ok ran"),
    ("readText", "ok updated"),
    ("appendToLog@fresh-log", "ok appended"),
  ]

  @Test(
    """
    a full file system refuses writes with ENOSPC, keeps every old value, leaves no temporary \
    file, and the store works once space is freed
    """,
    .enabled(if: StressRun.current != nil, "set STK_STRESS, as Scripts/stress.sh does"))
  func fullDisk() throws {
    guard geteuid() == 0 else {
      StressRun.report("disk full", "skipped: not root, so no tmpfs can be mounted")
      try Self.skip("not root")
      return
    }
    let directory = try TemporaryDirectory(prefix: "stk-stress-disk-full")
    let lines = try HelperProcess.run(
      [
        "probe", "--dir", directory.path, "--key", "value", "--tmpfs-kb", "1024",
        "--ops", Self.steps.map(\.operation).joined(separator: ","),
      ],
      timeLimit: .seconds(60))
    if let refused = lines.first, refused.hasPrefix("unavailable") {
      StressRun.report("disk full", "skipped: mounting a tmpfs was refused (errno \(refused))")
      try Self.skip("mount refused: \(refused)")
      return
    }
    #expect(lines.first == "open ok")
    let answers = Array(lines.dropFirst())
    try #require(answers.count == Self.steps.count, "\(lines)")
    for (step, answer) in zip(Self.steps, answers) {
      if let expected = step.expected {
        #expect(answer == "\(step.operation) \(expected)")
      }
    }
    // "fill ok N values of 65536 bytes, then io ENOSPC .tmp; M values of 1 bytes, then ..."
    let fill = answers[3]
    let filled = fill.split(separator: " ").compactMap { Int($0) }
    #expect(
      fill.hasPrefix("fill ok ") && fill.components(separatedBy: "then io ENOSPC .tmp").count == 3,
      "\(fill)")
    #expect(answers[10] == "unfill ok \(filled.count == 4 ? filled[0] + filled[2] : -1) removed")
    StressRun.report(
      "disk full",
      "tmpfs of 1 MiB filled with \(filled.first ?? 0) values of 64 KiB and "
        + "\(filled.count == 4 ? filled[2] : 0) of 1 byte; write, update and a new log's first "
        + "append refused with SharedStoreError.io ENOSPC; old value and log intact; temporary "
        + "files left 0; after freeing, update and append work")
  }

  /// Ends the test as skipped, saying why, where Swift Testing can (`Test.cancel`, Swift 6.3).
  ///
  /// Before Swift 6.3 it returns and the caller returns: the test then passes having checked
  /// nothing, and the stress report says it was skipped.
  ///
  /// - Parameter reason: Why the scenario cannot run here.
  /// - Throws: The cancellation, under Swift 6.3 and later.
  static func skip(_ reason: Comment) throws {
    #if compiler(>=6.3)
    try Test.cancel(reason)
    #endif
  }
}
