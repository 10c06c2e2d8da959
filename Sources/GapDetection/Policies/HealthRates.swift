import Foundation
import SignalValues
import UsageModel

/// The tracker's success metrics over a window: how often health checks found the tracker stale,
/// how often the extension failed, how often a session raised a gap alert.
///
/// | rate | counts | standard target |
/// |---|---|---|
/// | ``staleChecks`` | health checks that were stale or never saw a heartbeat, of all checks | < 2 % |
/// | ``failures`` | failed diagnostic entries, of all entries (each identifier once) | < 1 % |
/// | ``alertedSessions`` | sessions during which an alert was raised, of all sessions | < 5 % |
///
/// Checks that found clock skew are counted apart (``skewedChecks``): the tracker may be fine.
/// Only checks, entries and alerts inside the window count, and sessions that overlap it.
///
/// ```swift
/// let rates = HealthRates(
///   window: lastWeek, checks: checks, diagnostics: try log.entries(),
///   sessions: sessions, alerts: alertInstants)
/// rates.meets(.standard)
/// ```
///
/// JSON form: `{"start": "…", "end": "…", "staleChecks": Rate, "skewedChecks": Rate,
/// "failures": Rate, "alertedSessions": Rate}`.
public struct HealthRates: Sendable, Hashable, Codable {
  /// Stale and never-seen checks, of all checks in the window.
  public let staleChecks: Rate
  /// Checks that found clock skew, of all checks in the window.
  public let skewedChecks: Rate
  /// Failed diagnostic entries, of all entries in the window.
  public let failures: Rate
  /// Sessions during which at least one alert was raised, of all sessions.
  public let alertedSessions: Rate
  let startInstant: Int64
  let endInstant: Int64

  /// Computes the rates over a window.
  ///
  /// - Parameters:
  ///   - window: The window, start included, end excluded.
  ///   - checks: Health checks (``HeartbeatHealth`` values the app made).
  ///   - diagnostics: Diagnostic entries; an identifier that appears twice counts once.
  ///   - sessions: The app's sessions (for example, foreground periods).
  ///   - alerts: When gap alerts were raised.
  public init(
    window: DateInterval, checks: [HeartbeatHealth], diagnostics: [DiagnosticEntry],
    sessions: [DateInterval], alerts: [Date]
  ) {
    let (start, end) = TimeValues.bounds(of: window)
    startInstant = start
    endInstant = end
    func inside(_ date: Date) -> Bool {
      let instant = TimeValues.clampedInstant(date)
      return instant >= start && instant < end
    }
    let windowChecks = checks.filter { inside($0.checkedAt) }
    staleChecks = Rate(
      unchecked: windowChecks.filter { check in
        switch check.status {
        case .stale, .neverSeen: return true
        case .healthy, .clockSkew: return false
        }
      }.count, of: windowChecks.count)
    skewedChecks = Rate(
      unchecked: windowChecks.filter { if case .clockSkew = $0.status { true } else { false } }
        .count, of: windowChecks.count)
    var seen = Set<UUID>()
    let entries = diagnostics.filter { inside($0.at) && seen.insert($0.id).inserted }
    failures = Rate(unchecked: entries.filter { !$0.success }.count, of: entries.count)
    let alertInstants = alerts.filter(inside).map(TimeValues.clampedInstant).sorted()
    let windowSessions = sessions.map(TimeValues.bounds).filter { $0.end > start && $0.start < end }
    let alerted = windowSessions.filter { session in
      let first = alertInstants.partitionPoint { $0 >= session.start }
      return first < alertInstants.count && alertInstants[first] <= session.end
    }
    alertedSessions = Rate(unchecked: alerted.count, of: windowSessions.count)
  }

  /// The window, start included, end excluded; its ends are whole milliseconds, and its exact
  /// length is ``windowDuration``.
  public var window: DateInterval { TimeValues.interval(startInstant, endInstant) }
  /// The exact length of ``window``.
  public var windowDuration: Duration { .milliseconds(endInstant - startInstant) }

