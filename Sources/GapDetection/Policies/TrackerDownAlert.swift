import Foundation
import UsageModel

/// An alert that a window of expected tracking lost too much time to a dead tracker.
///
/// An alert on more than 15 minutes of gaps that counted every pause, idle ones included, and
/// truncated each to whole minutes would fire for a person who put the phone down. Here only
/// ``GapClass/trackerDown`` time counts, exactly, per window, and the alert is raised when it
/// *reaches* ``HealthPolicy/alertAfter``: a 15-minute tracker-down gap alerts, a 15-minute idle
/// pause never does.
///
/// ```swift
/// for alert in TrackerDownAlert.evaluate(report, policy: .standard) {
///   notify("Tracking stopped for \(alert.trackerDown)")
/// }
/// ```
///
/// JSON form: `{"windowStart": "2026-03-08T09:00:00Z", "windowEnd": "2026-03-08T17:00:00Z",
/// "trackerDownMs": 900000, "thresholdMs": 900000}`.
public struct TrackerDownAlert: Sendable, Hashable, Codable {
  let windowStart: Int64
  let windowEnd: Int64
  let trackerDownMs: Int64
  let thresholdMs: Int64

  /// The window of expected tracking (as far as the report reached); its exact length is
  /// ``windowDuration``.
  public var window: DateInterval { TimeValues.interval(windowStart, windowEnd) }
  /// The exact length of ``window``.
  public var windowDuration: Duration { .milliseconds(windowEnd - windowStart) }
  /// The tracker-down time within the window.
  public var trackerDown: Duration { .milliseconds(trackerDownMs) }
  /// The threshold it reached.
  public var threshold: Duration { .milliseconds(thresholdMs) }

  /// The alerts a report raises: one per window whose tracker-down time reaches the threshold.
  ///
  /// - Parameters:
  ///   - report: A gap report.
  ///   - policy: The policy whose ``HealthPolicy/alertAfter`` is the threshold.
  /// - Returns: The alerts, in window order.
  /// - Complexity: O(*w* · *g*) for *w* windows and *g* gaps.
  public static func evaluate(_ report: GapReport, policy: HealthPolicy) -> [TrackerDownAlert] {
    report.windowBounds.compactMap { window in
      let down = report.gaps.reduce(Int64(0)) { total, gap in
        guard gap.classification == .trackerDown else { return total }
        return total
          + max(
            0, min(gap.endInstant, window.upperBound) - max(gap.startInstant, window.lowerBound))
      }
      guard down >= policy.alertAfterMs else { return nil }
      return TrackerDownAlert(
        windowStart: window.lowerBound, windowEnd: window.upperBound, trackerDownMs: down,
        thresholdMs: policy.alertAfterMs)
    }
  }

  private enum CodingKeys: String, CodingKey {
    case windowStart
    case windowEnd
    case trackerDownMs
    case thresholdMs
  }

  /// Decodes the documented JSON form, checking what ``evaluate(_:policy:)`` ensures.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also for a window that ends
  ///   before it starts, a threshold under 1 ms, or tracker-down time below the threshold or
  ///   longer than the window.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    windowStart = try container.decodeInstant(forKey: .windowStart)
    windowEnd = try container.decodeInstant(forKey: .windowEnd)
    guard windowEnd >= windowStart else {
      throw DecodingError.dataCorruptedError(
        forKey: .windowEnd, in: container, debugDescription: "the window ends before it starts")
    }
    thresholdMs = try container.decode(Int64.self, forKey: .thresholdMs)
    guard thresholdMs >= 1 else {
      throw DecodingError.dataCorruptedError(
        forKey: .thresholdMs, in: container, debugDescription: "\(thresholdMs) ms is under 1 ms")
    }
    trackerDownMs = try container.decode(Int64.self, forKey: .trackerDownMs)
    guard trackerDownMs >= thresholdMs, trackerDownMs <= windowEnd - windowStart else {
      throw DecodingError.dataCorruptedError(
        forKey: .trackerDownMs, in: container,
        debugDescription: "\(trackerDownMs) ms must reach the threshold and fit in the window")
    }
  }

  private init(windowStart: Int64, windowEnd: Int64, trackerDownMs: Int64, thresholdMs: Int64) {
    self.windowStart = windowStart
    self.windowEnd = windowEnd
    self.trackerDownMs = trackerDownMs
    self.thresholdMs = thresholdMs
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(windowStart, forKey: .windowStart)
    try container.encodeInstant(windowEnd, forKey: .windowEnd)
    try container.encode(trackerDownMs, forKey: .trackerDownMs)
    try container.encode(thresholdMs, forKey: .thresholdMs)
  }
}
