import BudgetMath
import Foundation
import GapDetection
import SignalValues
import TrackerSignals
import UsageModel

extension UsagePipeline {
  /// Derives the dashboard of `day` as of `now`; it only reads, except to heal a damaged file.
  ///
  /// Everything is derived from the facts drained so far that are dated up to `now`, and from
  /// the extension's heartbeats (call ``wake(_:now:)`` first to drain what is new). Local days
  /// start at the configuration's ``PipelineConfiguration/dayStart``; each monitoring
  /// interval's use falls on the days of the zone it began in (the device's zone, recorded with
  /// its facts), so a change of the configured zone re-reads no past day, and the day's own
  /// interval, its gaps and its budgets' periods are read in the configured zone
  /// (``PipelineConfiguration/boundary``):
  /// - usage: the threshold events of every activity, attributed to their monitoring interval,
  ///   counted by their highest threshold (duplicates, late and implausible events add nothing),
  ///   laid out as usage records clamped to the interval, and aggregated by day — so each app's
  ///   time is counted once even when two activities watch it;
  /// - budgets: the configured plan of the day's month, its status and pace from the month's
  ///   usage so far;
  /// - alerts: the budget thresholds (``PipelineConfiguration/alertThresholds``) the day
  ///   reaches, and the windows whose tracker-down time reached the policy's threshold, that
  ///   nobody acknowledged yet — showing them changes nothing; ``acknowledge(_:)`` does;
  /// - health, from the extension's latest heartbeat, and the gap report, with every fact
  ///   counted as a sign of life and the facts the app never received as notification-loss
  ///   evidence;
  /// - the reward balance and the sync payload;
  /// - the app side's files found damaged and rebuilt, in ``FactReport/recoveries``.
  ///
  /// A file of the app's state that is damaged — or a reward ledger behind the app's last
  /// transaction — is quarantined, rebuilt and reported as ``UsagePipeline/wake(_:now:)`` does
  /// (``PipelineRecovery``): the only writes a dashboard makes.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - now: The instant of the dashboard; facts dated after it have not happened yet as far as
  ///     this dashboard is concerned (a past day, or a clock set back), and usage and gaps are
  ///     cut there. It is rounded to the millisecond, and an instant outside
  ///     0001-01-03...9999-12-29 (such as `.distantPast`) counts as the nearest supported one.
  /// - Returns: The dashboard.
  /// - Throws: ``PipelineError``: the store's, the heartbeat history's,
  ///   ``PipelineError/usage(_:)`` with `UsageModelError.instantOutOfRange` when `now` is not a
  ///   number, and ``PipelineError/budget(_:)`` when the month's plan cannot report on the day (a
  ///   day before the plan's start).
  /// - Complexity: O(*n* log *n*) in the facts within the retention and the heartbeats.
  public func dashboard(for day: LocalDay, now: Date) throws(PipelineError) -> Dashboard {
    guard !now.timeIntervalSince1970.isNaN else {
      throw .usage(.instantOutOfRange(field: "now", secondsSince1970: .nan))
    }
    let instant = Milliseconds.clampedInstant(now)
    var recoveries: [PipelineRecovery] = []
    return try healing(now: instant, into: &recoveries) { () throws(PipelineError) in
      try derivedDashboard(for: day, now: instant)
    }
  }

