import Foundation
import SharedStore
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of the kill harness: the helper's extension process replays a ``PipelineScript`` on a
/// shared folder and is SIGKILLed at random points, while the helper's app process drains
/// concurrently, drops about half the notifications, and is SIGKILLed and relaunched too.
///
/// The harness learns what the extension recorded from its lines: `d I` once entry `I` is
/// recorded, and, for an entry begun (`b I`) but not finished when it was killed, nothing — the
/// test decides from the outbox whether that one's fact was written. A relaunched extension
/// resumes after the last entry begun: the platform never delivers a callback twice.
struct KillHarness {
  /// Which glue the helper runs.
  enum Glue {
    /// The library's: `MonitorRecorder` writes one fact; `UsagePipeline` derives.
    case pipeline
    /// The control: two durable writes per threshold event, killed between them on the
    /// callbacks the script marks; the app sums the published usage.
    case control

    var extensionCommand: String {
      self == .pipeline ? "pipeline-extension" : "pipeline-control-extension"
    }
    var appCommand: String { self == .pipeline ? "pipeline-app" : "pipeline-control-app" }
  }

  /// What a run did.
  struct Run {
    /// The entries whose helper said they were recorded.
    var completed: Set<Int> = []
    /// The entries the extension was killed in the middle of.
    var inFlight: [Int] = []
    /// The callbacks whose fact a locked device held in memory, to publish later or lose with
    /// the process.
    var held: Set<Int> = []
    /// The held callbacks of launches that went on to record an entry after the unlock, which
    /// published every fact held: their facts must be in the outbox.
    var heldAndPublished: Set<Int> = []
    /// The launches that began on a locked device (a restart before the first unlock).
    var lockedLaunches = 0
    /// The entries on which the control killed itself between its writes, with the seconds of
    /// use the first write counted.
    var selfKills: [(index: Int, seconds: Int64)] = []
    var extensionLaunches = 0
    /// SIGKILLs the harness sent the extension.
    var extensionKills = 0
    var appLaunches = 0
    /// SIGKILLs the harness sent the app.
    var appKills = 0
    var notificationsArrived = 0
    var notificationsDropped = 0
    /// Drains by trigger (`notification`, `poll`, `foreground`), and the entries they applied.
    var drains: [String: Int] = [:]
    var applied = 0
    var seconds = 0.0
  }

  let glue: Glue
  let script: PipelineScript
  let directory: TemporaryDirectory
  /// The outbox capacity: every callback of the script, so that nothing is evicted.
  let capacity: Int
  /// How many times to SIGKILL the extension (the control is only killed by itself).
  let extensionKills: Int
  /// Whether a relaunched extension may find the device locked for a stretch of entries.
  let locking: Bool
  var random: SplitMix64
  /// Draws the locked stretches, apart from ``random`` so that the kills fall as without them.
  var lockRandom: SplitMix64

  /// Prepares a run of `glue` on `script` in a fresh folder.
  init(
    _ glue: Glue, script: PipelineScript, extensionKills: Int, locking: Bool = false,
    seed: UInt64
  ) throws {
    self.glue = glue
    self.script = script
    directory = try TemporaryDirectory(prefix: "stk-pipeline-kill")
    capacity = script.callbackCount + 16
    self.extensionKills = glue == .pipeline ? extensionKills : 0
    self.locking = glue == .pipeline && locking
    random = SplitMix64(seed: seed)
    lockRandom = SplitMix64(seed: seed ^ 0x6C6F_636B)
  }

  /// The shared store's folder.
  var store: URL { directory.url.appendingPathComponent("store") }
  private var doorbell: String { directory.url.appendingPathComponent("doorbell").path }
  private var done: String { directory.url.appendingPathComponent("done").path }

  /// Runs the extension to the end of the script under kills, with the app alongside; then
  /// lets the app finish draining.
  mutating func run() throws -> Run {
    let started = Date()
    let stop = LockedValue(false)
    let appRun = LockedValue(Run())
    let appFailure = LockedValue<String?>(nil)
    let appFinished = DispatchGroup()
    let appSeed = random.next()
    let app = self.app
    DispatchQueue.global().async(group: appFinished) {
      do {
        try app(appSeed, stop, appRun)
      } catch {
        appFailure.withLock { $0 = "\(error)" }
      }
    }
    var run = Run()
    do {
      try replay(&run)
    } catch {
      stop.withLock { $0 = true }
      appFinished.wait()
      throw error
    }
    guard FileManager.default.createFile(atPath: done, contents: Data()) else {
      throw FixtureError(description: "cannot create \(done)")
    }
    stop.withLock { $0 = true }
    appFinished.wait()
    if let failure = appFailure.withLock({ $0 }) {
      throw FixtureError(description: "the app failed: \(failure)")
    }
    let apps = appRun.withLock { $0 }
    run.appLaunches = apps.appLaunches
    run.appKills = apps.appKills
    run.notificationsArrived = apps.notificationsArrived
    run.notificationsDropped = apps.notificationsDropped
    run.drains = apps.drains
    run.applied = apps.applied
    run.seconds = Date().timeIntervalSince(started)
    return run
  }

