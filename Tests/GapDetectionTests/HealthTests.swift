import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing

/// Health from the latest heartbeat and `now`, under documented thresholds.
@Suite("Health")
struct HealthTests {
  let base = Date(timeIntervalSince1970: 1_772_960_400)

  func beat(_ offset: TimeInterval, memory: UInt64? = nil) throws -> Heartbeat {
    try Heartbeat(
      at: base.addingTimeInterval(offset), source: .monitorExtension, memoryBytes: memory)
  }

  @Test("the defaults are 120 s, 300 s, 600 s, 15 min, 2 s and the extension's memory limits")
  func defaults() {
    let policy = HealthPolicy.standard
    #expect(policy.staleAfter == .seconds(120))
    #expect(policy.gapAfter == .seconds(300))
    #expect(policy.usageGapAfter == .seconds(600))
    #expect(policy.alertAfter == .seconds(900))
    #expect(policy.clockSkewTolerance == .seconds(2))
    #expect(policy.memory == .monitorExtension)
  }

  @Test("no heartbeat ever is never seen, and its silence is a gap")
  func neverSeen() {
    let health = HealthPolicy.standard.health(of: nil, at: base)
    #expect(health.status == .neverSeen)
    #expect(health.silenceIsGap)
    #expect(!health.isHealthy)
  }

  @Test(
    "a heartbeat is healthy up to 120 s inclusive and stale after",
    arguments: [(0.0, true), (119.999, true), (120.0, true), (120.001, false), (3600, false)])
  func staleBoundary(age: TimeInterval, healthy: Bool) throws {
    let health = HealthPolicy.standard.health(of: try beat(0), at: base.addingTimeInterval(age))
    let expectedAge = Duration.milliseconds(Int64((age * 1000).rounded()))
    #expect(health.status == (healthy ? .healthy(age: expectedAge) : .stale(age: expectedAge)))
  }

  @Test(
    "silence counts as a gap only beyond 300 s", arguments: [(300.0, false), (300.001, true)])
  func gapBoundary(age: TimeInterval, isGap: Bool) throws {
    let health = HealthPolicy.standard.health(of: try beat(0), at: base.addingTimeInterval(age))
    #expect(health.silenceIsGap == isGap)
  }

