import Foundation
import TestSupport
import Testing
import TrackerSignals

/// How long to wait before restarting monitoring.
@Suite("Restart policy")
struct RestartPolicyTests {
  let t0 = Date(timeIntervalSince1970: 1_772_960_400)  // 2026-03-08T09:00:00Z

  @Test(
    "the restart interval follows the app's state and the last usage event",
    arguments: [
      (AppState.active, nil, 60), (.inactive, nil, 300), (.background, nil, 300),
      (.active, 29.999, 30), (.background, 29.999, 30), (.background, 30, 300),
      (.active, 30, 60), (.background, 0, 30), (.background, -2, 30),
      (.background, -2.001, 300), (.background, -3600, 300), (.active, -3600, 60),
    ] as [(AppState, TimeInterval?, Int64)])
  func restartInterval(state: AppState, eventAge: TimeInterval?, seconds: Int64) {
    let now = t0
    let interval = RestartPolicy.standard.interval(
      appState: state, lastEventAt: eventAge.map { now.addingTimeInterval(-$0) }, now: now)
    #expect(interval == .seconds(seconds))
  }

  @Test("a restart policy's JSON form is the documented one and validates")
  func restartJSON() throws {
    let text =
      #"{"afterRecentEventMs":30000,"backgroundMs":300000,"clockSkewToleranceMs":2000,"#
      + #""foregroundMs":60000,"recentEventWindowMs":30000}"#
    #expect(try json(RestartPolicy.standard) == text)
    #expect(try decode(RestartPolicy.self, text) == .standard)
    let older =
      #"{"afterRecentEventMs":30000,"backgroundMs":300000,"foregroundMs":60000,"#
      + #""recentEventWindowMs":30000}"#
    #expect(try decode(RestartPolicy.self, older) == .standard, "the tolerance defaults to 2 s")
    let badBackground = text.replacingOccurrences(of: "300000", with: "0")
    #expect(codingKey(of: try decodingError(RestartPolicy.self, badBackground)) == "backgroundMs")
    #expect(throws: TrackerSignalsError.self) {
      try RestartPolicy(
        foreground: .zero, background: .seconds(1), afterRecentEvent: .seconds(1),
        recentEventWindow: .zero)
    }
  }
}