  /// Whether every rate is below its target.
  ///
  /// - Parameter targets: The targets, for example ``HealthTargets/standard``.
  /// - Returns: `true` when stale checks, failures and alerted sessions are all below target.
  public func meets(_ targets: HealthTargets) -> Bool {
    staleChecks.isBelow(percent: targets.staleChecksPercent)
      && failures.isBelow(percent: targets.failuresPercent)
      && alertedSessions.isBelow(percent: targets.alertedSessionsPercent)
  }

  private enum CodingKeys: String, CodingKey {
    case start
    case end
    case staleChecks
    case skewedChecks
    case failures
    case alertedSessions
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also for a window that ends
  ///   before it starts.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    startInstant = try container.decodeInstant(forKey: .start)
    endInstant = try container.decodeInstant(forKey: .end)
    guard endInstant >= startInstant else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container, debugDescription: "the window ends before it starts")
    }
    staleChecks = try container.decode(Rate.self, forKey: .staleChecks)
    skewedChecks = try container.decode(Rate.self, forKey: .skewedChecks)
    failures = try container.decode(Rate.self, forKey: .failures)
    alertedSessions = try container.decode(Rate.self, forKey: .alertedSessions)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
    try container.encode(staleChecks, forKey: .staleChecks)
    try container.encode(skewedChecks, forKey: .skewedChecks)
    try container.encode(failures, forKey: .failures)
    try container.encode(alertedSessions, forKey: .alertedSessions)
  }
}

/// Percentage targets for ``HealthRates``: each rate must stay strictly below its target.
///
/// ``standard`` holds the recommended targets; make your own only to be stricter or looser.
///
/// JSON form: `{"staleChecksPercent": 2, "failuresPercent": 1, "alertedSessionsPercent": 5}`,
/// each from 0 to 100.
public struct HealthTargets: Sendable, Hashable, Codable {
  /// The recommended targets: stale checks < 2 %, failures < 1 %, alerted sessions < 5 %.
  public static let standard = HealthTargets(
    unchecked: (staleChecks: 2, failures: 1, alertedSessions: 5))

  /// The target for stale checks, in percent.
  public let staleChecksPercent: Int
  /// The target for failed diagnostic entries, in percent.
  public let failuresPercent: Int
  /// The target for alerted sessions, in percent.
  public let alertedSessionsPercent: Int

  /// Creates targets.
  ///
  /// - Parameters:
  ///   - staleChecksPercent: The target for stale checks, 0...100.
  ///   - failuresPercent: The target for failures, 0...100.
  ///   - alertedSessionsPercent: The target for alerted sessions, 0...100.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` naming the first
  ///   target outside 0...100.
  public init(staleChecksPercent: Int, failuresPercent: Int, alertedSessionsPercent: Int)
    throws(GapDetectionError)
  {
    for (field, value) in [
      ("staleChecksPercent", staleChecksPercent), ("failuresPercent", failuresPercent),
      ("alertedSessionsPercent", alertedSessionsPercent),
    ] where !(0...100).contains(value) {
      throw .invalidValue(field: field, value: "\(value)", requirement: "a percentage, 0...100")
    }
    self.init(
      unchecked: (staleChecksPercent, failuresPercent, alertedSessionsPercent))
  }

  private init(unchecked targets: (staleChecks: Int, failures: Int, alertedSessions: Int)) {
    staleChecksPercent = targets.staleChecks
    failuresPercent = targets.failures
    alertedSessionsPercent = targets.alertedSessions
  }

  private enum CodingKeys: String, CodingKey {
    case staleChecksPercent
    case failuresPercent
    case alertedSessionsPercent
  }

  /// Decodes the documented JSON form, validating it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        staleChecksPercent: try container.decode(Int.self, forKey: .staleChecksPercent),
        failuresPercent: try container.decode(Int.self, forKey: .failuresPercent),
        alertedSessionsPercent: try container.decode(Int.self, forKey: .alertedSessionsPercent))
    } catch let error as GapDetectionError {
      throw DecodingError.dataCorruptedError(
        forKey: error.codingKey(CodingKeys.self) ?? .staleChecksPercent, in: container,
        debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(staleChecksPercent, forKey: .staleChecksPercent)
    try container.encode(failuresPercent, forKey: .failuresPercent)
    try container.encode(alertedSessionsPercent, forKey: .alertedSessionsPercent)
  }
}
