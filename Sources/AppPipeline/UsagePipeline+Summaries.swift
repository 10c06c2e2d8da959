import Foundation
import SignalValues
import UsageModel

extension UsagePipeline {
  /// How far before a day a fact may still change it: an interval in progress when the day
  /// begins started at most the longest interval before, and its events are attributed by the
  /// starts of the longest interval before them.
  static let summaryLookback = 2 * IntervalAttribution.longestIntervalMilliseconds

  /// The valid summary records of `days` as of `now` (milliseconds), headers only: made under
  /// this configuration, or of a day whose facts are past the retention.
  func summaryRecords(of days: Range<LocalDay>, now: Int64) throws(PipelineError)
    -> [LocalDay: FactJournal.SummaryRecord]
  {
    guard !days.isEmpty else { return [:] }
    let all = try journal.summaries()
    let expiry = now - Int64(min(configuration.retentionDays, 100_000)) * 86_400_000
    var valid: [LocalDay: FactJournal.SummaryRecord] = [:]
    for day in days {
      guard let record = all[day] else { continue }
      let expired =
        Milliseconds.clampedInstant(configuration.boundary.interval(of: day).end) < expiry
      let current = configurationDigest.map { record.header.configuration == $0 } ?? false
      if current || expired { valid[day] = record }
    }
    return valid
  }

  /// The usage within `bound` of the valid summaries of `days` as of `now` (milliseconds):
  /// what a dashboard reads its month's past days from.
  func summaryUsage(of days: Range<LocalDay>, bound: UsageBound, now: Int64)
    throws(PipelineError) -> [LocalDay: DaySummary.BoundUsage]
  {
    journal.usage(of: try summaryRecords(of: days, now: now), bound: bound)
  }

  /// `derived`'s report, its past days replaced by their summaries' `usage`.
  static func month(_ derived: UsageReport, _ usage: [LocalDay: DaySummary.BoundUsage])
    throws(PipelineError) -> UsageReport
  {
    guard !usage.isEmpty else { return derived }
    var days: [LocalDay: DailyUsage] = [:]
    for daily in derived.days { days[daily.day] = daily }
    var uncategorized = Set(derived.uncategorizedApps)
    for (day, summary) in usage {
      days[day] = summary.usage
      uncategorized.formUnion(summary.uncategorized)
    }
    do throws(UsageModelError) {
      return try UsageReport(
        boundary: derived.boundary, days: Array(days.values),
        uncategorizedApps: Array(uncategorized))
    } catch {
      throw .usage(error)
    }
  }

  /// Summarises the closed days of the retention that have no valid summary, up to the day
  /// before the one containing `now` (milliseconds).
  ///
  /// A day is closed when `now` is past the last instant a derivation of it reads
  /// (``FactWindow/through``): no fact the extension records from then on can change it. Each
  /// is derived from its facts, once: a first wake summarises every closed day of the retention,
  /// the empty ones too, so that no dashboard reads them again.
  func summarize(now: Int64) throws(PipelineError) {
    // A configuration without a digest matches no summary: there is nothing to write.
    guard let digest = configurationDigest else { return }
    let boundary = configuration.boundary
    let today = boundary.day(containingSupported: now)
    let first = LocalDay(
      uncheckedDayNumber: max(
        LocalDay.supportedDayNumbers.lowerBound,
        today.dayNumber - min(configuration.retentionDays, 400) + 1))
    guard first < today else { return }
    let valid = try summaryRecords(of: first..<today, now: now)
    var closed: [LocalDay] = []
    for day in first..<today where valid[day] == nil {
      if try windowBounds(for: day...day, now: .max).through < now { closed.append(day) }
    }
    var written: [DaySummary] = []
    var windows: [FactWindow] = []
    for day in closed {
      let window = try window(for: day...day, now: now)
      windows.append(window)
      let derived = derive(window)
      let through = Milliseconds.date(window.through)
      let interval = boundary.interval(of: day)
      let upper = try report(derived, bound: .upper, days: day...day, now: through)
      let lower = try report(derived, bound: .lower, days: day...day, now: through)
      written.append(
        DaySummary(
          day: day, configuration: digest, through: window.through,
          upper: try Self.usage(on: day, in: upper, interval: interval),
          lower: try Self.usage(on: day, in: lower, interval: interval),
          uncategorized: upper.uncategorizedApps))
    }
    try journal.append(written)
    // Another app process may have drained a late fact of one of these days between the read of
    // its window and this append, and found no summary to mark stale then (`markStale`): read
    // each window again, and mark stale a day with a fact there now that `markStale` would have
    // marked it for, for the next wake to summarise again. A fact drained after this read finds
    // the summary, and marks it.
    var changed: [DaySummary] = []
    for (day, window) in zip(closed, windows) {
      let reach = summaryReach(of: day, through: window.through)
      let again = try self.window(for: day...day, now: now)
      if again.facts.filter({ reach.contains($0.instant) })
        != window.facts.filter({ reach.contains($0.instant) })
      {
        changed.append(DaySummary(staleDay: day))
      }
    }
    try journal.append(changed)
  }

  /// The instants (milliseconds) of the facts that make a summary of `day` derived through
  /// `through` stale: from the longest lookback of an interval before the day's start on.
  func summaryReach(of day: LocalDay, through: Int64) -> ClosedRange<Int64> {
    let start =
      Milliseconds.clampedInstant(configuration.boundary.start(of: day)) - Self.summaryLookback
    return min(start, through)...through
  }

  /// Marks stale the summaries that a derivation of their day would read one of `facts` in.
  ///
  /// Called after the facts are in the journal and before the cursor commits past them, so a
  /// kill in between marks them again at the next drain.
  func markStale(_ facts: [MonitorFact]) throws(PipelineError) {
    guard !facts.isEmpty else { return }
    let summaries = try journal.summaries()
    guard !summaries.isEmpty else { return }
    var stale: [DaySummary] = []
    for day in summaries.keys.sorted() {
      guard let through = summaries[day]?.header.through else { continue }
      let reach = summaryReach(of: day, through: through)
      if facts.contains(where: { reach.contains($0.instant) }) {
        stale.append(DaySummary(staleDay: day))
      }
    }
    try journal.append(stale)
  }
}
