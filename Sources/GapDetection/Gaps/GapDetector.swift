import Foundation
import SignalValues
import UsageModel

/// Finds the gaps in tracking and tells a dead tracker from a person who put the phone down.
///
/// Three kinds of evidence are gathered inside the windows in which tracking was expected
/// (``TrackingExpectation``), between the start of the period and `now`. By default
/// (``TrackingExpectation/sinceFirstHeartbeat``) tracking was expected from the first heartbeat
/// of the detector's ``source`` among those given on: the morning before a tracker's first
/// heartbeat is not judged at all, and given no heartbeat the report has no windows and no gaps
/// (``HealthPolicy/health(of:at:)`` says the tracker was never seen). Choose
/// ``TrackingExpectation/always`` when the tracker must have run all along, or the schedules'
/// windows when they are known.
///
/// 1. **Heartbeat silence**: a pause between two consecutive signs of life longer than
///    ``HealthPolicy/gapAfter``. The signs of life of a window are its heartbeats and, where the
///    window begins monitoring (a schedule occurrence, a timer, an explicit interval, the first
///    heartbeat), its start: a tracker that starts its heartbeats with its monitoring interval
///    has ``HealthPolicy/gapAfter`` of grace. The silence is judged over the *whole* window, not
///    the part inside the period: where the period cuts a window, the last heartbeat before the
///    cut and the first after it (up to `now`) count, so a day's report sees a silence that
///    began the evening before, and two reports that split a period find what one report over
///    it finds. Tracking expected ``TrackingExpectation/always`` never began: there, time before
///    the first heartbeat known is silent.
/// 2. **Usage silence**: between consecutive usage records (their union, over all apps), a pause
///    longer than ``HealthPolicy/usageGapAfter``.
/// 3. **Missed sequence numbers**: the stretch between the sightings around each hole
///    (``/SignalValues/SequenceLoss``).
///
/// Only the heartbeats of the detector's ``source`` count — by default the monitor extension's,
/// whose silence means usage may be lost — so that an app that keeps beating cannot hide a
/// dead extension.
///
/// Every instant of a window then falls in exactly one state, by precedence:
///
/// | covered by | class | accounted as |
/// |---|---|---|
/// | a usage record | — (no gap) | tracked |
/// | heartbeat silence | ``GapClass/trackerDown`` | unknown |
/// | a missed-sequence stretch | ``GapClass/notificationLoss`` | unknown |
/// | usage silence | ``GapClass/idle`` | idle |
/// | nothing | — (no gap) | idle |
///
/// Consecutive instants of one class form one gap, carrying every piece of evidence that
/// overlaps it; so overlapping evidence is merged, and gaps never overlap. Gaps and windows may
/// span midnight; the daily accounting splits them at the ``/UsageModel/DayBoundary``, so that
/// tracked, idle and unknown add up exactly to each window piece of each day, on 23- and 25-hour
/// days alike.
///
/// ```swift
/// let detector = GapDetector(boundary: DayBoundary(timeZone: zone))
/// let report = detector.report(
///   for: today, now: now, heartbeats: try recorder.history().heartbeats, usage: records)
/// for gap in report.gaps(.trackerDown) { print(gap.start, gap.duration) }
/// ```
///
/// With these defaults, a 15-minute pause in use — heartbeats from the first use at 10:00,
/// three minutes of use, fifteen without, three with — reports the fifteen minutes as one
/// ``GapClass/idle`` gap when the heartbeats went on, and as one ``GapClass/trackerDown`` gap
/// that raises a ``TrackerDownAlert`` when they fell silent; 00:00 to 10:00 is neither.
public struct GapDetector: Sendable {
  /// The thresholds: ``HealthPolicy/gapAfter`` and ``HealthPolicy/usageGapAfter``.
  public let policy: HealthPolicy
  /// When tracking was expected; ``TrackingExpectation/sinceFirstHeartbeat`` by default.
  public let expectation: TrackingExpectation
  /// Where local days begin, for the daily accounting.
  public let boundary: DayBoundary
  /// The tracker whose heartbeats count; those of other sources are ignored.
  public let source: HeartbeatSource

  /// Creates a detector.
  ///
  /// - Parameters:
  ///   - boundary: Where local days begin.
  ///   - expectation: When tracking was expected; from the first heartbeat of `source` given to
  ///     a report on (``TrackingExpectation/sinceFirstHeartbeat``) unless you choose otherwise.
  ///   - policy: The thresholds; ``HealthPolicy/standard`` unless you choose otherwise.
  ///   - source: The tracker whose heartbeats count; the monitor extension unless you choose
  ///     otherwise.
  public init(
    boundary: DayBoundary, expectation: TrackingExpectation = .sinceFirstHeartbeat,
    policy: HealthPolicy = .standard, source: HeartbeatSource = .monitorExtension
  ) {
    self.boundary = boundary
    self.expectation = expectation
    self.policy = policy
    self.source = source
  }

