import Foundation

/// How one app's thresholds in one monitoring interval are graded: the highest the evidence
/// confirms, and the highest claimed.
///
/// The rule, over the reports of the app's thresholds in the order they arrived, each once its
/// ``burstWindow`` has passed:
/// - a threshold reported on its own — not within ``burstWindow`` of a report of another of the
///   app's thresholds — is *confirmed*, and so is every threshold below it: the platform reports
///   a threshold only once its count reaches it;
/// - thresholds reported together (a *burst*) after ``silenceBeforeBurst`` without any report of
///   the interval are a catch-up storm or phantoms, which look the same: they are not confirmed
///   until a later report is;
/// - a burst amid other reports is thresholds delivered out of order: each counts as far as the
///   time since the app's last confirmed report before the burst holds it, one app's use
///   growing no faster than the clock. The burst's own reports are not that report: a
///   threshold confirmed in the burst proves no time passed before its neighbour.
///
/// Thresholds above the highest confirmed one are *unconfirmed* (``UnconfirmedReason`` says
/// why).
///
/// **Monotone as facts arrive in order.** Grading as of an instant counts only reports whose
/// window has passed by then, so when the facts arrive in the order of their instants (as one
/// extension writes them), nothing confirmed is ever unconfirmed by a later fact: what was
/// credited from the lower bound stays supported. The exception is a late delivery, graded at
/// the end of the interval it belongs to (`IntervalAttribution.lateDeliveryWindow`): it may
/// join a burst there.
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

  /// How long without any report of the interval makes a burst after it unconfirmed: 15 min.
  ///
  /// Thresholds released together after a silence are a catch-up storm or phantoms (the first
  /// pickup of the day, a charger): neither is confirmed until a later report is. A burst amid
  /// other reports is thresholds delivered out of order, and counts when the time since the
  /// last confirmed report before the burst holds it.
  public static let silenceBeforeBurst = Duration.seconds(15 * 60)

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

  /// Grades an app's thresholds in an interval on their own: without the interval's other
  /// apps, every burst counts as following a silence.
  ///
  /// ``MonitoringIntervalUsage/gradings(asOf:)`` grades with every report of the interval, as
  /// the rule above asks; prefer it.
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
    self.init(usage, intervalStart: intervalStart, asOf: now, interval: [])
  }

  /// Grades an app's thresholds among the reports of every app of its interval, `interval`
  /// (sorted instants in milliseconds), which tell a burst amid use from one after a silence.
  init(
    _ usage: MonitoringIntervalUsage.AppThreshold, intervalStart: Date, asOf now: Date?,
    interval: [Int64]
  ) {
    self.intervalStart = intervalStart
    app = usage.app
    let confirmedAmount = Self.confirmedAmount(
      of: usage.steps, asOf: now.map(Milliseconds.clampedInstant) ?? .max, interval: interval,
      start: Milliseconds.clampedInstant(intervalStart))
    confirmed = Milliseconds.duration(confirmedAmount)
    claimed = usage.highest
    let window = Milliseconds.amount(Self.burstWindow) ?? 0
    let limit = now.map(Milliseconds.clampedInstant) ?? .max
    if confirmedAmount >= usage.highestThreshold {
      reason = nil
    } else if let top = usage.steps.last, top.instant > limit - window {
      reason = .recent
    } else {
      reason = .burst
    }
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
  static func confirmedAmount(
    of steps: [ThresholdStep], asOf now: Int64, interval: [Int64] = [], start: Int64 = .min
  ) -> Int64 {
    let window = Milliseconds.amount(burstWindow) ?? 0
    let silence = Milliseconds.amount(silenceBeforeBurst) ?? 0
    let byReport = steps.sorted { $0.instant < $1.instant }
    var confirmed: Int64 = 0
    // Every confirmation so far, ascending: a burst is measured from the last one made before
    // it, never from one of its own reports.
    var confirmations: [(amount: Int64, at: Int64)] = [(0, start)]
    for (index, step) in byReport.enumerated() where step.instant <= now - window {
      let before = index > 0 ? byReport[index - 1].instant : nil
      let after = index + 1 < byReport.count ? byReport[index + 1].instant : nil
      let alone =
        (before.map { step.instant - $0 >= window } ?? true)
        && (after.map { $0 - step.instant >= window } ?? true)
      if !alone {
        // A burst amid other reports is reordering, unless it claims more use than the time
        // since the last confirmed report before the burst (a report of the burst itself
        // proves no time passed); after a silence it is a storm or phantoms. The
        // silence is measured before the first report of the cluster the burst belongs to
        // (reports of any app, each less than a window after the one before), so that a storm
        // whose reports chain over minutes is still one storm.
        let afterSilence = Self.followsSilence(
          step.instant, in: interval, window: window, silence: silence)
        let anchor =
          confirmations.last { $0.at <= step.instant - window } ?? confirmations[0]
        guard !afterSilence, anchor.at > .min,
          step.thresholdAmount - anchor.amount <= step.instant - anchor.at + window
        else { continue }
      }
      if step.thresholdAmount > confirmed {
        confirmed = step.thresholdAmount
        confirmations.append((confirmed, step.instant))
      }
    }
    return confirmed
  }

  /// Whether the cluster of reports `instant` belongs to — reports of the sorted `instants`,
  /// each less than `window` after the one before — follows at least `silence` without any
  /// report, or no report at all.
  private static func followsSilence(
    _ instant: Int64, in instants: [Int64], window: Int64, silence: Int64
  ) -> Bool {
    var low = 0
    var high = instants.count
    while low < high {
      let middle = (low + high) / 2
      if instants[middle] < instant { low = middle + 1 } else { high = middle }
    }
    // `low` is the first report at or after `instant`; walk back to the cluster's first.
    var first = min(low, instants.count - 1)
    guard first >= 0, !instants.isEmpty else { return true }
    while first > 0, instants[first] - instants[first - 1] < window { first -= 1 }
    guard first > 0 else { return true }
    return instants[first] - instants[first - 1] > silence
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
    let reports = reportInstants
    return apps.map { ThresholdGrading($0, intervalStart: start, asOf: now, interval: reports) }
  }

  /// Every app's reports in the interval, sorted.
  var reportInstants: [Int64] { apps.flatMap { $0.steps.map(\.instant) }.sorted() }
}
