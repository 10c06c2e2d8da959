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
/// zone an interval may be read in), and ends at the last instant an event can still be
/// attributed to an interval that began before the last day ended
/// (`IntervalAttribution.lastAttributable(of:before:)`: an interval's end, an hour after a
/// scheduled occurrence for its late deliveries, or the next occurrence's end while its
/// deliveries may be held), or at `now`.
struct FactWindow {
  /// The first instant of the window, in milliseconds.
  var from: Int64
  /// The last instant of the window, in milliseconds: at most the derivation's `now`.
  var through: Int64
  /// The facts dated within the window, and every `intervalDidStart` up to its end; sorted,
  /// each once.
  var facts: [MonitorFact]
}

extension UsagePipeline {
  /// The window of facts that `days`' usage needs, read as of `now` (milliseconds).
  ///
  /// - Complexity: O(*n* log *n*) in the facts of the UTC days the window spans, and the starts;
  ///   a day's log read before and unchanged since is not read again.
  func window(for days: ClosedRange<LocalDay>, now: Int64) throws(PipelineError) -> FactWindow {
    let bounds = try windowBounds(for: days, now: now)
    let (from, through, starts) = (bounds.from, bounds.through, bounds.starts)
    guard from <= through else { return FactWindow(from: from, through: through, facts: []) }
    let read = try journal.facts(
      from: FactJournal.utcDay(of: from), through: FactJournal.utcDay(of: through)
    ).facts
    let within = read.filter { $0.instant >= from && $0.instant <= through }
    let earlierStarts = starts.filter { $0.instant < from }
    return FactWindow(
      from: from, through: through, facts: PipelineState.sortedSet(earlierStarts + within))
  }

  /// The first and last instants of the window of `days` as of `now` (milliseconds), and the
  /// starts they were found with; reads only the starts.
  func windowBounds(for days: ClosedRange<LocalDay>, now: Int64) throws(PipelineError)
    -> (from: Int64, through: Int64, starts: [MonitorFact])
  {
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
    var end = last
    let activities = Set(attribution.activitiesStarted).union(
      configuration.monitoring?.activities.map(\.name) ?? [])
    for activity in activities {
      if let start = attribution.intervalStart(of: activity, containing: first) {
        from = min(from, start)
      }
      if let reach = attribution.lastAttributable(of: activity, before: last) {
        end = max(end, reach)
      }
    }
    return (from, min(now, end), starts)
  }

  /// What the facts of `window` say.
  ///
  /// The last derivation is kept: when the window starts where it started and its facts are
  /// those facts and later ones (a drain appended what came since, the usual case), only the
  /// later ones are added (`FactDerivation.extend(_:with:configuration:)`).
  ///
  /// - Complexity: O(*k*) in the facts added since the last derivation of the same window;
  ///   O(*n* log *n*) in the window's facts otherwise.
  func derive(_ window: FactWindow) -> DerivedUsage {
    let facts = window.facts
    if let cached = journal.cache.derived, cached.from == window.from, cached.count > 0,
      cached.count <= facts.count, facts.first == cached.first,
      facts[cached.count - 1] == cached.last,
      let extended = FactDerivation.extend(
        cached.derived, with: facts[cached.count...], configuration: configuration)
    {
      journal.cache.derived = JournalCache.Derivation(window, extended)
      return extended
    }
    let derived = FactDerivation.derive(
      facts, configuration: configuration, accountant: emptyAccountant)
    journal.cache.derived = JournalCache.Derivation(window, derived)
    return derived
  }
}
