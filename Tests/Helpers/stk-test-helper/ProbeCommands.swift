import Foundation
import SharedStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

// The hostile-folder and read-only subcommand, for SpecialFileTests and ReadOnlyStoreTests in
// SharedStoreTests. It runs in a process of its own so that a store that blocked on a FIFO or read
// /dev/zero without end would hang or exhaust this process, not the test runner's.
//
//   probe --dir D --key K --ops OP,OP,... [--read-only mount|user] [--memory-limit-mb M]
//         [--tmpfs-kb S]
//       Opens a FileStore on D (printing "open <outcome>"), then runs each operation on K and
//       prints "<op> <outcome>", one line each. Operations: keys, read, readText, changeToken,
//       readLog, update, write, appendToLog, compactLog, remove, quarantine,
//       removeTemporaryFiles; fill (write values under fill-0, fill-1, ... until the store
//       refuses one, first of 64 KiB, then of 1 byte), unfill (remove those keys); and
//       naiveRead, the control: a plain read of the key's path, which follows links, waits on a
//       FIFO and reads to the end. "OP@K2" runs OP on the key K2 instead.
//       An outcome is "ok <what it returned>" or the error, rendered by `render(_:directory:)`.
//       --read-only mount: first makes D a read-only bind mount in a mount namespace of this
//       process only (Linux, needs CAP_SYS_ADMIN); --read-only user: first becomes the user and
//       group 65534 (nobody; needs CAP_SETUID). Either prints "unavailable <errno>" and exits 0
//       when the system refuses. --memory-limit-mb caps the address space (RLIMIT_AS), so that a
//       read without bound ends in a crash instead of exhausting the machine. --tmpfs-kb S:
//       first mounts a tmpfs of S KiB on D, which must exist, in a mount namespace of this
//       process only (Linux, needs CAP_SYS_ADMIN), for the disk-full scenario of
//       Scripts/stress.sh; prints "unavailable <errno>" and exits 0 when the system refuses.

/// Runs the probe subcommand; returns `false` when `name` is not it.
func runProbeCommand(_ name: String, _ options: Options) throws -> Bool {
  guard name == "probe" else { return false }
  let directory = try options.string("dir")
  let key = try options.string("key")
  let operations = try options.string("ops").split(separator: ",").map(String.init)
  if let megabytes = options.values["memory-limit-mb"].flatMap(Int.init) {
    try limitAddressSpace(megabytes: megabytes)
  }
  if let kibibytes = options.values["tmpfs-kb"].flatMap(Int.init),
    let refused = mountPrivateTemporaryFileSystem(directory, kibibytes: kibibytes)
  {
    emit("unavailable \(refused)")
    return true
  }
  switch options.values["read-only"] {
  case nil: break
  case "mount"?:
    if let refused = makeReadOnlyBindMount(directory) {
      emit("unavailable \(refused)")
      return true
    }
  case "user"?:
    if let refused = becomeNobody() {
      emit("unavailable \(refused)")
      return true
    }
  case let other?:
    throw HelperError("unknown --read-only \(other)")
  }

  let store: FileStore
  do {
    store = try FileStore(directory: URL(fileURLWithPath: directory))
    emit("open ok")
  } catch {
    emit("open " + render(error, directory: directory))
    return true
  }
  for operation in operations {
    // "read@other" runs read on the key "other".
    let parts = operation.split(separator: "@").map(String.init)
    let outcome: String
    do {
      outcome =
        "ok "
        + (try run(parts[0], on: store, key: parts.count > 1 ? parts[1] : key, directory: directory))
    } catch let error as SharedStoreError {
      outcome = render(error, directory: directory)
    }
    emit("\(operation) \(outcome)")
  }
  return true
}

/// Runs one operation and describes what it returned.
private func run(_ operation: String, on store: FileStore, key: String, directory: String)
  throws -> String
{
  switch operation {
  case "keys":
    return try store.keys().joined(separator: ",")
  case "read":
    return try store.read(key).map { "\($0.count) bytes" } ?? "nil"
  case "readText":
    return try store.read(key).map { String(decoding: $0, as: UTF8.self) } ?? "nil"
  case "changeToken":
    return try store.changeToken(for: key) == nil ? "nil" : "token"
  case "readLog":
    return try store.readLog(key).map { "\($0.records.count) records" } ?? "nil"
  case "update":
    var ran = false
    try store.update(key) { (data: inout Data?) throws(SharedStoreError) in
      ran = true
      data = Data("updated".utf8)
    }
    return ran ? "ran" : "did not run"
  case "write":
    try store.write(Data("new".utf8), for: key)
    return "written"
  case "appendToLog":
    try store.append([Data("record".utf8)], toLog: key, capacity: 8)
    return "appended"
  case "compactLog":
    return "\(try store.compactLog(key) { _ in false }) removed"
  case "remove":
    try store.remove(key)
    return "removed"
  case "quarantine":
    return try store.quarantine(key).map { relative($0, to: directory) } ?? "nil"
  case "removeTemporaryFiles":
    return "\(try store.removeTemporaryFiles()) removed"
  case "fill":
    return try fill(store, directory: directory)
  case "unfill":
    let filled = try store.keys().filter { $0.hasPrefix("fill-") }
    for key in filled { try store.remove(key) }
    return "\(filled.count) removed"
  case "naiveRead":
    // The control: what the store did before, following links, waiting on a FIFO, reading to
    // the end however far that is.
    let descriptor = open(store.directory.path + "/" + key, O_RDONLY)
    guard descriptor >= 0 else { return "open failed: errno \(errno)" }
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      data.append(contentsOf: buffer[0..<count])
    }
    return "\(data.count) bytes"
  default:
    throw HelperError("unknown operation \(operation)")
  }
}

