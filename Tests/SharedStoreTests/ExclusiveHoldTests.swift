import Foundation
import TestSupport
import Testing

@testable import SharedStore

/// `FileStore.exclusively(_:)` and `FileStore.withDurability(_:)`: several changes, through a
/// store and its siblings, in one hold of the directory's lock — one `flock` for all of them,
/// each change flushing as its own store says, and no other store's change in between.
@Suite("FileStore holds its lock across several changes")
struct ExclusiveHoldTests {
  struct Fixture {
    let directory: TemporaryDirectory
    let fileSystem = FaultyFileSystem()
    /// A durable store, through the counting file system.
    let store: FileStore
    /// Its sibling without flushes.
    let sibling: FileStore

    init() throws {
      directory = try TemporaryDirectory(prefix: "stk-hold")
      store = try FileStore(directory: directory.url, durability: .durable, fileSystem: fileSystem)
      sibling = store.withDurability(.processCrashSafe)
    }

    /// Appends one record to each of three logs: two through the store, one through its sibling.
    func appendToThreeLogs(_ text: String) throws(SharedStoreError) {
      try store.append([Data(text.utf8)], toLog: "facts", capacity: 100)
      try sibling.append([Data(text.utf8)], toLog: "mark", capacity: 100)
      try sibling.append([Data(text.utf8)], toLog: "beats", capacity: 100)
    }

    func texts(_ key: String) throws -> [String] {
      (try store.readLog(key)?.records ?? []).map { String(decoding: $0.bytes, as: UTF8.self) }
    }
  }

  @Test("changes through a store and its sibling in one hold take the lock file's lock once")
  func oneFlockForAHold() throws {
    let fixture = try Fixture()
    try fixture.appendToThreeLogs("warm")
    let (locks, unlocks) = (
      fixture.fileSystem.count(.lockExclusively), fixture.fileSystem.count(.unlock)
    )
    try fixture.store.exclusively { () throws(SharedStoreError) in
      try fixture.appendToThreeLogs("held")
    }
    #expect(fixture.fileSystem.count(.lockExclusively) == locks + 1)
    #expect(fixture.fileSystem.count(.unlock) == unlocks + 1)
    // Control: the same changes outside a hold take it once each.
    try fixture.appendToThreeLogs("alone")
    #expect(fixture.fileSystem.count(.lockExclusively) == locks + 4)
    for key in ["facts", "mark", "beats"] {
      #expect(try fixture.texts(key) == ["warm", "held", "alone"])
    }
  }

  @Test("a sibling flushes as its own durability says, inside a hold or not")
  func siblingKeepsItsDurability() throws {
    let fixture = try Fixture()
    #expect(fixture.sibling.durability == .processCrashSafe)
    #expect(fixture.store.withDurability(.durable) === fixture.store)
    #expect(fixture.store.sharesLock(with: fixture.sibling))
    let other = try FileStore(directory: fixture.directory.url, durability: .processCrashSafe)
    #expect(!fixture.store.sharesLock(with: other), "a store opened separately has its own")
    try fixture.appendToThreeLogs("first")
    for held in [false, true] {
      let flushes = fixture.fileSystem.count(.synchronize)
      if held {
        try fixture.store.exclusively { () throws(SharedStoreError) in
          try fixture.appendToThreeLogs("held")
        }
      } else {
        try fixture.appendToThreeLogs("alone")
      }
      #expect(fixture.fileSystem.count(.synchronize) == flushes + 1, "the durable append only")
    }
  }

