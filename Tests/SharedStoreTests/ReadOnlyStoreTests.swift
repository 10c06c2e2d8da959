import Foundation
import TestSupport
import Testing

@testable import SharedStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A store on a read-only volume, or in a directory the process may only read, opens and reads;
/// every change is an `io` error with the error number and the path it could not change.
@Suite("FileStore on a read-only directory")
struct ReadOnlyStoreTests {
  /// A store with a value under `k`, a log under `log`, and a bounded log under `bounded`,
  /// written while the directory was writable.
  struct Fixture {
    let root: TemporaryDirectory
    var store: String { root.path + "/store" }

    init() throws {
      root = try TemporaryDirectory(prefix: "stk-read-only")
      let store = try FileStore(directory: URL(fileURLWithPath: root.path + "/store"))
      try store.write(Data("value".utf8), for: "k")
      try store.append([Data("one".utf8), Data("two".utf8)], toLog: "log", capacity: 8)
      try BoundedLog<Int>(store: store, key: "bounded", capacity: 4).append(7)
    }

    /// Sets the permissions of the store's directory and of every file in it.
    func setPermissions(directory: mode_t, files: mode_t) throws {
      for name in try FileManager.default.contentsOfDirectory(atPath: store) {
        #expect(chmod(store + "/" + name, files) == 0)
      }
      #expect(chmod(store, directory) == 0)
    }
  }

  /// Every change a store offers, each expected to fail on a read-only store.
  ///
  /// An enum rather than an array of `throws(SharedStoreError)` closures: an array of
  /// typed-throws function types needs the typed-throws runtime of macOS 15 / iOS 18.
  enum Change: String, CaseIterable {
    case write, update, remove, quarantine, appendToLog, compactLog, removeTemporaryFiles

    /// Makes this change to `store`.
    func apply(to store: FileStore) throws(SharedStoreError) {
      switch self {
      case .write: try store.write(Data("new".utf8), for: "k")
      case .update:
        try store.update("k") { (data: inout Data?) throws(SharedStoreError) in data = nil }
      case .remove: try store.remove("k")
      case .quarantine: _ = try store.quarantine("k")
      case .appendToLog: try store.append([Data("three".utf8)], toLog: "log", capacity: 8)
      case .compactLog: try store.compactLog("log") { _ in false }
      case .removeTemporaryFiles: try store.removeTemporaryFiles()
      }
    }
  }

  @Test(
    "through the seam: it opens, reads, lists and polls; each change is io naming .lock",
    arguments: [EROFS, EACCES])
  func readOnlyThroughTheSeam(code: Int32) throws {
    let fixture = try Fixture()
    let before = try fixture.root.snapshot()
    let store = try FileStore(
      directory: URL(fileURLWithPath: fixture.store), durability: .durable,
      fileSystem: ReadOnlyVolume(failingWith: code))
    #expect(try store.read("k") == Data("value".utf8))
    #expect(try store.keys() == ["bounded", "k", "log"])
    #expect(try store.changeToken(for: "k") != nil)
    #expect(try store.readLog("log")?.records.map(\.bytes) == [Data("one".utf8), Data("two".utf8)])
    #expect(try BoundedLog<Int>(store: store, key: "bounded", capacity: 4).entries() == [7])
    for change in Change.allCases {
      #expect(
        throws: SharedStoreError.io(
          operation: "open", path: fixture.store + "/.lock", errno: Errno(rawValue: code)),
        "\(change)"
      ) { try change.apply(to: store) }
    }
    #expect(try fixture.root.snapshot() == before, "nothing was changed")
  }

  @Test("through the seam: a missing directory that cannot be created is an io error at open")
  func missingDirectoryOnAReadOnlyVolume() throws {
    let root = try TemporaryDirectory(prefix: "stk-read-only")
    let missing = root.path + "/missing"
    #expect(
      throws: SharedStoreError.io(operation: "mkdir", path: missing, errno: .readOnlyFileSystem)
    ) {
      _ = try FileStore(
        directory: URL(fileURLWithPath: missing), durability: .durable,
        fileSystem: ReadOnlyVolume(failingWith: EROFS))
    }
  }

  @Test("a store without a lock file yet opens read-only and creates .lock on its first change")
  func lockFileIsCreatedByTheFirstChange() throws {
    let root = try TemporaryDirectory(prefix: "stk-read-only")
    let store = try FileStore(directory: root.url.appendingPathComponent("store"))
    #expect(try root.contents() == ["store"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path + "/store").isEmpty)
    #expect(try store.read("k") == nil)
    try store.write(Data([1]), for: "k")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root.path + "/store").sorted()
        == [".lock", "k"])
  }

  /// The probe's operations, and what a read-only store answers, given the error number of its
  /// changes.
  static func expectedProbe(_ code: String) -> (operations: [String], lines: [String]) {
    let reads: [(String, String)] = [
      ("keys", "ok bounded,k,log"), ("read", "ok 5 bytes"), ("changeToken", "ok token"),
      ("readLog@log", "ok 2 records"),
    ]
    let changes = [
      "write", "update", "remove", "quarantine", "appendToLog@log", "compactLog@log",
      "removeTemporaryFiles",
    ]
    return (
      reads.map(\.0) + changes,
      ["open ok"] + reads.map { "\($0.0) \($0.1)" } + changes.map { "\($0) io \(code) .lock" }
    )
  }

  @Test("a real read-only store: a read-only mount, or a directory the process may only read")
  func realReadOnlyStore() throws {
    var ran: [String] = []
    if geteuid() != 0 {
      // Not root: permissions are enforced for this process itself.
      let fixture = try Fixture()
      try fixture.setPermissions(directory: 0o555, files: 0o444)
      defer { _ = try? fixture.setPermissions(directory: 0o755, files: 0o644) }
      let (operations, expected) = Self.expectedProbe("EACCES")
      #expect(try probe(fixture, operations) == expected)
      ran.append("permissions")
    } else {
      // Root ignores permissions: test a read-only bind mount in a private mount namespace, and
      // a directory the user nobody may only read, each in a helper process.
      for (how, code) in [("mount", "EROFS"), ("user", "EACCES")] {
        let fixture = try Fixture()
        try fixture.setPermissions(directory: 0o555, files: 0o444)
        let (operations, expected) = Self.expectedProbe(code)
        let lines = try probe(fixture, operations, readOnly: how)
        if lines.first?.hasPrefix("unavailable") == true { continue }
        #expect(lines == expected, "\(how)")
        #expect(try FileStore(directory: URL(fileURLWithPath: fixture.store)).read("k") != nil)
        ran.append(how)
      }
    }
    #expect(
      !ran.isEmpty,
      "no real read-only setup was possible (root without CAP_SYS_ADMIN or CAP_SETUID): only the seam tests ran"
    )
  }

  private func probe(_ fixture: Fixture, _ operations: [String], readOnly: String? = nil) throws
    -> [String]
  {
    try HelperProcess.run(
      ["probe", "--dir", fixture.store, "--key", "k", "--ops", operations.joined(separator: ",")]
        + (readOnly.map { ["--read-only", $0] } ?? []), timeLimit: .seconds(20))
  }
}