/// Fills the store: writes values under numbered `fill-` keys until the store refuses one.
///
/// First values of 64 KiB, then of 1 byte, which still takes a page of a tmpfs. Describes what
/// was written and how the store refused: "N values of 65536 bytes, then <error>; M values of 1
/// bytes, then <error>".
private func fill(_ store: FileStore, directory: String) throws -> String {
  var parts: [String] = []
  var index = 0
  for size in [65_536, 1] {
    var count = 0
    while true {
      do {
        try store.write(Data(repeating: 0xA5, count: size), for: "fill-\(index)")
      } catch {
        parts.append(
          "\(count) values of \(size) bytes, then \(render(error, directory: directory))")
        break
      }
      count += 1
      index += 1
      guard index < 100_000 else { throw HelperError("the store never filled up") }
    }
  }
  return parts.joined(separator: "; ")
}

/// A store error in a stable, comparable form: the case and its context, paths relative to the
/// store's directory (`.tmp` for any temporary file), error numbers by their C names.
func render(_ error: SharedStoreError, directory: String) -> String {
  switch error {
  case .notARegularFile(let key, let path, let kind):
    return "notARegularFile \(key ?? "-") \(relative(path, to: directory)) \(kind.rawValue)"
  case .tooLarge(let key, let path, let size, let limit):
    return "tooLarge \(key) \(relative(path, to: directory)) \(size) \(limit)"
  case .io(_, let path, let errno):
    return "io \(name(of: errno)) \(relative(path, to: directory))"
  case .corrupted(let key, let path, _):
    return "corrupted \(key) \(relative(path, to: directory))"
  default:
    return "other \(error)"
  }
}

/// `path` relative to `directory`, with a temporary file's random part dropped.
func relative(_ path: String, to directory: String) -> String {
  var rest = path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
  if rest.hasPrefix(".tmp.") { rest = ".tmp" }
  return rest
}

/// The C name of the error numbers the probes expect, or the number.
func name(of errno: Errno) -> String {
  let names: [Int32: String] = [
    EROFS: "EROFS", EACCES: "EACCES", EPERM: "EPERM", ELOOP: "ELOOP", EISDIR: "EISDIR",
    ENXIO: "ENXIO", ENOENT: "ENOENT", EEXIST: "EEXIST", EIO: "EIO", ENOSPC: "ENOSPC",
    EINTR: "EINTR", ENOTDIR: "ENOTDIR",
  ]
  return names[errno.rawValue] ?? "errno\(errno.rawValue)"
}

/// Caps this process's address space.
private func limitAddressSpace(megabytes: Int) throws {
  var limit = rlimit(
    rlim_cur: rlim_t(megabytes) * 1024 * 1024, rlim_max: rlim_t(megabytes) * 1024 * 1024)
  #if os(Linux)
  let status = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
  #else
  let status = setrlimit(RLIMIT_AS, &limit)
  #endif
  guard status == 0 else { throw HelperError("setrlimit failed: errno \(errno)") }
}

/// Makes `directory` a read-only bind mount of itself, seen by this process only; returns the
/// errno when the system refuses.
private func makeReadOnlyBindMount(_ directory: String) -> Int32? {
  #if os(Linux)
  if let refused = enterPrivateMountNamespace() { return refused }
  guard mount(directory, directory, nil, UInt(MS_BIND), nil) == 0,
    mount(nil, directory, nil, UInt(MS_REMOUNT | MS_BIND | MS_RDONLY), nil) == 0
  else { return errno }
  return nil
  #else
  return ENOSYS
  #endif
}

/// Mounts a tmpfs of `kibibytes` KiB on `directory`, seen by this process only; returns the errno
/// when the system refuses.
private func mountPrivateTemporaryFileSystem(_ directory: String, kibibytes: Int) -> Int32? {
  #if os(Linux)
  if let refused = enterPrivateMountNamespace() { return refused }
  guard mount("tmpfs", directory, "tmpfs", 0, "size=\(kibibytes)k") == 0 else { return errno }
  return nil
  #else
  return ENOSYS
  #endif
}

#if os(Linux)
/// Moves this process into a mount namespace of its own, whose mounts no other process sees;
/// returns the errno when the system refuses.
private func enterPrivateMountNamespace() -> Int32? {
  // unshare(2) is not in Swift's Glibc module; CLONE_NEWNS is 0x00020000 on every Linux.
  typealias Unshare = @convention(c) (Int32) -> Int32
  guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "unshare") else { return ENOSYS }
  let unshare = unsafeBitCast(symbol, to: Unshare.self)
  guard unshare(0x0002_0000) == 0, mount(nil, "/", nil, UInt(MS_REC | MS_PRIVATE), nil) == 0
  else { return errno }
  return nil
}
#endif

/// Becomes user and group 65534 (nobody); returns the errno when the system refuses.
private func becomeNobody() -> Int32? {
  guard setgroups(0, nil) == 0, setgid(65_534) == 0, setuid(65_534) == 0 else { return errno }
  return nil
}
