import Foundation
import SignalValues
import TrackerSignals
import UsageModel

/// The facts a derivation of some local days reads: every fact of the monitoring intervals that
/// overlap those days, and the `intervalDidStart` facts that attribute events to intervals.
///
/// A day's usage depends only on the intervals that overlap it, and an interval's only on its
/// own facts and on the starts before them (`IntervalAttribution`). So a derivation of the
/// window's facts gives those days what a derivation of every fact gives them: the window
/// starts at the earliest start of an interval in progress when the first day begins (in any
/// zone an interval may be read in), and ends a day and ``IntervalAttribution/lateDeliveryWindow``
/// after the last day, or at `now`: a daily schedule's occurrence lasts at most a day, and its
/// events are accepted until the late delivery window after it closes.
struct FactWindow {
  /// The first instant of the window, in milliseconds.
  var from: Int64
  /// The last instant of the window, in milliseconds: at most the derivation's `now`.
  var through: Int64
  /// The facts dated within the window, and every `intervalDidStart` up to its end; sorted,
  /// each once.
  var facts: [MonitorFact]

  /// How far after the last day's end the window reaches.
  static let trailingReach: Int64 =
    86_400_000 + Int64(IntervalAttribution.lateDeliveryWindow.components.seconds) * 1_000
}

extension UsagePipeline {
  /// The window of facts that `days`' usage needs, read as of `now` (milliseconds).
  ///
  /// - Complexity: O(*n* log *n*) in the facts of the UTC days the window spans, and the starts;
  ///   a day's log read before and unchanged since is not read again.
  func window(for days: ClosedRange<LocalDay>, now: Int64) throws(PipelineError) -> FactWindow {
    let starts = try journal.starts()
    var attribution = IntervalAttribution(
      plan: configuration.monitoring, timeZone: configuration.timeZone,
      registrations: configuration.registrations)
    var zones: [String: TimeZone] = [configuration.timeZone.identifier: configuration.timeZone]
    for fact in starts {
      attribution.recordStart(of: fact.activity, at: fact.instant, timeZone: fact.timeZone)
      if let zone = fact.timeZone { zones[zone.identifier] = zone }
    }
    var first = Int64.max
    var last = Int64.min
    for zone in zones.values {
      let boundary = DayBoundary(timeZone: zone, dayStart: configuration.dayStart)
      first = min(first, Milliseconds.clampedInstant(boundary.start(of: days.lowerBound)))
      last = max(last, Milliseconds.clampedInstant(boundary.interval(of: days.upperBound).end))
    }
    var from = first
    let activities =
      Set(starts.map(\.activity)).union(configuration.monitoring?.activities.map(\.name) ?? [])
    for activity in activities {
      if let start = attribution.intervalStart(of: activity, containing: first) {
        from = min(from, start)
      }
    }
    let (reach, overflow) = last.addingReportingOverflow(FactWindow.trailingReach)
    let through = min(now, overflow ? Milliseconds.latest : reach)
    guard from <= through else { return FactWindow(from: from, through: through, facts: []) }
    let read = try journal.facts(
      from: FactJournal.utcDay(of: from), through: FactJournal.utcDay(of: through)
    ).facts
    let within = read.filter { $0.instant >= from && $0.instant <= through }
    let earlierStarts = starts.filter { $0.instant < from }
    return FactWindow(
      from: from, through: through, facts: PipelineState.sortedSet(earlierStarts + within))
  }

  /// What the facts of `window` say.
  func derive(_ window: FactWindow) -> DerivedUsage {
    FactDerivation.derive(window.facts, configuration: configuration, accountant: emptyAccountant)
  }
}
