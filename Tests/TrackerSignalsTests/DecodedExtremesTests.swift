import Foundation
import SharedStore
import SignalValues
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// Every number TrackerSignals decodes and later computes with, at the ends of its type.
///
/// Decoding rejects it with a `DecodingError` naming the field, or every operation on the value
/// gives a defined result. A trap would stop the test process.
@Suite("Decoded numbers are checked before they take part in arithmetic")
struct DecodedExtremesTests {
  static let extremes = [
    "9223372036854775807", "-9223372036854775808", "-1", "0", "1", "315537551999999",
  ]

  @Test("a restart policy of any decoded durations gives an interval at any instants")
  func restartPolicy() throws {
    let now = try instant("2026-03-08T12:00:00Z")
    for value in Self.extremes {
      for field in ["foregroundMs", "backgroundMs", "recentEventWindowMs", "clockSkewToleranceMs"] {
        var fields = [
          "foregroundMs": "60000", "backgroundMs": "300000", "afterRecentEventMs": "30000",
          "recentEventWindowMs": "30000", "clockSkewToleranceMs": "2000",
        ]
        fields[field] = value
        let text =
          "{"
          + fields.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }
          .joined(separator: ",") + "}"
        guard let policy = try? decode(RestartPolicy.self, text) else {
          #expect(value.hasPrefix("-") || (value == "0" && field.hasSuffix("groundMs")))
          continue
        }
        for (last, at) in [
          (now, now), (Date.distantFuture, now), (now, Date.distantFuture),
          (Date(timeIntervalSince1970: .nan), now), (now, Date(timeIntervalSince1970: -.infinity)),
        ] {
          for state in AppState.allCases {
            #expect(policy.interval(appState: state, lastEventAt: last, now: at) > .zero)
          }
        }
      }
    }
  }

  @Test("a planted diagnostic log whose eviction count is near its maximum takes appends")
  func evictionCountNearItsMaximum() async throws {
    // Appending evicted an entry and added it to the stored count, which trapped.
    #if compiler(>=6.2)
    await #expect(processExitsWith: .success) {
      exit(try DecodedExtremesTests.appendNearMaximumEvictions() ? 0 : 3)
    }
    #else
    // Swift 6.0 and 6.1 have no exit tests: checked in this process, where a trap fails the run.
    #expect(try Self.appendNearMaximumEvictions())
    #endif
  }

  /// Whether three appends to a planted log one eviction short of the maximum leave the count at
  /// its maximum.
  static func appendNearMaximumEvictions() throws -> Bool {
    let directory = try TemporaryDirectory()
    let planted = LogFileFormat.file(
      header: LogFileFormat.Header(
        tokenBase: 1, identity: 7, capacity: 1, evicted: UInt64.max - 1, nextPosition: 1),
      records: [])
    try planted.write(to: directory.url.appendingPathComponent("log"))
    let log = try DiagnosticLog(
      store: FileStore(directory: directory.url), key: "log", capacity: 1)
    for index in 0..<3 {
      try log.append(
        DiagnosticEntry(
          id: UUID(), at: Date(timeIntervalSince1970: Double(index)), eventName: "e",
          action: .heartbeat, success: false))
    }
    return try log.snapshot().evicted == .max
  }

  @Test("memory and sequence figures of UInt64.max decode and are judged")
  func heartbeatFigures() throws {
    let text =
      #"{"at":"9999-12-29T23:59:59.999Z","source":"monitor","sequence":18446744073709551615,"#
      + #""memoryBytes":18446744073709551615}"#
    let heartbeat = try decode(Heartbeat.self, text)
    #expect(heartbeat.memoryBytes == .max)
    let entry = try decode(
      DiagnosticEntry.self,
      #"{"id":"00000000-0000-0000-0000-000000000001","at":"0001-01-03T00:00:00Z","#
        + #""eventName":"","action":"heartbeat","success":false,"memoryBytes":18446744073709551615}"#
    )
    #expect(entry.memoryBytes == .max)
    for value in Self.extremes {
      let advice = try? decode(RestartAdvice.self, #"{"isDue":true,"intervalMs":\#(value)}"#)
      #expect((advice == nil) == value.hasPrefix("-"))
    }
  }
}