  // MARK: - The extension

  /// Launches the extension from where it stopped until it reaches the end of the script,
  /// killing it `extensionKills` times, each soon after it began a chosen entry.
  private mutating func replay(_ run: inout Run) throws {
    let entries = script.entries
    var next = 0
    while next < entries.count {
      run.extensionLaunches += 1
      guard run.extensionLaunches <= entries.count + extensionKills + 100 else {
        throw FixtureError(description: "the extension makes no progress")
      }
      let target = killTarget(after: next, kills: run.extensionKills)
      var arguments = [
        glue.extensionCommand, "--dir", store.path, "--seed", "\(script.seed)", "--from", "\(next)",
        "--capacity", "\(capacity)", "--doorbell", doorbell,
      ]
      // A relaunch, one in three, after a restart of the device: locked for 5 to 60 entries,
      // never to the end of the script, so that only a kill takes held facts.
      var unlocksAt = Int.max
      if locking, run.extensionLaunches > 1, lockRandom.next() % 3 == 0 {
        unlocksAt = min(entries.count - 1, next + 5 + Int(lockRandom.next() % 56))
        if unlocksAt > next {
          arguments += ["--locked-through", "\(unlocksAt)"]
          run.lockedLaunches += 1
        }
      }
      var held: [Int] = []
      var unlocked = false
      let (process, output) = try Self.start(arguments)
      let lines = LineReader(output)
      var begun: Int?
      var ended = false
      var killed = false
      // With fewer entries left than kills to make (a loaded machine lets each launch run on
      // past its target), a launch is killed at once, wherever its start-up or first entry
      // is: a random point too, and one that uses up no entry, so the count is always reached.
      if isShortOfEntries(next: next, kills: run.extensionKills) {
        usleep(UInt32(random.next() % 3_000))
        HelperProcess.kill(process)
        killed = true
      }
      while let line = lines.next() {
        let fields = line.split(separator: " ")
        switch (fields.first, fields.dropFirst().first.flatMap { Int($0) }) {
        case ("b"?, let index?):
          begun = index
          if !killed, let target, index >= target.index {
            usleep(target.delay)
            HelperProcess.kill(process)
            killed = true
          }
        case ("d"?, let index?):
          run.completed.insert(index)
          if index >= unlocksAt { unlocked = true }
        case ("h"?, let index?):
          run.held.insert(index)
          held.append(index)
        case ("k"?, let index?):
          guard let seconds = fields.last.flatMap({ Int64($0) }) else { break }
          run.selfKills.append((index, seconds))
        case ("end"?, _):
          ended = true
        default:
          break  // a line cut short by the kill
        }
      }
      HelperProcess.waitForExit(process)
      if unlocked { run.heldAndPublished.formUnion(held) }
      if killed { run.extensionKills += 1 }
      if ended {
        // A kill that came after the last entry may or may not have beaten the exit.
        guard killed || (process.terminationReason == .exit && process.terminationStatus == 0)
        else {
          throw FixtureError(description: "the extension ended with an error")
        }
        return
      }
      let diedOfSIGKILL =
        process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
      guard diedOfSIGKILL else {
        throw FixtureError(
          description: "the extension failed from entry \(next) with status "
            + "\(process.terminationStatus)")
      }
      if let begun {
        if !run.completed.contains(begun) { run.inFlight.append(begun) }
        next = begun + 1
      }
    }
  }

  /// Whether the entries left are too few for the kills left to land inside them.
  ///
  /// Each launch runs on an entry or two past its target, and one killed inside an entry runs
  /// on through the delay of its kill: up to 8 ms, in which a fast machine makes tens of entries
  /// (heartbeat ticks, callbacks of a fraction of a millisecond each). Without the margin such a
  /// launch could reach the end of the script with kills still to make.
  private func isShortOfEntries(next: Int, kills: Int) -> Bool {
    kills < extensionKills
      && script.entries.count - next < 3 * (extensionKills - kills) + Self.runOnMargin
  }