  /// The dashboard of `day` at `instant` (milliseconds), derived from the files as they are.
  private func derivedDashboard(for day: LocalDay, now instant: Int64) throws(PipelineError)
    -> Dashboard
  {
    let now = Milliseconds.date(instant)
    let snapshot = try state()
    // A ledger gone back would show a balance already spent.
    try checkLedgerWentBack(snapshot)
    let boundary = configuration.boundary
    let dayInterval = boundary.interval(of: day)
    let plan = configuration.plan(for: day)
    let firstDay = plan.map { max($0.month.days.lowerBound, min(day, $0.startDay)) } ?? day
    // The month so far, up to `now`: budgets and pace need every day of it, within the bound
    // they restrict by. A past day with a summary is read from it; the others, and the day
    // itself, from their facts. The other bound is shown for the day only.
    let restriction = configuration.restrictionBound
    let summaries = try summaryUsage(of: firstDay..<day, bound: restriction, now: instant)
    let derivedFrom = (firstDay..<day).first { summaries[$0] == nil } ?? day
    let window = try window(for: derivedFrom...day, now: instant)
    let facts = window.facts
    let derived = derive(window)
    let history = try heartbeatHistory(
      since: Milliseconds.clampedInstant(dayInterval.start))
    // Each interval's use is read in the days of the zone it began in, so travel moves no past
    // use between days.
    let upperReport = try Self.month(
      try report(derived, bound: .upper, days: derivedFrom...day, now: now),
      restriction == .upper ? summaries : [:])
    let lowerReport = try Self.month(
      try report(derived, bound: .lower, days: derivedFrom...day, now: now),
      restriction == .lower ? summaries : [:])
    let upper = try Self.usage(on: day, in: upperReport, interval: dayInterval)
    let lower = try Self.usage(on: day, in: lowerReport, interval: dayInterval)
    let budgets = try overviews(
      plan, day: day, report: configuration.restrictionBound == .upper ? upperReport : lowerReport,
      now: now)
    let records = derived.records(bound: .upper, asOf: now)
    let gaps = detector().report(
      for: day, now: now, heartbeats: derived.signsOfLife + history, usage: records,
      missedSequences: snapshot.losses)
    let dayRange = Self.range(dayInterval, upTo: now)
    return Dashboard(
      day: day, evaluatedAt: now, usage: upper, confirmedUsage: lower,
      unconfirmed: derived.accountant.intervals.filter {
        dayRange.overlaps(Self.range(of: $0))
      }.flatMap { $0.gradings(asOf: now) }.filter { $0.reason != nil },
      budgets: budgets,
      alerts: try pendingAlerts(budgets, gaps: gaps, state: snapshot),
      rewards: try ledgerJournal.fold().ledger.balance,
      health: configuration.health.health(
        of: Self.latestSignOfLife(history.last, facts.last), at: now),
      gaps: gaps,
      payload: UsageSyncPayload(userId: configuration.userId, usage: upper) {
        configuration.name(of: $0)
      },
      facts: FactReport(
        dayFacts: facts.count { dayRange.contains($0.instant) }, losses: snapshot.losses,
        undecodable: snapshot.undecodable, recoveries: snapshot.recoveries,
        thresholds: derived.counts(in: dayRange),
        rejected: derived.rejected.filter { dayRange.contains($0.fact.instant) },
        implausible: derived.accountant.implausibleEvents.filter {
          dayRange.contains(Milliseconds.clampedInstant($0.event.receivedAt))
        }))
  }

  /// The usage records derived from the facts drained so far: each monitoring interval's use,
  /// laid out as late as its threshold events allow, one app at a time, and clamped to the
  /// interval's start (UsageModel's `MonitoringIntervalUsage.usageRecords(bound:)`).
  ///
  /// - Parameter bound: Which bound of the evidence; the upper bound unless you choose
  ///   otherwise. The lower bound is graded with every drained fact as final.
  /// - Returns: The records, in order of interval, then latest first.
  /// - Throws: ``PipelineError/sequence(_:)`` when the state cannot be read.
  /// - Complexity: O(*n* log *n*) in the facts within the retention.
  public func usageRecords(bound: UsageBound = .upper) throws(PipelineError) -> [UsageRecord] {
    FactDerivation.derive(
      try facts(), configuration: configuration, accountant: emptyAccountant
    ).accountant(for: bound).usageRecords(bound: bound)
  }

  /// Every fact drained and kept, sorted by instant, callback, activity, event and zone, each
  /// once: the facts everything is derived from.
  ///
  /// For tools and tests: it reads every day's log. Dashboards read only the days they show.
  ///
  /// - Returns: The facts.
  /// - Throws: ``PipelineError/store(_:)`` when a log cannot be read.
  /// - Complexity: O(*n* log *n*) in the facts within the retention.
  public func facts() throws(PipelineError) -> [MonitorFact] {
    try journal.allFacts()
  }

  /// The diagnostics report of `day`: health, gaps, usage blocks, the extension's recent
  /// failures — as text, JSON or an SVG timeline.
  ///
  /// It shows what ``dashboard(for:now:)`` derives, and records nothing.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - now: The instant of the report; facts dated after it are left out.
  ///   - title: The report's title.
  /// - Returns: The report.
  /// - Throws: ``PipelineError`` when the state, the heartbeats or the log cannot be read.
  public func diagnosticsReport(
    for day: LocalDay, now: Date, title: String = "Tracking Diagnostics"
  ) throws(PipelineError) -> DiagnosticsReport {
    let snapshot = try state()
    let derived = derive(try window(for: day...day, now: Milliseconds.clampedInstant(now)))
    let history = try heartbeatHistory(
      since: Milliseconds.clampedInstant(configuration.boundary.interval(of: day).start))
    let entries: [DiagnosticEntry]
    do throws(TrackerSignalsError) {
      entries = try folder.diagnostics.entries()
    } catch {
      throw .signals(error)
    }
    return DiagnosticsReport(
      title: title, day: day, now: now, detector: detector(),
      heartbeats: derived.signsOfLife + history, usage: derived.accountant.usageRecords(),
      rules: configuration.rules, missedSequences: snapshot.losses, diagnostics: entries)
  }

