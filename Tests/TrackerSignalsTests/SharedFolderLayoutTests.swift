import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// One value describes the shared folder: its keys, capacities and durabilities.
@Suite("The shared folder's layout")
struct SharedFolderLayoutTests {
  @Test("every key of the standard layout names its content, and back")
  func keysAndContentsRoundTrip() {
    let layout = SharedFolderLayout.standard
    let contents: [SharedFolderContent] = [
      .facts, .diagnostics, .appState, .heartbeats(.monitorExtension), .heartbeats(.app),
      .appLedger, .appStarts, .appSummaries, .shieldIntents, .shieldApplied, .factsMark,
      .factsRecoveries,
    ]
    for content in contents {
      #expect(layout.content(of: layout.key(of: content)) == content)
    }
    #expect(layout.key(of: .facts) == "stk.monitor.facts")
    #expect(layout.key(of: .factsMark) == "stk.monitor.facts.mark")
    #expect(layout.key(of: .factsRecoveries) == "stk.monitor.facts.recoveries")
    #expect(layout.key(of: .heartbeats(.monitorExtension)) == "stk.heartbeats.monitor")
    #expect(layout.key(of: .shieldIntents) == "stk.pipeline.state.shields")
    #expect(layout.key(of: .shieldApplied) == "stk.pipeline.state.shields.applied")
    #expect(layout.content(of: "user.settings") == nil)
  }

  /// The layout with one field made invalid.
  static func invalid(_ field: String) -> SharedFolderLayout {
    var layout = SharedFolderLayout.standard
    switch field {
    case "outboxKey": layout.outboxKey = "stk.heartbeats.facts"
    case "diagnosticsKey": layout.diagnosticsKey = "../diagnostics"
    case "appStateKey": layout.appStateKey = "stk.monitor.facts"
    case "outboxCapacity": layout.outboxCapacity = 0
    case "diagnosticsCapacity": layout.diagnosticsCapacity = -1
    default: layout.heartbeatCapacity = HeartbeatRecorder.maximumCapacity + 1
    }
    return layout
  }

  @Test(
    "a layout with a shared, invalid or heartbeat key, or a capacity out of range, is refused",
    arguments: [
      "outboxKey", "diagnosticsKey", "appStateKey", "outboxCapacity", "diagnosticsCapacity",
      "heartbeatCapacity",
    ])
  func invalidLayoutsAreRefused(field: String) throws {
    do {
      _ = try SharedFolder(store: InMemoryStore(), layout: Self.invalid(field))
      Issue.record("the layout was accepted")
    } catch {
      guard case .invalidValue(let named, _, _) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(named == field)
    }
  }

  @Test("the standard layout opens, and its JSON form round-trips")
  func standardLayoutOpens() throws {
    let folder = try SharedFolder.inMemory()
    #expect(folder.outbox.key == "stk.monitor.facts")
    #expect(folder.outbox.capacity == 1_024)
    #expect(folder.heartbeats().key == "stk.heartbeats.monitor")
    #expect(folder.heartbeats().capacity == 2_880)
    let data = try JSONEncoder().encode(SharedFolderLayout.standard)
    #expect(try JSONDecoder().decode(SharedFolderLayout.self, from: data) == .standard)
  }

  @Test("a folder on disk keeps heartbeats without flushes and the rest durably")
  func durabilities() throws {
    let directory = try TemporaryDirectory(prefix: "stk-folder")
    let folder = try SharedFolder(directory: directory.url)
    let durable = try #require(folder.store as? FileStore)
    let heartbeats = try #require(folder.heartbeatStore as? FileStore)
    #expect(durable.durability == .durable)
    #expect(heartbeats.durability == .processCrashSafe)
  }

  @Test("temporary files of killed writers are removed, and nothing else")
  func temporaryFilesAreRemoved() throws {
    let directory = try TemporaryDirectory(prefix: "stk-folder")
    let folder = try SharedFolder(directory: directory.url)
    try folder.store.write(Data("kept".utf8), for: "kept")
    try Data("half".utf8).write(to: directory.url.appendingPathComponent(".tmp.kept.0123abcd"))
    #expect(try folder.removeTemporaryFiles() == 1)
    #expect(try folder.store.read("kept") == Data("kept".utf8))
    #expect(try SharedFolder.inMemory().removeTemporaryFiles() == 0)
  }
}
