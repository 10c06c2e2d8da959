import Foundation
import SignalValues
import UsageModel

/// The thresholds that turn heartbeats and usage into health, gaps and alerts.
///
/// | threshold | default | meaning |
/// |---|---|---|
/// | ``staleAfter`` | 120 s | a latest heartbeat older than this is stale |
/// | ``gapAfter`` | 300 s | heartbeat silence longer than this is a gap |
/// | ``usageGapAfter`` | 600 s | usage silence between records longer than this is a gap |
/// | ``alertAfter`` | 15 min | tracker-down time in one window that raises an alert |
/// | ``clockSkewTolerance`` | 2 s | a heartbeat at most this far in the future counts as age zero |
/// | ``memory`` | 6 MB, 4.5 / 5.5 MB | see ``MemoryPolicy`` |
///
/// "Longer than" is strict: a heartbeat exactly 120 s old is healthy, a silence of exactly 300 s
/// is not a gap, and a heartbeat exactly 2 s in the future is healthy with age zero. The alert
/// threshold is *reached*: exactly 15 minutes of tracker-down time alerts, so that a tracker
/// dead for a 15-minute pause in use raises it.
///
/// ```swift
/// let health = HealthPolicy.standard.health(of: try recorder.latest(), at: now)
/// if case .stale(let age) = health.status { restartMonitoring() }
/// ```
///
/// JSON form: `{"staleAfterMs": 120000, "gapAfterMs": 300000, "usageGapAfterMs": 600000,
/// "alertAfterMs": 900000, "clockSkewToleranceMs": 2000, "memory": MemoryPolicy}`.
public struct HealthPolicy: Sendable, Hashable, Codable {
  /// The defaults of the table above.
  public static let standard = HealthPolicy()

  let staleAfterMs: Int64
  let gapAfterMs: Int64
  let usageGapAfterMs: Int64
  let alertAfterMs: Int64
  let toleranceMs: Int64
  /// The thresholds for the heartbeat's memory figure.
  public let memory: MemoryPolicy

  /// The defaults: 120 s, 300 s, 600 s, 15 min, 2 s and ``MemoryPolicy/monitorExtension``.
  public init() {
    staleAfterMs = 120_000
    gapAfterMs = 300_000
    usageGapAfterMs = 600_000
    alertAfterMs = 900_000
    toleranceMs = 2_000
    memory = .monitorExtension
  }

  /// Creates a policy.
  ///
  /// - Parameters:
  ///   - staleAfter: Age beyond which the latest heartbeat is stale; more than zero.
  ///   - gapAfter: Heartbeat silence beyond which there is a gap; at least ``staleAfter``.
  ///   - usageGapAfter: Usage silence beyond which there is a gap; more than zero.
  ///   - alertAfter: Tracker-down time in one window that raises an alert; more than zero.
  ///   - clockSkewTolerance: How far in the future a heartbeat may be (inclusive) and count as
  ///     age zero.
  ///   - memory: The memory thresholds.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` naming the first
  ///   duration that is out of range or not whole milliseconds.
  public init(
    staleAfter: Duration = .seconds(120), gapAfter: Duration = .seconds(300),
    usageGapAfter: Duration = .seconds(600), alertAfter: Duration = .seconds(900),
    clockSkewTolerance: Duration = .seconds(2), memory: MemoryPolicy = .monitorExtension
  ) throws(GapDetectionError) {
    staleAfterMs = try TimeValues.amount(staleAfter, field: "staleAfter", minimum: 1)
    gapAfterMs = try TimeValues.amount(gapAfter, field: "gapAfter", minimum: staleAfterMs)
    usageGapAfterMs = try TimeValues.amount(usageGapAfter, field: "usageGapAfter", minimum: 1)
    alertAfterMs = try TimeValues.amount(alertAfter, field: "alertAfter", minimum: 1)
    toleranceMs = try TimeValues.amount(clockSkewTolerance, field: "clockSkewTolerance")
    self.memory = memory
  }

  /// Age beyond which the latest heartbeat is stale.
  public var staleAfter: Duration { .milliseconds(staleAfterMs) }
  /// Heartbeat silence beyond which there is a gap.
  public var gapAfter: Duration { .milliseconds(gapAfterMs) }
  /// Usage silence between consecutive records beyond which there is a gap.
  public var usageGapAfter: Duration { .milliseconds(usageGapAfterMs) }
  /// Tracker-down time in one window that raises an alert.
  public var alertAfter: Duration { .milliseconds(alertAfterMs) }
  /// How far in the future a heartbeat may be, inclusive, and still count as age zero.
  public var clockSkewTolerance: Duration { .milliseconds(toleranceMs) }

  /// Judges a tracker from its latest heartbeat.
  ///
  /// - Parameters:
  ///   - latest: The latest heartbeat, or `nil` when none was ever recorded.
  ///   - now: The instant of the check; rounded to the millisecond.
  /// - Returns: Healthy, stale, never seen or clock skew, with the memory level.
  public func health(of latest: Heartbeat?, at now: Date) -> HeartbeatHealth {
    let checked = TimeValues.clampedInstant(now)
    guard let latest else {
      return HeartbeatHealth(
        checkedAt: Milliseconds.date(checked), status: .neverSeen, latest: nil,
        memoryLevel: nil, silenceIsGap: true)
    }
    let age = checked - latest.instant
    let status: HeartbeatStatus
    if age < -toleranceMs {
      status = .clockSkew(ahead: .milliseconds(-age))
    } else if age > staleAfterMs {
      status = .stale(age: .milliseconds(age))
    } else {
      status = .healthy(age: .milliseconds(max(0, age)))
    }
    return HeartbeatHealth(
      checkedAt: Milliseconds.date(checked), status: status, latest: latest,
      memoryLevel: latest.memoryBytes.map(memory.level(forBytes:)), silenceIsGap: age > gapAfterMs)
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case staleAfterMs
    case gapAfterMs
    case usageGapAfterMs
    case alertAfterMs
    case clockSkewToleranceMs
    case memory
  }

  /// Decodes the documented JSON form, validating it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        staleAfter: try container.decodeMilliseconds(forKey: .staleAfterMs),
        gapAfter: try container.decodeMilliseconds(forKey: .gapAfterMs),
        usageGapAfter: try container.decodeMilliseconds(forKey: .usageGapAfterMs),
        alertAfter: try container.decodeMilliseconds(forKey: .alertAfterMs),
        clockSkewTolerance: try container.decodeMilliseconds(forKey: .clockSkewToleranceMs),
        memory: try container.decode(MemoryPolicy.self, forKey: .memory))
    } catch let error as GapDetectionError {
      throw DecodingError.dataCorruptedError(
        forKey: error.codingKey(CodingKeys.self) ?? .staleAfterMs, in: container,
        debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(staleAfterMs, forKey: .staleAfterMs)
    try container.encode(gapAfterMs, forKey: .gapAfterMs)
    try container.encode(usageGapAfterMs, forKey: .usageGapAfterMs)
    try container.encode(alertAfterMs, forKey: .alertAfterMs)
    try container.encode(toleranceMs, forKey: .clockSkewToleranceMs)
    try container.encode(memory, forKey: .memory)
  }
}
