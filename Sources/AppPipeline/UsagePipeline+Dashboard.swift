import BudgetMath
import Foundation
import GapDetection
import SignalValues
import TrackerSignals
import UsageModel

extension UsagePipeline {
  /// Derives the dashboard of `day` up to `now`, and records the alerts it returns as raised.
  ///
  /// Everything is derived from the drained facts and the extension's heartbeats (call
  /// ``wake(_:now:)`` first to drain what is new):
  /// - usage: the threshold events of every activity, attributed to their monitoring interval,
  ///   counted by their highest threshold (duplicates, late and implausible events add nothing),
  ///   laid out as usage records clamped to the interval, and aggregated by `boundary` — so each
  ///   app's time is counted once even when two activities watch it;
  /// - budgets: the configured plan of the day's month, its status and pace from the month's
  ///   usage so far;
  /// - alerts: the budget thresholds the day reaches for the first time, and the windows whose
  ///   tracker-down time reached the policy's threshold for the first time — each returned once,
  ///   by the dashboard that records it (raising it is then up to you);
  /// - health, from the extension's latest heartbeat, and the gap report, with every fact
  ///   counted as a sign of life and the facts the app never received as notification-loss
  ///   evidence;
  /// - the reward balance and the sync payload.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - boundary: Where local days begin.
  ///   - now: The instant of the dashboard; usage and gaps are cut there. It is rounded to the
  ///     millisecond, and an instant outside 0001-01-03...9999-12-29 (such as `.distantPast`)
  ///     counts as the nearest supported one. A `now` earlier than facts already drained (a
  ///     clock set back) shows the day as of `now`: later facts count as not yet happened, and
  ///     the extension's latest heartbeat as clock skew.
  /// - Returns: The dashboard.
  /// - Throws: ``PipelineError``: the store's, the heartbeat history's,
  ///   ``PipelineError/usage(_:)`` with `UsageModelError.instantOutOfRange` when `now` is not a
  ///   number, and ``PipelineError/budget(_:)`` when the month's plan cannot report on the day (a
  ///   day before the plan's start). Nothing is recorded as raised when it throws.
  /// - Complexity: O(*n* log *n*) in the facts within the retention and the heartbeats.
  public func dashboard(for day: LocalDay, boundary: DayBoundary, now: Date)
    throws(PipelineError) -> Dashboard
  {
    guard !now.timeIntervalSince1970.isNaN else {
      throw .usage(.instantOutOfRange(field: "now", secondsSince1970: .nan))
    }
    let now = Milliseconds.date(Milliseconds.clampedInstant(now))
    let snapshot = try state()
    let derived = FactDerivation.derive(
      snapshot.facts, configuration: configuration, accountant: emptyAccountant)
    let history: [Heartbeat]
    do {
      history = try heartbeats.history().heartbeats
    } catch {
      throw .signals(error)
    }
    let dayInterval = boundary.interval(of: day)
    let plan = configuration.plan(for: day)
    let firstDay = plan.map { max($0.month.days.lowerBound, min(day, $0.startDay)) } ?? day
    // Usage is cut at `now`: facts dated after it (a clock set back since they were recorded)
    // have not happened yet as far as this dashboard is concerned.
    let firstStart = boundary.start(of: firstDay)
    let report: UsageReport
    do {
      report = try UsageAggregator(boundary: boundary, rules: configuration.rules).aggregate(
        derived.records,
        clippedTo: DateInterval(start: firstStart, end: max(firstStart, min(now, dayInterval.end))))
    } catch {
      throw .usage(error)
    }
    let usage: DailyUsage
    if let found = report[day] {
      usage = found
    } else {
      usage = try Self.noUsage(on: day, interval: dayInterval)
    }
    let budgets = try overviews(plan, day: day, report: report, boundary: boundary, now: now)

    let gaps = detector(boundary).report(
      for: day, now: now, heartbeats: derived.signsOfLife + history, usage: derived.records,
      missedSequences: snapshot.losses)
    let trackerDown = TrackerDownAlert.evaluate(gaps, policy: configuration.health)

    let raised = try updateState { state throws(PipelineError) in
      try state.credit(derived.highest, configuration: configuration)
      let alerts = budgets.flatMap { state.alerts.evaluate($0.report, period: .month, scope: .day) }
      let fresh = trackerDown.filter { alert in
        let start = Milliseconds.clampedInstant(alert.window.start)
        guard !state.reportedTrackerDownInstants.contains(start) else { return false }
        state.reportedTrackerDownInstants.append(start)
        return true
      }
      state.reportedTrackerDownInstants.sort()
      return (alerts, fresh, state.ledger.balance)
    }
    return Dashboard(
      day: day, evaluatedAt: now, usage: usage, budgets: budgets, alerts: raised.0,
      trackerDownAlerts: raised.1, rewards: raised.2,
      health: configuration.health.health(
        of: Self.latestSignOfLife(history.last, snapshot.facts.last), at: now),
      gaps: gaps,
      payload: UsageSyncPayload(userId: configuration.userId, usage: usage) {
        configuration.name(of: $0)
      },
      facts: FactReport(
        facts: snapshot.facts.count, losses: snapshot.losses, skipped: snapshot.skipped,
        thresholds: derived.counts,
        rejected: derived.rejected, implausible: derived.accountant.implausibleEvents))
  }