  @Test("a heartbeat from the future is clock skew, never a negative age")
  func futureIsSkew() throws {
    let policy = HealthPolicy.standard
    #expect(policy.health(of: try beat(3600), at: base).status == .clockSkew(ahead: .seconds(3600)))
    #expect(
      policy.health(of: try beat(2.001), at: base).status == .clockSkew(ahead: .milliseconds(2001)))
    #expect(policy.health(of: try beat(2), at: base).status == .healthy(age: .zero))
    #expect(policy.health(of: try beat(0.5), at: base).status == .healthy(age: .zero))
    let strict = try HealthPolicy(clockSkewTolerance: .zero)
    #expect(
      strict.health(of: try beat(0.001), at: base).status == .clockSkew(ahead: .milliseconds(1)))
  }

  @Test(
    "memory maps to levels above 4.5, 5.5 and 6 MB, thresholds exclusive",
    arguments: [
      (UInt64(0), MemoryLevel.normal), (4_718_592, .normal), (4_718_593, .warning),
      (5_767_168, .warning), (5_767_169, .critical), (6_291_456, .critical),
      (6_291_457, .overLimit),
    ])
  func memoryLevels(bytes: UInt64, level: MemoryLevel) throws {
    #expect(MemoryPolicy.monitorExtension.level(forBytes: bytes) == level)
    let health = HealthPolicy.standard.health(of: try beat(0, memory: bytes), at: base)
    #expect(health.memoryLevel == level)
  }

  @Test("memory levels are ordered by severity")
  func memoryLevelOrder() {
    #expect(MemoryLevel.allCases.sorted() == [.normal, .warning, .critical, .overLimit])
  }

  @Test("a policy's JSON form is the documented one and validates")
  func policyJSON() throws {
    let text =
      #"{"alertAfterMs":900000,"clockSkewToleranceMs":2000,"gapAfterMs":300000,"#
      + #""memory":{"criticalBytes":5767168,"limitBytes":6291456,"warningBytes":4718592},"#
      + #""staleAfterMs":120000,"usageGapAfterMs":600000}"#
    #expect(try json(HealthPolicy.standard) == text)
    #expect(try decode(HealthPolicy.self, text) == .standard)
    let reversed = text.replacingOccurrences(
      of: "\"gapAfterMs\":300000", with: "\"gapAfterMs\":1000")
    #expect(codingKey(of: try decodingError(HealthPolicy.self, reversed)) == "gapAfterMs")
    let noUsageGap = text.replacingOccurrences(
      of: "\"usageGapAfterMs\":600000", with: "\"usageGapAfterMs\":0")
    #expect(codingKey(of: try decodingError(HealthPolicy.self, noUsageGap)) == "usageGapAfterMs")
    let noAlert = text.replacingOccurrences(
      of: "\"alertAfterMs\":900000", with: "\"alertAfterMs\":0")
    #expect(codingKey(of: try decodingError(HealthPolicy.self, noAlert)) == "alertAfterMs")
  }

  @Test("statuses encode as documented")
  func statusJSON() throws {
    #expect(try json(HeartbeatStatus.neverSeen) == #"{"state":"never_seen"}"#)
    #expect(
      try json(HeartbeatStatus.stale(age: .seconds(150))) == #"{"ageMs":150000,"state":"stale"}"#)
    #expect(
      try json(HeartbeatStatus.clockSkew(ahead: .seconds(5)))
        == #"{"aheadMs":5000,"state":"clock_skew"}"#)
    for status in [
      HeartbeatStatus.neverSeen, .healthy(age: .seconds(1)), .stale(age: .seconds(200)),
      .clockSkew(ahead: .seconds(9)),
    ] {
      #expect(try decode(HeartbeatStatus.self, json(status)) == status)
    }
    #expect(throws: DecodingError.self) { try decode(HeartbeatStatus.self, #"{"state":"dead"}"#) }
  }

  @Test("a health value round-trips through JSON with its instant as ISO 8601")
  func healthJSON() throws {
    let health = HealthPolicy.standard.health(
      of: try beat(0, memory: 5_000_000), at: base.addingTimeInterval(30))
    let text = try json(health)
    #expect(text.contains(#""checkedAt":"2026-03-08T09:00:30Z""#))
    #expect(try decode(HeartbeatHealth.self, text) == health)
  }

  @Test("invalid policies are refused with the field named")
  func invalidPolicy() {
    func field(_ make: () throws(GapDetectionError) -> HealthPolicy) -> String? {
      do {
        _ = try make()
        return nil
      } catch {
        guard case .invalidValue(let field, _, _) = error else { return "\(error)" }
        return field
      }
    }
    #expect(
      field { () throws(GapDetectionError) in try HealthPolicy(staleAfter: .zero) } == "staleAfter")
    #expect(
      field { () throws(GapDetectionError) in
        try HealthPolicy(staleAfter: .seconds(120), gapAfter: .seconds(60))
      } == "gapAfter")
    #expect(
      field { () throws(GapDetectionError) in try HealthPolicy(usageGapAfter: .milliseconds(-1)) }
        == "usageGapAfter")
    #expect(
      field { () throws(GapDetectionError) in try HealthPolicy(alertAfter: .nanoseconds(1)) }
        == "alertAfter")
    #expect(
      field { () throws(GapDetectionError) in
        try HealthPolicy(staleAfter: .seconds(1), gapAfter: .seconds(1))
      } == nil)
  }

  @Test("memory thresholds must be ordered")
  func memoryPolicyValidation() {
    #expect(throws: GapDetectionError.self) {
      try MemoryPolicy(limitBytes: 10, warningBytes: 8, criticalBytes: 8)
    }
    #expect(throws: GapDetectionError.self) {
      try MemoryPolicy(limitBytes: 10, warningBytes: 5, criticalBytes: 11)
    }
    #expect(throws: Never.self) {
      try MemoryPolicy(limitBytes: 10, warningBytes: 5, criticalBytes: 10)
    }
  }
}