  @Test("another store on the directory waits for the whole hold, not one change")
  func anotherStoreWaitsForTheHold() async throws {
    for held in [true, false] {
      let fixture = try Fixture()
      let other = try FileStore(directory: fixture.directory.url, durability: .processCrashSafe)
      let started = DispatchSemaphore(value: 0)
      let holder = Thread {
        let body = { () throws(SharedStoreError) in
          try fixture.store.append([Data("first".utf8)], toLog: "log", capacity: 100)
          started.signal()
          Thread.sleep(forTimeInterval: 0.2)
          try fixture.store.append([Data("second".utf8)], toLog: "log", capacity: 100)
        }
        if held {
          try? fixture.store.exclusively(body)
        } else {
          try? body()
        }
      }
      holder.start()
      started.wait()
      try other.append([Data("other".utf8)], toLog: "log", capacity: 100)
      while !holder.isFinished { try await Task.sleep(nanoseconds: 10_000_000) }
      // Control (`held` false): without the hold, the other store's change lands in between.
      #expect(
        try fixture.texts("log")
          == (held ? ["first", "second", "other"] : ["first", "other", "second"]))
    }
  }

  @Test("a hold whose body throws releases the lock and keeps the changes made before")
  func throwingBodyReleases() throws {
    let fixture = try Fixture()
    let refusal = SharedStoreError.invalidCapacity(key: "x", capacity: 0)
    #expect(throws: refusal) {
      try fixture.store.exclusively { () throws(SharedStoreError) in
        try fixture.store.append([Data("kept".utf8)], toLog: "log", capacity: 100)
        throw refusal
      }
    }
    // Another store can take the lock: a change from a second thread returns.
    let other = try FileStore(directory: fixture.directory.url, durability: .processCrashSafe)
    let done = DispatchSemaphore(value: 0)
    Thread {
      _ = try? other.append([Data("after".utf8)], toLog: "log", capacity: 100)
      done.signal()
    }.start()
    #expect(done.wait(timeout: .now() + 10) == .success, "the lock was released")
    #expect(try fixture.texts("log") == ["kept", "after"])
    // And this store takes it again for its next change.
    try fixture.store.append([Data("again".utf8)], toLog: "log", capacity: 100)
    #expect(try fixture.texts("log").last == "again")
  }

  @Test("a hold whose lock cannot be taken runs nothing and says why")
  func lockRefusedRunsNothing() throws {
    let directory = try TemporaryDirectory(prefix: "stk-hold")
    let device = LockedDevice()
    let store = try FileStore(directory: directory.url, durability: .durable, fileSystem: device)
    device.lock()
    var ran = false
    #expect {
      try store.exclusively { () throws(SharedStoreError) in ran = true }
    } throws: { error in
      guard case .protectedDataUnavailable = error as? SharedStoreError else { return false }
      return true
    }
    #expect(!ran)
    device.unlock()
    try store.exclusively { () throws(SharedStoreError) in
      try store.append([Data("open".utf8)], toLog: "log", capacity: 10)
    }
    #expect(try store.readLog("log")?.records.count == 1)
  }

  @Test("a change made from inside another change's body is refused, not nested")
  func changeFromABodyIsRefused() throws {
    let fixture = try Fixture()
    let isRefusal = { (error: SharedStoreError) -> Bool in
      guard case .io(_, _, .resourceDeadlockAvoided) = error else { return false }
      return true
    }
    var refusals: [SharedStoreError] = []
    for store in [fixture.store, fixture.sibling] {
      try fixture.store.appendToLog("outer", capacity: 10, examiningNewest: 0) { _ in
        do throws(SharedStoreError) {
          try store.append([Data("inner".utf8)], toLog: "inner", capacity: 10)
        } catch {
          refusals.append(error)
        }
        return [Data("outer".utf8)]
      }
      try fixture.store.update("value") { (data: inout Data?) throws(SharedStoreError) in
        do throws(SharedStoreError) {
          try store.write(Data("inner".utf8), for: "inner-value")
        } catch {
          refusals.append(error)
        }
        data = Data("outer".utf8)
      }
    }
    #expect(refusals.count == 4 && refusals.allSatisfy(isRefusal))
    #expect(try fixture.texts("outer") == ["outer", "outer"])
    #expect(try fixture.store.readLog("inner") == nil)
    #expect(try fixture.store.read("inner-value") == nil)
    // Control: the same changes inside a hold, not a change's body, are made.
    try fixture.store.exclusively { () throws(SharedStoreError) in
      try fixture.sibling.append([Data("inner".utf8)], toLog: "inner", capacity: 10)
      try fixture.store.write(Data("inner".utf8), for: "inner-value")
    }
    #expect(try fixture.texts("inner") == ["inner"])
  }

  @Test("a read in one thread is not held up by another thread's hold")
  func readDuringAnotherThreadsHold() throws {
    let fixture = try Fixture()
    try fixture.sibling.append([Data("newest".utf8)], toLog: "beats", capacity: 10)
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    Thread {
      try? fixture.store.exclusively {
        holding.signal()
        release.wait()
      }
    }.start()
    holding.wait()
    let read = DispatchSemaphore(value: 0)
    let newest = LockedValue<String?>(nil)
    Thread {
      let record = try? fixture.sibling.readLog("beats", newest: 1)?.records.last
      newest.withLock { $0 = record.map { String(decoding: $0.bytes, as: UTF8.self) } }
      read.signal()
    }.start()
    let answered = read.wait(timeout: .now() + 10)
    release.signal()
    #expect(answered == .success, "the read waited for the hold")
    #expect(newest.withLock { $0 } == "newest")
  }
}
