import Foundation
import UsageModel

/// Whether the app is in the foreground, as UIKit's `UIApplication.State` says.
///
/// JSON form: the raw value, for example `"background"`.
public enum AppState: String, Sendable, Hashable, CaseIterable, Codable {
  /// In the foreground and receiving events.
  case active
  /// In the foreground but not receiving events (a call, the app switcher).
  case inactive
  /// In the background.
  case background
}

/// How long to wait before restarting monitoring, by the app's state and its last usage event.
///
/// - foreground (``AppState/active``): 60 s, for accuracy;
/// - ``AppState/inactive`` or ``AppState/background``: 300 s, to save battery;
/// - but 30 s whenever a usage event arrived less than 30 s before `now`, so that a restart
///   never interrupts active use. An event dated after `now` by at most ``clockSkewTolerance``
///   (2 s: the event was written just after the app read its clock) counts as recent too; one
///   further in the future is clock skew and does not count, or a clock set back would keep
///   the short interval for as long as it stayed behind.
///
/// A pure function of its inputs: the caller passes the app state, the instant of the last event
/// and `now`, and schedules the returned interval.
///
/// ```swift
/// let wait = RestartPolicy.standard.interval(appState: .background, lastEventAt: last, now: now)
/// ```
///
/// JSON form: `{"foregroundMs": 60000, "backgroundMs": 300000, "afterRecentEventMs": 30000,
/// "recentEventWindowMs": 30000, "clockSkewToleranceMs": 2000}`; `clockSkewToleranceMs` may be
/// absent on input (2000).
public struct RestartPolicy: Sendable, Hashable, Codable {
  /// The recommended values: 60 s, 300 s, and 30 s after an event less than 30 s old; 2 s of skew.
  public static let standard = RestartPolicy(
    uncheckedForeground: 60_000, background: 300_000, afterRecentEvent: 30_000,
    recentEventWindow: 30_000, clockSkewTolerance: 2_000)

  let foregroundMs: Int64
  let backgroundMs: Int64
  let afterRecentEventMs: Int64
  let recentEventWindowMs: Int64
  let toleranceMs: Int64

  /// Creates a policy.
  ///
  /// - Parameters:
  ///   - foreground: The interval while the app is active; more than zero.
  ///   - background: The interval while it is inactive or in the background; more than zero.
  ///   - afterRecentEvent: The interval after a recent event; more than zero.
  ///   - recentEventWindow: How old an event may be and still count as recent.
  ///   - clockSkewTolerance: How far after `now` an event may be dated and still count as
  ///     recent; 2 s unless you choose otherwise.
  /// - Throws: ``TrackerSignalsError/invalidValue(field:value:requirement:)``.
  public init(
    foreground: Duration, background: Duration, afterRecentEvent: Duration,
    recentEventWindow: Duration, clockSkewTolerance: Duration = .seconds(2)
  ) throws(TrackerSignalsError) {
    self.init(
      uncheckedForeground: try TimeValues.amount(foreground, field: "foreground", minimum: 1),
      background: try TimeValues.amount(background, field: "background", minimum: 1),
      afterRecentEvent: try TimeValues.amount(
        afterRecentEvent, field: "afterRecentEvent", minimum: 1),
      recentEventWindow: try TimeValues.amount(recentEventWindow, field: "recentEventWindow"),
      clockSkewTolerance: try TimeValues.amount(clockSkewTolerance, field: "clockSkewTolerance"))
  }

  private init(
    uncheckedForeground: Int64, background: Int64, afterRecentEvent: Int64,
    recentEventWindow: Int64, clockSkewTolerance: Int64
  ) {
    foregroundMs = uncheckedForeground
    backgroundMs = background
    afterRecentEventMs = afterRecentEvent
    recentEventWindowMs = recentEventWindow
    toleranceMs = clockSkewTolerance
  }

  /// The time to wait before the next restart of monitoring.
  ///
  /// - Parameters:
  ///   - appState: The app's state now.
  ///   - lastEventAt: When the last usage event arrived, or `nil` when none did.
  ///   - now: The current instant.
  /// - Returns: The interval: after a recent event ``afterRecentEvent``, otherwise the
  ///   foreground or background interval.
  public func interval(appState: AppState, lastEventAt: Date?, now: Date) -> Duration {
    if let lastEventAt {
      let age = Milliseconds.clampedInstant(now) - Milliseconds.clampedInstant(lastEventAt)
      if age >= -toleranceMs, age < recentEventWindowMs {
        return .milliseconds(afterRecentEventMs)
      }
    }
    switch appState {
    case .active: return .milliseconds(foregroundMs)
    case .inactive, .background: return .milliseconds(backgroundMs)
    }
  }

  /// The interval while the app is active.
  public var foreground: Duration { .milliseconds(foregroundMs) }
  /// The interval while it is inactive or in the background.
  public var background: Duration { .milliseconds(backgroundMs) }
  /// The interval after a recent event.
  public var afterRecentEvent: Duration { .milliseconds(afterRecentEventMs) }
  /// How old an event may be and still count as recent.
  public var recentEventWindow: Duration { .milliseconds(recentEventWindowMs) }
  /// How far after `now` an event may be dated and still count as recent.
  public var clockSkewTolerance: Duration { .milliseconds(toleranceMs) }

  private enum CodingKeys: String, CodingKey {
    case foregroundMs
    case backgroundMs
    case afterRecentEventMs
    case recentEventWindowMs
    case clockSkewToleranceMs
  }

  /// Decodes the documented JSON form, validating it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(
        foreground: try container.decodeMilliseconds(forKey: .foregroundMs),
        background: try container.decodeMilliseconds(forKey: .backgroundMs),
        afterRecentEvent: try container.decodeMilliseconds(forKey: .afterRecentEventMs),
        recentEventWindow: try container.decodeMilliseconds(forKey: .recentEventWindowMs),
        clockSkewTolerance: try container.decodeIfPresent(Int64.self, forKey: .clockSkewToleranceMs)
          .map { Duration.milliseconds($0) } ?? .seconds(2))
    } catch let error as TrackerSignalsError {
      throw DecodingError.dataCorruptedError(
        forKey: error.codingKey(CodingKeys.self) ?? .foregroundMs, in: container,
        debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(foregroundMs, forKey: .foregroundMs)
    try container.encode(backgroundMs, forKey: .backgroundMs)
    try container.encode(afterRecentEventMs, forKey: .afterRecentEventMs)
    try container.encode(recentEventWindowMs, forKey: .recentEventWindowMs)
    try container.encode(toleranceMs, forKey: .clockSkewToleranceMs)
  }
}
