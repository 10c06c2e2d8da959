import Foundation
import TestSupport
import Testing

@testable import SharedStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Every call the store makes through its file-system seam may fail, and whatever fails, the store
/// reports a typed error, keeps the old state, leaves no temporary file and no lock held, and
/// works again once the fault clears.
///
/// The matrix is operation × seam call × error number × once-or-permanently; within each case the
/// fault is injected at every occurrence of that call in the operation, one run each. Which calls
/// an operation makes is not listed by hand but traced: each operation runs once through a
/// counting seam, so a new call in the store's write path joins the matrix by itself. The
/// directories live on `/dev/shm` where there is one, so that thousands of durable writes stay
/// fast.
@Suite("FileStore fault injection at every seam call")
struct FaultMatrixTests {
  /// An operation of the store, on a directory prepared for it.
  enum Operation: String, CaseIterable, Sendable {
    case write, writeNewKey, update, remove, quarantine
    case appendToLog, createLog, appendCompacting, compactLog
    case read, readLog, changeToken

    /// The capacity of the log operations: `appendCompacting` starts with twice as many records,
    /// so that its append rewrites the log.
    static let capacity = 3

    /// Whether it only reads: then nothing may change, whatever happens.
    var isRead: Bool { [.read, .readLog, .changeToken].contains(self) }

    /// Writes the state the operation starts from.
    func prepare(_ store: FileStore) throws {
      try store.write(Data("old value".utf8), for: "k")
      let records = self == .appendCompacting ? 2 * Self.capacity : 2
      for index in 1...records {
        try store.append([Data("old \(index)".utf8)], toLog: "log", capacity: Self.capacity)
      }
    }

    /// Runs the operation.
    func run(_ store: FileStore) throws(SharedStoreError) {
      switch self {
      case .write: try store.write(Data("new value".utf8), for: "k")
      case .writeNewKey: try store.write(Data("fresh".utf8), for: "fresh")
      case .update:
        try store.update("k") { (data: inout Data?) throws(SharedStoreError) in
          data?.append(contentsOf: Data(" updated".utf8))
        }
      case .remove: try store.remove("k")
      case .quarantine: _ = try store.quarantine("k")
      case .appendToLog, .appendCompacting:
        try store.append([Data("new".utf8)], toLog: "log", capacity: Self.capacity)
      case .createLog:
        try store.append([Data("first".utf8)], toLog: "fresh-log", capacity: Self.capacity)
      case .compactLog:
        try store.compactLog("log") { record in record.position % 2 == 0 }
      case .read: _ = try store.read("k")
      case .readLog: _ = try store.readLog("log")
      case .changeToken: _ = try store.changeToken(for: "log")
      }
    }
  }

  /// One seam call of one operation, and how often the operation makes it.
  struct SeamCall: CustomTestStringConvertible, Sendable {
    var operation: Operation
    var call: FaultyFileSystem.Call
    var occurrences: Int

    var testDescription: String { "\(operation.rawValue) × \(call.rawValue)" }
  }

  /// An error number and whether it clears after one failed call or persists.
  struct Fault: CustomTestStringConvertible, Sendable {
    var code: Int32
    var permanent: Bool

    var testDescription: String {
      "\(Errno(rawValue: code).description) \(permanent ? "permanently" : "once")"
    }

    static let all = [ENOSPC, EIO, EACCES, EINTR].flatMap { code in
      [false, true].map { Fault(code: code, permanent: $0) }
    }
  }

  /// A prepared directory, a store on it through a faulty seam, and a second store on it through
  /// the real file system for checking.
  struct Fixture {
    let directory: TemporaryDirectory
    let fileSystem = FaultyFileSystem()
    let store: FileStore
    let checker: FileStore

    init(_ operation: Operation) throws {
      directory = try TemporaryDirectory(prefix: "stk-fault", preferringMemory: true)
      checker = try FileStore(directory: directory.url, durability: .durable)
      try operation.prepare(checker)
      store = try FileStore(
        directory: directory.url, durability: .durable, fileSystem: fileSystem)
    }

    /// Everything a reader sees: every key's value or log, and the quarantined files.
    func state() throws -> [String] {
      var lines: [String] = []
      for key in try checker.keys() {
        lines.append("\(key) = \(try describe(key))")
      }
      return lines + (try checker.quarantinedFiles()).map { "quarantined \($0.suffix(16))" }
    }

    /// The value of `key`, or its log's records and evicted count.
    private func describe(_ key: String) throws(SharedStoreError) -> String {
      let value: Data?
      do {
        value = try checker.read(key)
      } catch {
        guard case .kindMismatch = error, let log = try checker.readLog(key) else { throw error }
        let records = log.records.map {
          "\($0.position):\(String(decoding: $0.bytes, as: UTF8.self))"
        }
        return "log \(records) evicted \(log.evictedCount)"
      }
      return String(decoding: value ?? Data(), as: UTF8.self)
    }

    /// Whether any temporary file is left in the directory.
    func temporaryFiles() throws -> [String] {
      try directory.contents().filter { $0.hasPrefix(".tmp.") }
    }