  // MARK: - Parts

  /// The monitor extension's heartbeats from the last one before `start` (milliseconds since
  /// 1970) on, reading only those recorded since the last call when it read back that far.
  ///
  /// A dashboard needs the heartbeats of its day: a launch reads them from the end of the
  /// history, not the whole day-long history, and later calls extend what it read.
  private func heartbeatHistory(since start: Int64) throws(PipelineError) -> [Heartbeat] {
    do throws(TrackerSignalsError) {
      let recorder = folder.heartbeats(of: .monitorExtension)
      let history: HeartbeatHistory
      if let cached = journal.cache.heartbeats,
        cached.heartbeats.first.map({ $0.instant < start }) ?? false
          || cached.holdsAllKept
      {
        history = try recorder.history(updating: cached)
      } else {
        history = try recorder.history(since: start)
      }
      journal.cache.heartbeats = history
      return history.heartbeats
    } catch {
      throw .signals(error)
    }
  }

  /// The aggregation of the usage within `bound` on `days` up to `now`, each interval's in the
  /// days of its own zone (with the configuration's day start), merged day by day.
  func report(
    _ derived: DerivedUsage, bound: UsageBound, days: ClosedRange<LocalDay>, now: Date
  ) throws(PipelineError) -> UsageReport {
    do throws(UsageModelError) {
      var reports: [UsageReport] = []
      for group in derived.recordsByZone(
        bound: bound, asOf: now, default: configuration.timeZone)
      {
        let boundary = DayBoundary(timeZone: group.zone, dayStart: configuration.dayStart)
        let first = boundary.start(of: days.lowerBound)
        let last = min(now, boundary.interval(of: days.upperBound).end)
        reports.append(
          try UsageAggregator(boundary: boundary, rules: configuration.rules).aggregate(
            group.records, clippedTo: DateInterval(start: first, end: max(first, last))))
      }
      return try UsageReport.merging(reports, boundary: configuration.boundary)
    } catch {
      throw .usage(error)
    }
  }

  /// The usage of `day` in `report`; no usage when the report has none.
  static func usage(on day: LocalDay, in report: UsageReport, interval: DateInterval)
    throws(PipelineError) -> DailyUsage
  {
    if let found = report[day] { return found }
    return try noUsage(on: day, interval: interval)
  }

  /// The instants of a monitoring interval, from its start through its last report.
  private static func range(of interval: MonitoringIntervalUsage) -> Range<Int64> {
    let start = Milliseconds.clampedInstant(interval.start)
    let last = interval.apps.map { Milliseconds.clampedInstant($0.reachedAt) }.max() ?? start
    return start..<max(start, last) + 1
  }

  /// The instants of `interval` up to `now`, in milliseconds.
  private static func range(_ interval: DateInterval, upTo now: Date) -> Range<Int64> {
    let start = Milliseconds.clampedInstant(interval.start)
    let end = min(Milliseconds.clampedInstant(interval.end), Milliseconds.clampedInstant(now) + 1)
    return start..<max(start, end)
  }

  /// The gap detector of the configuration.
  func detector() -> GapDetector {
    GapDetector(
      boundary: configuration.boundary, expectation: configuration.expectation,
      policy: configuration.health, source: .monitorExtension)
  }

  /// Each budget of `plan` on `day`, with its pace over the month.
  private func overviews(_ plan: MonthlyPlan?, day: LocalDay, report: UsageReport, now: Date)
    throws(PipelineError) -> [BudgetOverview]
  {
    guard let plan else { return [] }
    do throws(BudgetMathError) {
      return try plan.reports(on: day, usage: report).map { budget throws(BudgetMathError) in
        BudgetOverview(
          report: budget,
          pace: try plan.pace(of: budget, boundary: configuration.boundary, now: now))
      }
    } catch {
      throw .budget(error)
    }
  }

  /// The latest sign of life: the last heartbeat recorded, unless a later fact shows the
  /// extension ran after it (a kill between its fact and its heartbeat).
  static func latestSignOfLife(_ heartbeat: Heartbeat?, _ fact: MonitorFact?) -> Heartbeat? {
    guard let fact, fact.instant > heartbeat?.instant ?? .min else { return heartbeat }
    return Heartbeat(
      instant: fact.instant, source: .monitorExtension, sequence: nil, memoryBytes: nil)
  }

  /// An empty day's usage.
  static func noUsage(on day: LocalDay, interval: DateInterval) throws(PipelineError)
    -> DailyUsage
  {
    do throws(UsageModelError) {
      return try DailyUsage(day: day, interval: interval, total: .zero, categories: [], apps: [])
    } catch {
      throw .usage(error)
    }
  }
}