  /// Analyses one local day up to `now`.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - now: The instant of the analysis; the day is cut there.
  ///   - heartbeats: The tracker's heartbeats, in any order (other sources' are ignored): at
  ///     least those of the day, the last one before it and the first one after it (a
  ///     recorder's history holds them). With the default expectation the earliest of them is
  ///     where tracking began to be expected; with ``TrackingExpectation/always``, time before
  ///     the first of them counts as silent unless a window begins monitoring there.
  ///   - usage: The usage records, in any order.
  ///   - missedSequences: Lost notification numbers and when.
  /// - Returns: The gaps and the day's accounting.
  /// - Complexity: O(*n* log *n*) in the number of heartbeats, records and pieces of evidence;
  ///   O(*n*) when the heartbeats are already sorted.
  public func report(
    for day: LocalDay, now: Date, heartbeats: [Heartbeat], usage: [UsageRecord],
    missedSequences: [SequenceLoss] = []
  ) -> GapReport {
    report(
      period: boundary.interval(of: day), now: now, heartbeats: heartbeats, usage: usage,
      missedSequences: missedSequences)
  }

  /// Analyses a period up to `now`, with an accounting for each local day it touches.
  ///
  /// - Parameters:
  ///   - period: The period; it is cut at `now`, and is empty (it ends where it starts) when
  ///     `now` comes before it — a clock set back.
  ///   - now: The instant of the analysis.
  ///   - heartbeats: The tracker's heartbeats, in any order (other sources' are ignored),
  ///     including the last one before the period and the first one after it, when there are
  ///     such. With the default expectation the earliest of them is where tracking began to be
  ///     expected.
  ///   - usage: The usage records, in any order.
  ///   - missedSequences: Lost notification numbers and when.
  /// - Returns: The gaps and the accounting.
  /// - Complexity: O(*n* log *n*) in the number of heartbeats, records and pieces of evidence;
  ///   O(*n*) when the heartbeats are already sorted, plus O(*w* log *n*) for *w* windows, and
  ///   O(*d*) for the *d* local days of the period, each of which gets a ``DayAccounting``.
  ///
  /// > Important: A bound of `period` or `now` beyond the supported instants (such as
  /// > `Date.distantPast`, `Date.distantFuture` or an infinite date) counts as the nearest
  /// > supported one, 0001-01-03 or 9999-12-29, and one that is not a number as the earliest.
  /// > The report then holds an accounting for every day of the period: a period from 1970 to
  /// > `Date.distantFuture` (the year 4001) is 742,000 days: 2.5 s and 40 MB in a debug build
  /// > on a 2-core Linux VM. Pass the period you need (a day, a week), as
  /// > ``report(for:now:heartbeats:usage:missedSequences:)`` does.
  public func report(
    period: DateInterval, now: Date, heartbeats: [Heartbeat], usage: [UsageRecord],
    missedSequences: [SequenceLoss] = []
  ) -> GapReport {
    let (start, requestedEnd) = TimeValues.bounds(of: period)
    let nowInstant = TimeValues.clampedInstant(now)
    let end = max(start, min(requestedEnd, nowInstant))
    let source = source
    let instants = heartbeats.compactMap { $0.source == source ? $0.instant : nil }
    let windows = expectation.expectedWindows(
      from: start, to: end, now: nowInstant,
      // A policy's gap threshold may be as long as 292 million years; looking further than
      // the supported instants reach changes nothing, and keeps the arithmetic in range.
      lookAround: min(policy.gapAfterMs, Milliseconds.latest - Milliseconds.earliest) + 1,
      firstHeartbeat: instants.min())
    var sweep = GapSweep(
      start: start, end: end, windows: windows, gapAfter: policy.gapAfterMs,
      usageGapAfter: policy.usageGapAfterMs)
    sweep.addHeartbeats(instants)
    sweep.addUsage(usage)
    sweep.addMissedSequences(missedSequences)
    let (gaps, pieces) = sweep.run(dayStarts: dayStarts(from: start, to: end))
    let ongoing = end == nowInstant
    return GapReport(
      start: start, end: end, evaluatedAt: nowInstant, windows: sweep.windows,
      gaps: gaps.map { gap in
        Gap(
          classification: gap.classification, start: gap.startInstant, end: gap.endInstant,
          evidence: gap.evidence, isOngoing: ongoing && gap.endInstant == end)
      },
      days: pieces)
  }

  /// The local days that share time with `[start, end)` and the instant each starts.
  private func dayStarts(from start: Int64, to end: Int64) -> [(LocalDay, Int64)] {
    // Instants are clamped to the supported range, whose days all exist.
    var day = boundary.day(containingSupported: start)
    var days: [(LocalDay, Int64)] = []
    var dayStart = TimeValues.bounds(of: boundary.interval(of: day)).start
    repeat {
      days.append((day, dayStart))
      guard day < LocalDay.last else { break }
      day = day.advanced(by: 1)
      dayStart = TimeValues.bounds(of: boundary.interval(of: day)).start
    } while dayStart < end
    return days
  }
}

extension LocalDay {
  /// 9999-12-31, the last supported day.
  fileprivate static var last: LocalDay {
    LocalDay(uncheckedDayNumber: LocalDay.supportedDayNumbers.upperBound)
  }
}