    /// Whether another process can take the store's lock: at once, or within a second.
    ///
    /// A lock on a file is held as long as any copy of a descriptor of it is open, and a test
    /// running in parallel that spawns a helper process copies every descriptor of this one
    /// into the child until it calls `exec`, which closes them (`O_CLOEXEC`): the store's lock
    /// can look held for that instant after the store let it go. A lock the store still holds
    /// stays held the whole second.
    func lockIsFree() -> Bool {
      let descriptor = open(directory.path + "/.lock", O_RDWR | O_CLOEXEC)
      guard descriptor >= 0 else { return false }
      defer { close(descriptor) }
      for _ in 0..<1_000 {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        usleep(1_000)
      }
      return false
    }
  }

  /// Every seam call each operation makes, found by running it once through a counting seam.
  static func seamCalls() throws -> [SeamCall] {
    try Operation.allCases.flatMap { operation in
      let fixture = try Fixture(operation)
      let opening = fixture.fileSystem.counts
      try operation.run(fixture.store)
      return fixture.fileSystem.counts
        .map { ($0.key, $0.value - opening[$0.key, default: 0]) }
        .filter { $0.1 > 0 }
        .sorted { $0.0.rawValue < $1.0.rawValue }
        .map { SeamCall(operation: operation, call: $0.0, occurrences: $0.1) }
    }
  }

  @Test(
    "a failing seam call is a typed error with the old state, no temporary file, no lock held",
    arguments: try seamCalls(), Fault.all)
  func faultAtEveryCall(seamCall: SeamCall, fault: Fault) throws {
    for violation in try Self.violations(seamCall, fault) { Issue.record("\(violation)") }
  }

  @Test("control: a seam that swallows a failed write tears the value, and the matrix sees it")
  func controlSwallowedWriteFaultIsCaught() throws {
    let seamCall = SeamCall(operation: .write, call: .writeAll, occurrences: 1)
    let violations = try Self.violations(
      seamCall, Fault(code: ENOSPC, permanent: false), swallowingWriteFaults: true)
    #expect(!violations.isEmpty, "a torn value must be seen")
  }

  /// Injects `fault` at every occurrence of the seam call in its operation, and returns every
  /// broken rule.
  static func violations(
    _ seamCall: SeamCall, _ fault: Fault, swallowingWriteFaults: Bool = false
  ) throws -> [String] {
    let operation = seamCall.operation
    // What the operation leaves when nothing fails.
    let reference = try Fixture(operation)
    let old = try reference.state()
    try operation.run(reference.store)
    let new = try reference.state()

    var violations: [String] = []
    for occurrence in 0..<seamCall.occurrences {
      let context = "\(seamCall.testDescription) #\(occurrence + 1), \(fault.testDescription)"
      func check(_ rule: Bool, _ what: String) {
        if !rule { violations.append("\(context): \(what)") }
      }
      let fixture = try Fixture(operation)
      if swallowingWriteFaults { fixture.fileSystem.swallowWriteFaults() }
      fixture.fileSystem.fail(
        seamCall.call, errno: fault.code, skip: occurrence, times: fault.permanent ? .max : 1)
      let outcome = Result { () throws(SharedStoreError) in try operation.run(fixture.store) }
      check(fixture.fileSystem.injectedCount >= 1, "the fault was injected")
      fixture.fileSystem.stopFailing()

      let state: [String]
      do {
        state = try fixture.state()
      } catch {
        violations.append("\(context): a reader sees \(error)")
        continue
      }
      switch outcome {
      case .success:
        // The failed call was one whose failure changes nothing: closing a descriptor only read
        // from, or releasing the lock (the store then closes the lock file, which releases it).
        check(state == (operation.isRead ? old : new), "succeeded, leaving \(state)")
      case .failure(.notDurable(_, _, let errno)):
        check(!operation.isRead, "a read is never notDurable")
        check(errno == Errno(rawValue: fault.code), "notDurable with \(errno)")
        check(state == new, "notDurable, but the change is not in place: \(state)")
      case .failure(.io(let call, let path, let errno)):
        check(errno == Errno(rawValue: fault.code), "\(call) on \(path) failed with \(errno)")
        check(path.hasPrefix(fixture.directory.path), "\(path) is not a path of the store")
        check(state == old, "failed, but the old state is not intact: \(state)")
      case .failure(let error):
        check(false, "an unexpected outcome \(error)")
      }
      check(try fixture.temporaryFiles().isEmpty, "a temporary file is left")
      check(fixture.lockIsFree(), "the lock is still held")

      // Once the fault clears, the store works: the operation runs, and so does a plain write.
      do {
        try operation.run(fixture.store)
        try fixture.store.write(Data("after".utf8), for: "after")
        check(try fixture.checker.read("after") == Data("after".utf8), "a later write is lost")
      } catch {
        check(false, "the store does not work again: \(error)")
      }
    }
    return violations
  }

  @Test("the matrix covers every call of the write path")
  func matrixCoversTheWritePath() throws {
    let calls = Set(try Self.seamCalls().map(\.call))
    // No `.identity`: the lock file's identity comes from the `fstat` (`.status`) that checks
    // it when it is opened.
    let writePath: Set<FaultyFileSystem.Call> = [
      .open, .close, .readPrefix, .writeAll, .synchronize, .rename, .unlink, .lockExclusively,
      .unlock, .status, .contentsOfDirectory, .readAt, .writeAt, .size,
    ]
    #expect(writePath.subtracting(calls).isEmpty, "never faulted: \(writePath.subtracting(calls))")
  }
}
