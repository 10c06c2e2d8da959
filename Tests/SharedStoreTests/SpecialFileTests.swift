import Foundation
import TestSupport
import Testing

@testable import SharedStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Whatever sits in the shared folder, no operation of the store hangs, exhausts memory or
/// touches anything outside the store: a FIFO, a symbolic link, a directory, a socket, a device or
/// a huge file at a key's path, or at `.lock`, is a typed error within a bounded time.
///
/// Each case runs the store in a helper process (`stk-test-helper probe`) with a time limit and a
/// capped address space, so that a store that blocked on a FIFO or read `/dev/zero` without end
/// fails the test instead of hanging or exhausting the run.
@Suite("FileStore in a hostile folder")
struct SpecialFileTests {
  /// Something planted at a key's path.
  enum Hazard: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case fifo
    case symbolicLinkToDevZero
    case symbolicLinkOutOfTheStore
    case directory
    case socket
    case hugeSparseFile

    var testDescription: String { rawValue }

    /// What the store reports for it, as the probe renders it; `nil` for a regular file.
    var kind: FileKind? {
      switch self {
      case .fifo: return .fifo
      case .symbolicLinkToDevZero, .symbolicLinkOutOfTheStore: return .symbolicLink
      case .directory: return .directory
      case .socket: return .socket
      case .hugeSparseFile: return nil
      }
    }
  }

  /// A store directory beside an `outside` directory holding a file the store must never touch.
  struct Folder {
    let root: TemporaryDirectory
    var store: String { root.path + "/store" }
    var outside: String { root.path + "/outside" }
    var secret: String { outside + "/secret" }

    init() throws {
      root = try TemporaryDirectory(prefix: "stk-hostile")
      try FileManager.default.createDirectory(
        atPath: root.path + "/store", withIntermediateDirectories: true)
      try FileManager.default.createDirectory(
        atPath: root.path + "/outside", withIntermediateDirectories: true)
      try Data("not the store's".utf8).write(
        to: URL(fileURLWithPath: root.path + "/outside/secret"))
    }

    /// Every file outside the store, with its bytes; only regular files are planted there.
    func outsideSnapshot() throws -> [String: Data] {
      var files: [String: Data] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: outside) {
        files[name] = try Data(contentsOf: URL(fileURLWithPath: outside + "/" + name))
      }
      return files
    }

    /// Puts `hazard` at `path`.
    func plant(_ hazard: Hazard, at path: String) throws {
      switch hazard {
      case .fifo:
        #expect(mkfifo(path, 0o600) == 0, "mkfifo: errno \(errno)")
      case .symbolicLinkToDevZero:
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
      case .symbolicLinkOutOfTheStore:
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)
      case .directory:
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try Data("inside".utf8).write(to: URL(fileURLWithPath: path + "/file"))
      case .socket:
        try bindSocket(at: path)
      case .hugeSparseFile:
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(FileStore.maximumFileSize) + 1) == 0)
        close(descriptor)
      }
    }
  }

  /// Runs the probe on key `k` of `folder` and returns its lines.
  static func probe(_ folder: Folder, _ operations: [String]) throws -> [String] {
    try HelperProcess.run(
      [
        "probe", "--dir", folder.store, "--key", "k", "--ops",
        operations.joined(separator: ","), "--memory-limit-mb", "1024",
      ], timeLimit: .seconds(20))
  }

  static let reads = ["read", "changeToken", "readLog", "update", "appendToLog", "compactLog"]

  /// The hazards that are not regular files.
  ///
  /// A property, not a closure in `@Test`'s arguments, which crashes the Swift 6.0 compiler.
  static let notRegularFiles = Hazard.allCases.filter { $0.kind != nil }

  @Test(
    "anything but a regular file at a key is notARegularFile to all; quarantine moves it aside",
    arguments: notRegularFiles)
  func notARegularFileAtAKey(hazard: Hazard) throws {
    let folder = try Folder()
    try folder.plant(hazard, at: folder.store + "/k")
    let outsideBefore = try folder.outsideSnapshot()
    let kind = try #require(hazard.kind).rawValue
    let lines = try Self.probe(
      folder, ["keys"] + Self.reads + ["write", "keys", "quarantine", "read", "keys"])
    let refused = "notARegularFile k k \(kind)"
    #expect(
      lines
        == ["open ok", "keys ok "] + Self.reads.map { "\($0) \(refused)" }
        + [
          "write \(refused)", "keys ok ", "quarantine ok .quarantined.k.1", "read ok nil",
          "keys ok ",
        ])
    #expect(try folder.outsideSnapshot() == outsideBefore, "nothing outside the store changed")
  }

  @Test(
    "remove deletes anything at a key's path but a directory, and never what a link points to",
    arguments: notRegularFiles)
  func removeAtAKey(hazard: Hazard) throws {
    let folder = try Folder()
    try folder.plant(hazard, at: folder.store + "/k")
    let outsideBefore = try folder.outsideSnapshot()
    let lines = try Self.probe(folder, ["remove", "read"])
    if hazard == .directory {
      #expect(
        lines == [
          "open ok", "remove notARegularFile k k directory", "read notARegularFile k k directory",
        ])
    } else {
      #expect(lines == ["open ok", "remove ok removed", "read ok nil"])
    }
    #expect(try folder.outsideSnapshot() == outsideBefore)
  }

  @Test("a file over the maximum size is tooLarge, never read into memory; a write replaces it")
  func hugeSparseFile() throws {
    let folder = try Folder()
    try folder.plant(.hugeSparseFile, at: folder.store + "/k")
    let size = FileStore.maximumFileSize + 1
    let lines = try Self.probe(folder, ["keys"] + Self.reads + ["write", "read"])
    let refused = "tooLarge k k \(size) \(FileStore.maximumFileSize)"
    #expect(
      lines
        == ["open ok", "keys ok k"] + Self.reads.map { "\($0) \(refused)" }
        + ["write ok written", "read ok 3 bytes"])
  }

  @Test("a character device at a key's path is notARegularFile", .enabled(if: geteuid() == 0))
  func characterDevice() throws {
    let folder = try Folder()
    // The device numbers of /dev/zero (1, 5); only root may make a device node.
    #if os(Linux)
    let zero = dev_t(1 << 8 | 5)
    #else
    let zero = dev_t(3 << 24 | 3)
    #endif
    try #require(mknod(folder.store + "/k", S_IFCHR | 0o600, zero) == 0, "mknod: errno \(errno)")
    let lines = try Self.probe(folder, ["read", "write", "appendToLog"])
    #expect(
      lines == ["open ok"]
        + ["read", "write", "appendToLog"].map {
          "\($0) notARegularFile k k characterDevice"
        })
  }

  @Test("control: a naive read hangs on a FIFO and exhausts memory on /dev/zero, and is caught")
  func controlNaiveReadIsCaught() throws {
    let folder = try Folder()
    try folder.plant(.fifo, at: folder.store + "/k")
    try folder.plant(.symbolicLinkToDevZero, at: folder.store + "/zero")
    #expect {
      try HelperProcess.run(
        ["probe", "--dir", folder.store, "--key", "k", "--ops", "naiveRead"], timeLimit: .seconds(1)
      )
    } throws: { error in
      "\(error)".contains("still running")
    }
    #expect {
      try HelperProcess.run(
        [
          "probe", "--dir", folder.store, "--key", "zero", "--ops", "naiveRead",
          "--memory-limit-mb", "1024",
        ], timeLimit: .seconds(20))
    } throws: { error in
      "\(error)".contains("ended with signal")
    }
  }

  // MARK: - The lock file

  enum LockHazard: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case danglingSymbolicLink
    case symbolicLinkToAFile
    case fifo
    case directory

    var testDescription: String { rawValue }
  }

  @Test(
    "a .lock that is not a regular file is never used: reads work, changes are notARegularFile",
    arguments: LockHazard.allCases)
  func hostileLockFile(hazard: LockHazard) throws {
    let folder = try Folder()
    try FileStore(directory: URL(fileURLWithPath: folder.store)).write(Data("value".utf8), for: "k")
    let lock = folder.store + "/.lock"
    try FileManager.default.removeItem(atPath: lock)
    let created = folder.outside + "/created-by-the-store"
    switch hazard {
    case .danglingSymbolicLink:
      try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: created)
    case .symbolicLinkToAFile:
      try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: folder.secret)
    case .fifo:
      #expect(mkfifo(lock, 0o600) == 0)
    case .directory:
      try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
    }
    let outsideBefore = try folder.outsideSnapshot()
    let changes = [
      "write", "update", "appendToLog", "compactLog", "remove", "quarantine",
      "removeTemporaryFiles",
    ]
    let lines = try Self.probe(folder, ["read", "keys", "changeToken"] + changes)
    let kind: FileKind =
      switch hazard {
      case .danglingSymbolicLink, .symbolicLinkToAFile: .symbolicLink
      case .fifo: .fifo
      case .directory: .directory
      }
    #expect(
      lines
        == ["open ok", "read ok 5 bytes", "keys ok k", "changeToken ok token"]
        + changes.map { "\($0) notARegularFile - .lock \(kind.rawValue)" })
    #expect(try folder.outsideSnapshot() == outsideBefore, "nothing outside the store changed")
    #expect(!FileManager.default.fileExists(atPath: created))
  }

  @Test("a .lock replaced by a symbolic link after the store opened it is detected, not locked")
  func lockReplacedByALink() throws {
    let folder = try Folder()
    let store = try FileStore(directory: URL(fileURLWithPath: folder.store))
    try store.write(Data("value".utf8), for: "k")
    let lock = folder.store + "/.lock"
    try FileManager.default.removeItem(atPath: lock)
    try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: folder.secret)
    #expect(throws: SharedStoreError.notARegularFile(key: nil, path: lock, kind: .symbolicLink)) {
      try store.write(Data("new".utf8), for: "k")
    }
    #expect(try store.read("k") == Data("value".utf8))
    try FileManager.default.removeItem(atPath: lock)
    try store.write(Data("new".utf8), for: "k")
    #expect(try store.read("k") == Data("new".utf8), "the store works once .lock is removed")
  }

  // MARK: - Other leftovers

  @Test("removeTemporaryFiles leaves alone what is named like a temporary file but is not a file")
  func temporaryNamedDirectory() throws {
    let folder = try Folder()
    let store = try FileStore(directory: URL(fileURLWithPath: folder.store))
    try FileManager.default.createDirectory(
      atPath: folder.store + "/.tmp.k.dir", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: folder.store + "/.tmp.k.link", withDestinationPath: folder.secret)
    try Data("leftover".utf8).write(to: URL(fileURLWithPath: folder.store + "/.tmp.k.file"))
    #expect(try store.removeTemporaryFiles() == 1)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.store).sorted() == [
        ".lock", ".tmp.k.dir", ".tmp.k.link",
      ])
    #expect(FileManager.default.fileExists(atPath: folder.secret))
  }

  @Test("a planted quarantine number at the largest Int is an io error, not a crash")
  func quarantineNumberOverflow() throws {
    let folder = try Folder()
    let store = try FileStore(directory: URL(fileURLWithPath: folder.store))
    try store.write(Data("value".utf8), for: "k")
    try Data().write(
      to: URL(fileURLWithPath: folder.store + "/.quarantined.k.\(Int.max)"))
    #expect {
      try store.quarantine("k")
    } throws: { error in
      guard case .io(_, _, .fileExists) = error as? SharedStoreError else { return false }
      return true
    }
    #expect(try store.read("k") == Data("value".utf8))
  }

  @Test("a value file that grows while it is read is reported, and the read is bounded")
  func growingValueFile() throws {
    let folder = try Folder()
    let fileSystem = GrowingFileSystem()
    let store = try FileStore(
      directory: URL(fileURLWithPath: folder.store), durability: .processCrashSafe,
      fileSystem: fileSystem)
    try store.write(Data("value".utf8), for: "k")
    fileSystem.growOnNextRead()
    #expect {
      try store.read("k")
    } throws: { error in
      guard case .corrupted(let key, _, let reason) = error as? SharedStoreError else {
        return false
      }
      return key == "k" && reason.contains("grew while it was read")
    }
  }
}

/// Binds a Unix-domain socket at `path`, which leaves a socket file there.
private func bindSocket(at path: String) throws {
  #if os(Linux)
  let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  #else
  let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
  #endif
  try #require(descriptor >= 0)
  defer { close(descriptor) }
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let bytes = Array(path.utf8)
  try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
  withUnsafeMutableBytes(of: &address.sun_path) { buffer in
    buffer.copyBytes(from: bytes)
  }
  let status = withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  try #require(status == 0, "bind: errno \(errno)")
}

/// The real file system, except that a read can be made to see a file that grew: it returns
/// every byte asked for, past the end, as if another process were appending in place.
final class GrowingFileSystem: ForwardingFileSystem {
  let base: any FileSystem = POSIXFileSystem()
  private let grow = LockedValue(false)

  /// Makes the next positioned read return as many bytes as asked for.
  func growOnNextRead() { grow.withLock { $0 = true } }

  func read(_ descriptor: Int32, count: Int, at offset: Int) throws(SystemCallError) -> Data {
    let data = try base.read(descriptor, count: count, at: offset)
    guard grow.withLock({ $0 }) else { return data }
    grow.withLock { $0 = false }
    return data + Data(repeating: 0x2A, count: count - data.count)
  }
}
