import Foundation
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// Values no sane caller passes, through TrackerSignals' public API: each gives a defined result
/// or a typed error, never a trap, a hang or unbounded memory.
@Suite("Hostile values give a defined result or a typed error")
struct HostileValueTests {
  static let unusableDates = [
    Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity),
    Date(timeIntervalSince1970: -.infinity), .distantPast, Date(timeIntervalSince1970: 1e300),
  ]

  /// A monitor recorder on a fresh folder, with the folder to keep alive while it is used.
  func recorder() throws -> (MonitorRecorder, TemporaryDirectory) {
    let directory = try TemporaryDirectory(prefix: "stk-hostile")
    return (
      MonitorRecorder(
        folder: try SharedFolder(directory: directory.url, layout: .standard(outboxCapacity: 8))),
      directory
    )
  }

  @Test("today's failures at an instant that is not a number is a typed error, not a crash")
  func todaysFailuresAtNaN() async throws {
    // The error's message described the date, and Foundation stops the process on a NaN date.
    #if compiler(>=6.2)
    await #expect(processExitsWith: .success) {
      exit(try HostileValueTests.failuresAtNaNAreRefused() ? 0 : 3)
    }
    #else
    // Swift 6.0 and 6.1 have no exit tests: checked in this process, where a trap fails the run.
    #expect(try Self.failuresAtNaNAreRefused())
    #endif
  }

  /// Whether asking for today's failures at a NaN instant throws an error that describes it.
  static func failuresAtNaNAreRefused() throws -> Bool {
    let log = try SharedFolder.inMemory().diagnostics
    let boundary = DayBoundary(timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    do {
      _ = try log.todaysFailures(now: Date(timeIntervalSince1970: .nan), boundary: boundary)
      return false
    } catch {
      return String(describing: error).contains("nan s since 1970")
    }
  }

  @Test("every callback at an unusable instant answers with typed failures and logs nothing odd")
  func callbacksAtUnusableInstants() throws {
    let (recorder, directory) = try recorder()
    for date in Self.unusableDates {
      let response = recorder.eventDidReachThreshold("stk:1m:com.a", activity: "daily", now: date)
      #expect(!response.succeeded)
      #expect(response.notification == nil)
      #expect(!response.restart.isDue)
      #expect(!recorder.heartbeat(now: date).succeeded)
      #expect(throws: SignalValuesError.self) {
        try MonitorFact(.intervalDidStart, activity: "daily", at: date)
      }
      #expect(throws: SignalValuesError.self) {
        try Heartbeat(at: date, source: .monitorExtension)
      }
      let boundary = DayBoundary(timeZone: try zone("UTC"))
      #expect(throws: TrackerSignalsError.self) {
        try recorder.diagnostics.todaysFailures(now: date, boundary: boundary)
      }
    }
    // Date.distantFuture (the year 4001) is a supported instant, recorded as any other.
    #expect(recorder.intervalDidStart(for: "daily", now: .distantFuture).succeeded)
    #expect(try recorder.heartbeats.latest()?.at == .distantFuture)
    #expect(FileManager.default.fileExists(atPath: directory.url.path))
  }

  @Test("a 1 MB name is refused as a fact, and its diagnostic entry keeps only 256 bytes")
  func megabyteNames() throws {
    let (recorder, directory) = try recorder()
    defer { withExtendedLifetime(directory) {} }
    let megabyte = String(repeating: "é", count: 1 << 19)
    let now = try instant("2026-03-08T12:00:00Z")
    for response in [
      recorder.intervalDidStart(for: megabyte, now: now),
      recorder.eventDidReachThreshold(megabyte, activity: "daily", now: now),
      recorder.eventDidReachThreshold("stk:1m:a", activity: "", now: now),
    ] {
      #expect(response.fact == nil)
      #expect(response.failures.contains { if case .invalidFact = $0 { true } else { false } })
    }
    let entries = try recorder.diagnostics.entries()
    #expect(entries.count == 3)
    #expect(entries.allSatisfy { $0.eventName.utf8.count <= MonitorFact.maximumNameLength })
    #expect(entries.allSatisfy { ($0.errorDescription?.utf8.count ?? 0) < 1_000 })
    #expect(entries[0].eventName.hasSuffix("…"))
  }

  @Test("a clock that goes back or a heartbeat from the future never makes a restart due")
  func clockGoesBack() throws {
    let (recorder, directory) = try recorder()
    defer { withExtendedLifetime(directory) {} }
    let now = try instant("2026-03-08T12:00:00Z")
    _ = recorder.heartbeat(now: now.addingTimeInterval(86_400))
    let response = recorder.intervalDidStart(for: "daily", now: now)
    #expect(response.succeeded)
    #expect(!response.restart.isDue)
    #expect(try recorder.heartbeats.latest()?.at == now)
    let policy = RestartPolicy.standard
    #expect(
      policy.interval(appState: .active, lastEventAt: .distantFuture, now: now)
        == policy.foreground)
  }
}
