import Foundation

/// How one app's thresholds in one monitoring interval are graded: the highest the evidence
/// confirms, and the highest claimed.
///
/// The rule: a threshold is *confirmed* when a report of it, or of a higher threshold of the
/// same app, arrived on its own — not within ``burstWindow`` of a report of another threshold of
/// that app — and that window has passed. Thresholds above the highest confirmed one are
/// *unconfirmed* (``UnconfirmedReason`` says why). A threshold the platform reports alone proves
/// the app's count reached it, and so every lower one; thresholds reported together prove
/// nothing until such a report follows.
///
/// **Monotone as facts arrive in order.** Grading as of an instant counts only reports whose
/// window has passed by then, so when the facts arrive in the order of their instants (as one
/// extension writes them), nothing confirmed is ever unconfirmed by a later fact: what was
/// credited from the lower bound stays supported.
///
/// ```swift
/// for grading in interval.gradings {  // interval: a MonitoringIntervalUsage
///   print(grading.app, grading.confirmed, grading.claimed)  // lower and upper bounds
/// }
/// ```
///
/// JSON form: `{"intervalStart": "2026-04-15T04:00:00Z", "app": "com.a", "confirmedMs": 1200000,
/// "claimedMs": 3600000, "reason": "burst"}`; `reason` is omitted when everything claimed is
/// confirmed.
public struct ThresholdGrading: Sendable, Hashable, Codable {
  /// How close two reports of one app's thresholds may be before they count as a burst: 60 s.
  ///
  /// One app's thresholds are at least a minute apart on any ladder the library names, and the
  /// platform delivers a threshold within seconds of reaching it when it behaves.
  public static let burstWindow = Duration.seconds(60)

  /// When the interval began.
  public let intervalStart: Date
  /// The app.
  public let app: AppID
  /// The highest threshold the evidence confirms: the lower bound of the app's use.
  public let confirmed: Duration
  /// The highest threshold plausibly reported: the upper bound of the app's use.
  public let claimed: Duration
  /// Why the part above ``confirmed`` is not confirmed; `nil` when nothing is.
  public let reason: UnconfirmedReason?

  /// Grades an app's thresholds in an interval.
  ///
  /// - Parameters:
  ///   - usage: The app's thresholds, each with its earliest report.
  ///   - intervalStart: When the interval began.
  ///   - now: The instant of the grading: a report confirms only once its burst window has
  ///     passed by then; `nil` grades the evidence as final.
  /// - Complexity: O(*s* log *s*) for *s* thresholds.
  public init(
    _ usage: MonitoringIntervalUsage.AppThreshold, intervalStart: Date, asOf now: Date? = nil
  ) {
    self.intervalStart = intervalStart
    app = usage.app
    let confirmedAmount = Self.confirmedAmount(
      of: usage.steps, asOf: now.map(Milliseconds.clampedInstant) ?? .max)
    confirmed = Milliseconds.duration(confirmedAmount)
    claimed = usage.highest
    reason = confirmedAmount < usage.highestThreshold ? .burst : nil
  }

  /// The bound `bound` of the app's use.
  ///
  /// - Parameter bound: Which bound.
  /// - Returns: ``confirmed`` for the lower bound, ``claimed`` for the upper.
  public func threshold(for bound: UsageBound) -> Duration {
    bound == .lower ? confirmed : claimed
  }

  /// The highest threshold of `steps` reported outside any burst, whose window has passed by
  /// `now`, in milliseconds; 0 if none.
  static func confirmedAmount(of steps: [ThresholdStep], asOf now: Int64) -> Int64 {
    let window = Milliseconds.amount(burstWindow) ?? 0
    let byReport = steps.sorted { $0.instant < $1.instant }
    var confirmed: Int64 = 0
    for (index, step) in byReport.enumerated() {
      let before = index > 0 ? byReport[index - 1].instant : nil
      let after = index + 1 < byReport.count ? byReport[index + 1].instant : nil
      let alone =
        (before.map { step.instant - $0 > window } ?? true)
        && (after.map { $0 - step.instant > window } ?? true)
      let settled = step.instant <= now - window
      if alone, settled { confirmed = max(confirmed, step.thresholdAmount) }
    }
    return confirmed
  }

  private enum CodingKeys: String, CodingKey {
    case intervalStart, app, confirmedMs, claimedMs, reason
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also a confirmed amount
  ///   above the claimed one.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    intervalStart = Milliseconds.date(try container.decodeInstant(forKey: .intervalStart))
    app = try container.decode(AppID.self, forKey: .app)
    confirmed = try container.decodeMilliseconds(forKey: .confirmedMs)
    claimed = try container.decodeMilliseconds(forKey: .claimedMs)
    reason = try container.decodeIfPresent(UnconfirmedReason.self, forKey: .reason)
    guard confirmed <= claimed else {
      throw DecodingError.dataCorruptedError(
        forKey: .confirmedMs, in: container,
        debugDescription: "the confirmed amount exceeds the claimed one")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(Milliseconds.clampedInstant(intervalStart), forKey: .intervalStart)
    try container.encode(app, forKey: .app)
    try container.encodeMilliseconds(confirmed, forKey: .confirmedMs)
    try container.encodeMilliseconds(claimed, forKey: .claimedMs)
    try container.encodeIfPresent(reason, forKey: .reason)
  }
}

extension MonitoringIntervalUsage {
  /// Every app's thresholds in the interval, graded (``ThresholdGrading``) as of `now`.
  ///
  /// - Parameter now: The instant of the grading; `nil` grades the evidence as final.
  /// - Returns: One grading per app, in order of app.
  /// - Complexity: O(*s* log *s*) for *s* steps in the interval.
  public func gradings(asOf now: Date? = nil) -> [ThresholdGrading] {
    apps.map { ThresholdGrading($0, intervalStart: start, asOf: now) }
  }
}