  /// The usage records derived from the facts drained so far: each app's usage in each
  /// monitoring interval, laid out as late as its threshold events allow and clamped to the
  /// interval's start.
  ///
  /// - Returns: The records, in order of interval, then app, then time.
  /// - Throws: ``PipelineError/sequence(_:)`` when the state cannot be read.
  /// - Complexity: O(*n* log *n*) in the facts within the retention.
  public func usageRecords() throws(PipelineError) -> [UsageRecord] {
    FactDerivation.derive(
      try state().facts, configuration: configuration, accountant: emptyAccountant
    ).records
  }

  /// The diagnostics report of `day` (seed 000's export): health, gaps, usage blocks, the
  /// extension's recent failures — as text, JSON or an SVG timeline.
  ///
  /// It shows what ``dashboard(for:boundary:now:)`` derives, and records nothing.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - boundary: Where local days begin.
  ///   - now: The instant of the report.
  ///   - title: The report's title.
  /// - Returns: The report.
  /// - Throws: ``PipelineError`` when the state, the heartbeats or the log cannot be read.
  public func diagnosticsReport(
    for day: LocalDay, boundary: DayBoundary, now: Date, title: String = "Tracking Diagnostics"
  ) throws(PipelineError) -> DiagnosticsReport {
    let snapshot = try state()
    let derived = FactDerivation.derive(
      snapshot.facts, configuration: configuration, accountant: emptyAccountant)
    let history: [Heartbeat]
    let entries: [DiagnosticEntry]
    do {
      history = try heartbeats.history().heartbeats
      entries = try diagnostics?.entries() ?? []
    } catch {
      throw .signals(error)
    }
    return DiagnosticsReport(
      title: title, day: day, now: now, detector: detector(boundary),
      heartbeats: derived.signsOfLife + history, usage: derived.records,
      rules: configuration.rules, missedSequences: snapshot.losses, diagnostics: entries)
  }

  /// The gap detector of the configuration.
  func detector(_ boundary: DayBoundary) -> GapDetector {
    GapDetector(
      boundary: boundary, expectation: configuration.expectation, policy: configuration.health,
      source: .monitorExtension)
  }

  /// Each budget of `plan` on `day`, with its pace over the month.
  private func overviews(
    _ plan: MonthlyPlan?, day: LocalDay, report: UsageReport, boundary: DayBoundary, now: Date
  ) throws(PipelineError) -> [BudgetOverview] {
    guard let plan else { return [] }
    do {
      return try plan.reports(on: day, usage: report).map { budget throws(BudgetMathError) in
        BudgetOverview(
          report: budget, pace: try plan.pace(of: budget, boundary: boundary, now: now))
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
    do {
      return try DailyUsage(day: day, interval: interval, total: .zero, categories: [], apps: [])
    } catch {
      throw .usage(error)
    }
  }
}
