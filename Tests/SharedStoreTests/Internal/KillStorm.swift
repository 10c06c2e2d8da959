import Foundation
import SharedStore
import TestSupport

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Writer processes SIGKILLed one after another on a few keys of one store, while reader
/// processes read those keys without pause: the harness of `KillStormStressTests`.
///
/// Each lane owns one key and runs one writer at a time. A writer (`stk-test-helper
/// storm-write`) writes self-checking values with increasing counters and prints each counter
/// once its `write` has returned; the lane kills it at a random moment, then, as the next writer
/// of the store, takes the store's lock through an `update` and times how long after the kill it
/// got it. It reads the key back: the value must be whole, and its counter no lower than the
/// last one the writer acknowledged. The next writer of the lane starts after that counter.
struct KillStorm {
  /// The helper subcommand the writers run: `storm-write`, or the control `write-in-place-loop`.
  var writer = "storm-write"
  /// The number of lanes, each with its own key and writer; all share the store and its lock.
  var lanes = 2
  /// The number of reader processes.
  var readers = 2
  /// The size of each value in bytes.
  var valueSize = 4 * 1024
  /// The longest a writer runs, after its first write, before it is killed.
  var longestLife: UInt32 = 10_000
  /// The durability of every store.
  var durability = FileStore.Durability.processCrashSafe

  /// What a storm did and found.
  struct Outcome {
    /// Writers killed.
    var kills = 0
    /// Reads the readers made while the writers were being killed.
    var reads = 0
    /// Reads that were not one whole value: the readers' and the lanes' own after each kill.
    var tornReads = 0
    /// Reads that found a key's counter lower than the same reader had seen before.
    var regressions = 0
    /// Writes the writers acknowledged.
    var acknowledged = 0
    /// Kills after which the key held a value older than the writer's last acknowledged one.
    var acknowledgedLost = 0
    /// For each kill, how long after it the lane's next `update` took the store's lock, in ns.
    var lockWaits: [UInt64] = []

    mutating func add(_ other: Outcome) {
      kills += other.kills
      reads += other.reads
      tornReads += other.tornReads
      regressions += other.regressions
      acknowledged += other.acknowledged
      acknowledgedLost += other.acknowledgedLost
      lockWaits += other.lockWaits
    }

    /// The median and the longest lock wait, in milliseconds.
    var lockWaitMilliseconds: (median: Double, max: Double) {
      let sorted = lockWaits.sorted()
      guard let longest = sorted.last else { return (0, 0) }
      return (Double(sorted[sorted.count / 2]) / 1e6, Double(longest) / 1e6)
    }
  }

  /// Kills `kills` writers in all, spread over the lanes, with readers reading throughout.
  ///
  /// - Parameters:
  ///   - kills: How many writers to kill.
  ///   - directory: Where the store goes.
  ///   - seed: The seed of the kill delays.
  /// - Returns: What the storm did and found.
  /// - Throws: When a helper cannot be started or fails.
  func run(kills: Int, in directory: URL, seed: UInt64) throws -> Outcome {
    let storePath = directory.appendingPathComponent("store").path
    let store = try FileStore(directory: URL(fileURLWithPath: storePath), durability: durability)
    let keys = (0..<lanes).map { "lane-\($0)" }
    for key in keys { try store.write(KillPattern.value(0, size: valueSize), for: key) }
    let stop = directory.appendingPathComponent("stop").path
    let readerProcesses = try (0..<readers).map { _ in
      try HelperProcess.start([
        "storm-read", "--dir", storePath, "--keys", keys.joined(separator: ","),
        "--size", "\(valueSize)", "--stop", stop, "--durability", durability.rawValue,
      ])
    }

    let outcome = LockedValue(Outcome())
    let failure = LockedValue<(any Error)?>(nil)
    DispatchQueue.concurrentPerform(iterations: lanes) { lane in
      do {
        let share = kills / lanes + (lane < kills % lanes ? 1 : 0)
        let laneOutcome = try run(
          lane: keys[lane], kills: share, store: store, storePath: storePath,
          seed: seed &+ UInt64(lane))
        outcome.withLock { $0.add(laneOutcome) }
      } catch {
        failure.withLock { $0 = $0 ?? error }
      }
    }

    guard FileManager.default.createFile(atPath: stop, contents: Data()) else {
      for (process, _) in readerProcesses { HelperProcess.kill(process) }
      throw HelperProcess.Failure(description: "cannot create the stop file \(stop)")
    }
    for (process, output) in readerProcesses {
      let line = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
      HelperProcess.waitForExit(process)
      var figures: [String: Int] = [:]
      for pair in line.split(whereSeparator: \.isWhitespace) {
        let parts = pair.split(separator: "=")
        if parts.count == 2, let value = Int(parts[1]) { figures[String(parts[0])] = value }
      }
      guard process.terminationStatus == 0, let reads = figures["reads"],
        let torn = figures["torn"], let regressions = figures["regressions"]
      else {
        throw HelperProcess.Failure(description: "a reader failed: '\(line)'")
      }
      outcome.withLock {
        $0.reads += reads
        $0.tornReads += torn
        $0.regressions += regressions
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    return outcome.withLock { $0 }
  }

  /// One lane: `kills` writers of `key`, each killed at a random moment.
  private func run(
    lane key: String, kills: Int, store: FileStore, storePath: String, seed: UInt64
  ) throws -> Outcome {
    var random = SplitMix64(seed: seed)
    var outcome = Outcome()
    var next: UInt64 = 1
    for _ in 0..<kills {
      let (process, output) = try HelperProcess.start([
        writer, "--dir", storePath, "--key", key, "--size", "\(valueSize)",
        "--first", "\(next)", "--durability", durability.rawValue,
      ])
      // The first line comes once the writer has written: "ready", or its first counter.
      let first = HelperProcess.readLine(output)
      guard !first.isEmpty else {
        HelperProcess.kill(process)
        throw HelperProcess.Failure(description: "\(writer) on \(key) ended before writing")
      }
      usleep(UInt32(random.next() % UInt64(longestLife + 1)))

      let killed = monotonicNanoseconds()
      HelperProcess.kill(process)
      var acquired: UInt64 = 0
      try store.update("probe-\(key)") { (data: inout Data?) throws(SharedStoreError) in
        acquired = monotonicNanoseconds()
        data = Data("\(acquired)".utf8)
      }
      outcome.kills += 1
      outcome.lockWaits.append(acquired > killed ? acquired - killed : 0)

      let rest = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
      let acknowledged = ([first] + rest.split(separator: "\n").map(String.init)).compactMap {
        UInt64($0)
      }
      outcome.acknowledged += acknowledged.count
      // A read that throws counts as torn: either way the key does not hold one whole value.
      guard
        let counter = try? store.read(key).flatMap({
          KillPattern.counter(in: $0, size: valueSize)
        })
      else {
        outcome.tornReads += 1
        next = (acknowledged.last ?? next) + 1
        continue
      }
      if let last = acknowledged.last, counter < last { outcome.acknowledgedLost += 1 }
      next = max(counter, acknowledged.last ?? 0) + 1
    }
    return outcome
  }
}
