import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import Testing
import TrackerSignals
import UsageModel

/// A DeviceActivity monitor extension links only the extension-side products — SharedStore,
/// UsageModel, SequenceTracking and TrackerSignals — and does all of its work with them.
///
/// This target depends on nothing else (see `Package.swift`): if the extension's work needed
/// GapDetection, BudgetMath, ActivityWatchInterop or the umbrella, this file would not compile.
@Suite("The extension's work with the extension-side products only")
struct ExtensionWorkTests {
  let directory: URL
  let now = Date(timeIntervalSince1970: 1_772_978_700)  // 2026-03-08T14:05:00Z

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("stk-extension-\(UUID().uuidString)", isDirectory: true)
  }

  func cleanUp() {
    do {
      try FileManager.default.removeItem(at: directory)
    } catch {
      // Nothing was created, or it is already gone.
    }
  }

  @Test("a threshold callback publishes its fact, beats, and says which number to post")
  func thresholdCallbackPublishesAndBeats() throws {
    defer { cleanUp() }
    let recorder = MonitorRecorder(folder: try SharedFolder(directory: directory))
    let name = try ThresholdEventName(
      app: try AppID("com.burbn.instagram"), threshold: .seconds(5 * 60))
    let response = recorder.eventDidReachThreshold(
      name.rawValue, activity: "daily", now: now, memoryBytes: 3_100_000)
    #expect(response.succeeded)
    let number = try #require(response.notification)
    #expect(number.value == 1)
    #expect(!response.restart.isDue, "a usage event never restarts monitoring")

    // What the app will drain: the fact, whole, under the number the extension posts.
    let batch = try recorder.outbox.drain(after: .start)
    #expect(batch.entries.map(\.number) == [number])
    let fact = try #require(batch.entries.first?.payload)
    #expect(fact.callback == .eventDidReachThreshold)
    #expect(fact.event == name.rawValue)
    #expect(try ThresholdEventName(parsing: fact.event ?? "") == name)
    #expect(fact.at == now)

    let beat = try #require(try recorder.heartbeats.latest())
    #expect(beat.at == now)
    #expect(beat.sequence == number.value)
    #expect(beat.memoryBytes == 3_100_000)
    #expect(try recorder.diagnostics.entries().isEmpty, "nothing failed, nothing is logged")
  }

  @Test("every callback of a monitor is recorded as a fact in callback order")
  func everyCallbackIsAFact() throws {
    defer { cleanUp() }
    let recorder = MonitorRecorder(folder: try SharedFolder(directory: directory))
    let responses = [
      recorder.intervalWillStartWarning(for: "daily", now: now),
      recorder.intervalDidStart(for: "daily", now: now.addingTimeInterval(1)),
      recorder.eventWillReachThresholdWarning(
        "stk:5m:com.example", activity: "daily", now: now.addingTimeInterval(2)),
      recorder.eventDidReachThreshold(
        "stk:5m:com.example", activity: "daily", now: now.addingTimeInterval(3)),
      recorder.intervalWillEndWarning(for: "daily", now: now.addingTimeInterval(4)),
      recorder.intervalDidEnd(for: "daily", now: now.addingTimeInterval(5)),
    ]
    #expect(responses.allSatisfy { $0.succeeded })
    #expect(responses.compactMap(\.notification?.value) == [1, 2, 3, 4, 5, 6])
    let facts = try recorder.outbox.drain(after: .start).entries.map(\.payload)
    #expect(
      facts.map(\.callback) == [
        .intervalWillStartWarning, .intervalDidStart, .eventWillReachThresholdWarning,
        .eventDidReachThreshold, .intervalWillEndWarning, .intervalDidEnd,
      ])
  }

  @Test("a callback that cannot be recorded is logged as a diagnostic, and nothing is published")
  func failureIsLogged() throws {
    defer { cleanUp() }
    let recorder = MonitorRecorder(folder: try SharedFolder(directory: directory))
    let response = recorder.eventDidReachThreshold("", activity: "daily", now: now)
    #expect(response.notification == nil)
    #expect(response.fact == nil)
    guard case .invalidFact(.invalidValue(let field, _, _)) = response.failures.first else {
      Issue.record("expected an invalid fact, got \(response.failures)")
      return
    }
    #expect(field == "event")
    let logged = try recorder.diagnostics.entries()
    #expect(logged.count == 1)
    #expect(logged.first?.action == .recordUsage)
    #expect(logged.first?.success == false)
    #expect(try recorder.outbox.head() == nil, "nothing was published")
    // The same failure of the same callback, logged again, is one entry.
    _ = recorder.eventDidReachThreshold("", activity: "daily", now: now)
    #expect(try recorder.diagnostics.entries().count == 1)
  }
}
