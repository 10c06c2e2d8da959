import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// `update` is exclusive between stores in one process. (Between threads on one store, the
/// conformance kit's `update-is-atomic-across-threads` checks it for every backend.)
@Suite("In-process exclusion")
struct ConcurrencyTests {
  static let tasks = 8
  static let incrementsPerTask = 100

  /// Increments `key` from many tasks at once and returns every value handed out.
  static func hammer(_ stores: [any SharedStore]) async throws -> [Int] {
    let key = StoreKey("counter", default: 0)
    return try await withThrowingTaskGroup(of: [Int].self) { group in
      for task in 0..<tasks {
        let store = stores[task % stores.count]
        group.addTask {
          var handedOut: [Int] = []
          for _ in 0..<incrementsPerTask {
            handedOut.append(
              try store.update(key) { value -> Int in
                value += 1
                return value
              })
          }
          return handedOut
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
  }

  @Test("two FileStore instances on one directory exclude each other")
  func twoInstancesExcludeEachOther() async throws {
    let directory = try TemporaryDirectory()
    let first = try FileStore(directory: directory.url, durability: .processCrashSafe)
    let second = try FileStore(directory: directory.url, durability: .processCrashSafe)
    let values = try await Self.hammer([first, second])
    #expect(values.sorted() == Array(1...(Self.tasks * Self.incrementsPerTask)))
  }

  @Test("control: without the file lock, two instances lose updates")
  func withoutFileLockUpdatesAreLost() throws {
    let directory = try TemporaryDirectory()
    let fileSystem = FaultyFileSystem()
    fileSystem.disableFileLock()
    let first = try FileStore(
      directory: directory.url, durability: .processCrashSafe, fileSystem: fileSystem)
    let second = try FileStore(
      directory: directory.url, durability: .processCrashSafe, fileSystem: fileSystem)
    // Each instance still excludes its own threads; only the flock between them is gone. The
    // first update waits inside its body until the second has read the same value: that can only
    // happen without exclusion between the instances, and then one increment is lost for sure,
    // however the threads are scheduled. (With the lock, the wait below times out instead.)
    let key = StoreKey("counter", default: 0)
    let firstEntered = DispatchSemaphore(value: 0)
    let secondHasRead = DispatchSemaphore(value: 0)
    let firstDone = DispatchSemaphore(value: 0)
    let overlapped = LockedValue(false)
    let thread = Thread {
      defer { firstDone.signal() }
      do {
        try first.update(key) { value in
          firstEntered.signal()
          overlapped.withLock { $0 = secondHasRead.wait(timeout: .now() + 10) == .success }
          value += 1
        }
      } catch {
        Issue.record("the first update failed: \(error)")
      }
    }
    thread.start()
    // Once the first body holds its value, update through the second instance.
    #expect(firstEntered.wait(timeout: .now() + 10) == .success)
    try second.update(key) { value in
      secondHasRead.signal()
      value += 1
    }
    firstDone.wait()
    #expect(overlapped.withLock { $0 }, "without the flock the two bodies overlap")
    #expect(
      try first.value(for: key) == 1,
      "the control must lose an increment, or the exclusion tests above prove nothing")
  }

  @Test("a store whose directory was removed and re-created still excludes the new store")
  func replacedDirectoryStillExcludes() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.url.appendingPathComponent("store", isDirectory: true)
    let old = try FileStore(directory: path, durability: .processCrashSafe)
    try old.write(Data([1]), for: "before")
    try FileManager.default.removeItem(at: path)  // an app's "reset data", a wiped container
    let fresh = try FileStore(directory: path, durability: .processCrashSafe)
    let values = try await Self.hammer([old, fresh])
    #expect(values.count == Self.tasks * Self.incrementsPerTask)
    #expect(Set(values).count == values.count, "no number is handed out twice")
  }

  @Test("control: a flock does not exclude two threads sharing one descriptor")
  func flockAloneDoesNotExcludeThreads() async throws {
    // What FileStore's in-process lock is for: both threads "hold" the exclusive flock at once.
    let directory = try TemporaryDirectory()
    let fileSystem = POSIXFileSystem()
    let descriptor = try fileSystem.open(directory.path + "/.lock", mode: .readWriteCreate)
    defer { _ = try? fileSystem.close(descriptor) }
    try fileSystem.lockExclusively(descriptor)
    let secondThreadGotIt = await Task.detached {
      do {
        try fileSystem.lockExclusively(descriptor)  // would block forever if flock excluded it
        return true
      } catch {
        return false
      }
    }.value
    #expect(secondThreadGotIt)
    try fileSystem.unlock(descriptor)
  }
}