  /// The entries a launch killed inside one may make before the kill lands, at most: the
  /// delay of the kill (up to 8 ms) at a fraction of a millisecond an entry, with room to
  /// spare (64 were seen).
  static let runOnMargin = 200

  /// Where to kill the next launch: soon after it begins an entry chosen so that the kills
  /// still to come spread over the rest of the script, half the time a callback.
  ///
  /// A callback's kill comes up to 8 ms after it began, so that most land inside its durable
  /// write (a few milliseconds); a heartbeat tick's comes at once.
  private mutating func killTarget(after next: Int, kills: Int) -> (index: Int, delay: UInt32)? {
    guard kills < extensionKills else { return nil }
    let entries = script.entries
    // Each kill also lets the extension run on for an entry or two before it lands.
    let budget = (entries.count - next) / (extensionKills - kills) - 2
    let window = next..<min(entries.count, next + 1 + 2 * max(0, budget))
    var index = window.lowerBound + Int(random.next() % UInt64(window.count))
    let callbacks = window.filter { entries[$0].isCallback }
    if random.next() % 2 == 0, !callbacks.isEmpty {
      index = callbacks[Int(random.next() % UInt64(callbacks.count))]
    }
    let delay = entries[index].isCallback ? UInt32(random.next() % 8_000) : 0
    return (index, delay)
  }

  // MARK: - The app

  /// Launches the app again and again, killing each launch after 60 to 600 ms, until `stop`;
  /// then launches it once more and waits for it to finish draining.
  private var app: @Sendable (UInt64, LockedValue<Bool>, LockedValue<Run>) throws -> Void {
    let arguments = [
      glue.appCommand, "--dir", store.path, "--seed", "\(script.seed)", "--capacity",
      "\(capacity)", "--doorbell", doorbell, "--done", done,
    ]
    return { seed, stop, tally in
      var random = SplitMix64(seed: seed)
      var last = false
      while !last {
        last = stop.withLock { $0 }
        let (process, output) = try Self.start(
          arguments + ["--app-seed", "\(random.next() % 1_000_000_000)"])
        tally.withLock { $0.appLaunches += 1 }
        var killed = false
        if !last {
          let deadline = Date().addingTimeInterval(Double(60 + random.next() % 540) / 1000)
          while process.isRunning, Date() < deadline, !stop.withLock({ $0 }) { usleep(2_000) }
          if process.isRunning {
            HelperProcess.kill(process)
            killed = true
          }
        }
        let lines = LineReader(output)
        var finished = false
        while let line = lines.next() {
          let fields = line.split(separator: " ").map(String.init)
          tally.withLock { run in
            switch fields.first {
            case "n" where fields.count == 3:
              run.notificationsArrived += Int(fields[1]) ?? 0
              run.notificationsDropped += Int(fields[2]) ?? 0
            case "w" where fields.count == 3:
              run.drains[fields[1], default: 0] += 1
              run.applied += Int(fields[2]) ?? 0
            case "finished":
              finished = true
            default:
              break
            }
          }
        }
        HelperProcess.waitForExit(process)
        if killed {
          tally.withLock { $0.appKills += 1 }
        } else if !(process.terminationReason == .exit && process.terminationStatus == 0) {
          throw FixtureError(
            description: "the app ended with status \(process.terminationStatus)")
        } else if last, !finished {
          throw FixtureError(description: "the last app ended without finishing")
        }
      }
    }
  }

  // MARK: - Processes

  /// Starts the helper; one start at a time, so that no child inherits the write end of
  /// another child's pipe (which would delay the end of its output until that child ends).
  private static func start(_ arguments: [String]) throws -> (Process, FileHandle) {
    try spawning.withLock { _ throws in try HelperProcess.start(arguments) }
  }

  private static let spawning = LockedValue(())
}

/// Lines from a pipe as they arrive; `nil` at the end of the output.
final class LineReader {
  private let handle: FileHandle
  private var buffer = Data()

  init(_ handle: FileHandle) {
    self.handle = handle
  }

  /// The next line without its line feed; a last line without one is returned as it is.
  func next() -> String? {
    while true {
      if let feed = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[buffer.startIndex..<feed], as: UTF8.self)
        buffer = Data(buffer[(feed + 1)...])
        return line
      }
      let chunk = handle.availableData
      guard !chunk.isEmpty else {
        defer { buffer = Data() }
        return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self)
      }
      buffer.append(chunk)
    }
  }
}
