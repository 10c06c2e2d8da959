import Foundation
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals

/// The store error underneath a TrackerSignals error, reached in one call.
@Suite("TrackerSignals errors")
struct TrackerSignalsErrorTests {
  static let ownErrors: [TrackerSignalsError] = [
    .invalidValue(field: "capacity", value: "0", requirement: "1...20160"),
    .sourceMismatch(recorder: "monitor", heartbeat: "app"),
    .corruptedHeartbeatHistory(key: "stk.heartbeats.monitor", reason: "bad magic"),
  ]

  @Test("storeError returns the wrapped store error")
  func storeErrorOfStoreCase() {
    let wrapped = SharedStoreError.corrupted(key: "k", path: "/d/k", reason: "torn")
    #expect(TrackerSignalsError.store(wrapped).storeError == wrapped)
    let decoding = SharedStoreError.decoding(key: "k", type: "Log", description: "not JSON")
    #expect(TrackerSignalsError.store(decoding).storeError == decoding)
  }

  @Test("storeError is nil for the errors of TrackerSignals itself", arguments: ownErrors)
  func storeErrorOfOwnErrorsIsNil(error: TrackerSignalsError) {
    #expect(error.storeError == nil)
  }

  @Test("a key the store rejects is found through storeError")
  func rejectedKeyIsFoundThroughStoreError() {
    do {
      _ = try DiagnosticLog(store: InMemoryStore(), key: "../escape")
      Issue.record("the key was accepted")
    } catch {
      guard case .invalidKey(let key, _)? = error.storeError else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(key == "../escape")
    }
  }

  @Test("a history the recorder cannot read is its own error, not the store's")
  func corruptedHistoryIsNotAStoreError() throws {
    let store = InMemoryStore()
    let recorder = HeartbeatRecorder(store: store, source: .monitorExtension)
    try store.write(Data("not a ring".utf8), for: recorder.key)
    do {
      _ = try recorder.history()
      Issue.record("the damaged history was read")
    } catch {
      #expect(error.storeError == nil)
      guard case .corruptedHeartbeatHistory = error else {
        Issue.record("unexpected error \(error)")
        return
      }
    }
  }
}
