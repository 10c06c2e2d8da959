import Foundation

extension MonitoringIntervalUsage {
  /// The interval's usage laid out on the timeline: every app's thresholds as usage records, as
  /// late as their reports allow, with no two apps at the same time.
  ///
  /// The rules:
  /// - **A report bounds the use before it.** A threshold reported at instant *r* was reached by
  ///   *r*, and so was every lower threshold of the same app, so the use between two consecutive
  ///   thresholds — a *step* — ends no later than the earliest report of the higher one or of
  ///   any threshold above it: the step's deadline.
  /// - **One foreground app.** On one device, apps are not used at the same time. The steps of
  ///   all apps are placed together, latest deadline first, each ending at its deadline or at
  ///   the start of the step placed after it, whichever is earlier, so that no two steps overlap
  ///   and an app's steps stay in the order of its thresholds. Ties go to the higher threshold,
  ///   then to the app that sorts last.
  /// - **Nothing before the interval.** No step starts before the interval: use the platform
  ///   counted from before it, with past activity included, is not placed on the timeline,
  ///   where the interval before may already hold it; and where the steps claim more use than
  ///   the time between the interval's start and their deadlines, what does not fit is not
  ///   placed.
  ///
  /// A duplicate or late report changes no deadline but an earlier one, so recording the same
  /// events in any order gives the same records.
  ///
  /// **Bounds.** The upper bound places every threshold plausibly reported; the lower bound only
  /// the thresholds the evidence confirms (``ThresholdGrading``), with deadlines from their own
  /// reports.
  ///
  /// **No app is crowded out of the upper bound.** Where several apps' steps claim more than the
  /// time before their deadlines, one of the claims is false — phantoms claiming hours at the
  /// first pickup of the day — and the evidence cannot say which. So the upper bound keeps each
  /// app's claim as far as the app's own steps, placed alone, fit after the interval's start:
  /// what other apps' steps crowd out is placed, latest first, in the time no record holds
  /// between the interval's start and its last report of any threshold, a duplicate included
  /// (``lastReportAt``), apps in ascending order. The lower bound
  /// places only confirmed steps and keeps the rule above.
  ///
  /// ```swift
  /// var accountant = ThresholdAccountant(timeZone: zone)
  /// for event in events { _ = accountant.record(event) }
  /// let report = try UsageAggregator(boundary: boundary).aggregate(accountant.usageRecords())
  /// ```
  ///
  /// - Parameters:
  ///   - bound: Which bound of the evidence to place; the upper bound unless you choose
  ///     otherwise.
  ///   - now: For the lower bound, the instant of the grading (``ThresholdGrading``); `nil`
  ///     grades the evidence as final.
  /// - Returns: The records, with source ``UsageSource/thresholdEvent`` and no category, latest
  ///   first; empty steps omitted.
  /// - Complexity: O(*s* log *s*) for *s* steps in the interval.
  public func usageRecords(bound: UsageBound = .upper, asOf now: Date? = nil) -> [UsageRecord] {
    let asOf = now.map(Milliseconds.clampedInstant) ?? .max
    let steps = steps(of: apps, bound: bound, asOf: asOf)
    var placed = place(steps)
    guard bound == .upper else { return placed }
    placed += placeCrowdedOut(steps, placed: placed)
    return placed.sorted { ($0.startInstant, $0.app) > ($1.startInstant, $1.app) }
  }

  /// Places `steps` latest deadline first, each ending at its deadline or at the start of the
  /// step placed after it, never before the interval.
  private func place(_ steps: [Step]) -> [UsageRecord] {
    var placed: [UsageRecord] = []
    var cursor = Int64.max
    for step in steps.sorted(by: Self.placesFirst) {
      let end = max(startInstant, min(step.deadline, cursor))
      let start = max(startInstant, end - step.amount)
      if end > start {
        placed.append(
          UsageRecord(
            app: step.app, category: nil, startInstant: start, endInstant: end,
            source: .thresholdEvent))
      }
      cursor = start
    }
    return placed
  }

  /// The upper bound's records of the use other apps' claims crowded out of the time before
  /// its deadlines, in the interval's free time up to its last report of any threshold
  /// (``lastReportAt``).
  ///
  /// An app's claim is cut only as far as its own steps, placed alone, are: past activity, or
  /// more than the time since the interval began. What other apps' steps crowd out is placed,
  /// latest first, in the time no record holds between the interval's start and its last
  /// report, apps in ascending order; what finds no room there is not placed.
  private func placeCrowdedOut(_ steps: [Step], placed: [UsageRecord]) -> [UsageRecord] {
    var placedByApp: [AppID: Int64] = [:]
    for record in placed {
      placedByApp[record.app, default: 0] += record.endInstant - record.startInstant
    }
    var crowded: [(app: AppID, amount: Int64)] = []
    for usage in apps {
      let alone = place(steps.filter { $0.app == usage.app }).reduce(0) {
        $0 + $1.endInstant - $1.startInstant
      }
      let amount = alone - placedByApp[usage.app, default: 0]
      if amount > 0 { crowded.append((usage.app, amount)) }
    }
    guard !crowded.isEmpty, let horizon = lastReport else { return [] }
    // The free time, latest first: the gaps between the placed records, up to the horizon.
    var free: [(start: Int64, end: Int64)] = []
    var cursor = horizon
    for record in placed.sorted(by: { $0.startInstant > $1.startInstant }) {
      if record.endInstant < cursor { free.append((max(record.endInstant, startInstant), cursor)) }
      cursor = min(cursor, record.startInstant)
    }
    if cursor > startInstant { free.append((startInstant, cursor)) }
    var records: [UsageRecord] = []
    var gap = 0
    for (app, amount) in crowded {
      var left = amount
      while left > 0, gap < free.count {
        let end = free[gap].end
        let start = max(free[gap].start, end - left)
        if end > start {
          records.append(
            UsageRecord(
              app: app, category: nil, startInstant: start, endInstant: end,
              source: .thresholdEvent))
        }
        left -= end - start
        free[gap].end = start
        if free[gap].end <= free[gap].start { gap += 1 }
      }
    }
    return records
  }

  /// The use between one threshold of an app and the next lower one, and its deadline.
  private struct Step {
    var app: AppID
    var threshold: Int64
    var amount: Int64
    var deadline: Int64
  }

  /// Every app's steps within `bound`, each with the earliest report of its threshold or of any
  /// higher one within the bound.
  private func steps(of apps: [AppThreshold], bound: UsageBound, asOf now: Int64) -> [Step] {
    let reports = bound == .lower ? reportInstants : []
    return apps.flatMap { usage in
      var kept = usage.steps
      if bound == .lower {
        let confirmed = ThresholdGrading.confirmedAmount(
          of: usage.steps, asOf: now, interval: reports, start: startInstant)
        kept.removeAll { $0.thresholdAmount > confirmed }
      }
      var deadline = Int64.max
      var steps: [Step] = []
      for index in kept.indices.reversed() {
        deadline = min(deadline, kept[index].instant)
        let lower = index == kept.startIndex ? 0 : kept[index - 1].thresholdAmount
        steps.append(
          Step(
            app: usage.app, threshold: kept[index].thresholdAmount,
            amount: kept[index].thresholdAmount - lower, deadline: deadline))
      }
      return steps
    }
  }

  /// The order of placement: latest deadline first, then the higher threshold, then the app
  /// that sorts last.
  private static func placesFirst(_ left: Step, _ right: Step) -> Bool {
    (left.deadline, left.threshold, left.app) > (right.deadline, right.threshold, right.app)
  }
}

extension ThresholdAccountant {
  /// Every interval's usage laid out on the timeline, by the rule of
  /// ``MonitoringIntervalUsage/usageRecords(bound:asOf:)``.
  ///
  /// - Parameters:
  ///   - bound: Which bound of the evidence to place; the upper bound unless you choose
  ///     otherwise.
  ///   - now: For the lower bound, the instant of the grading; `nil` grades the evidence as
  ///     final.
  /// - Returns: The records, in order of interval, then latest first.
  /// - Complexity: O(*s* log *s*) for *s* steps in all intervals.
  public func usageRecords(bound: UsageBound = .upper, asOf now: Date? = nil) -> [UsageRecord] {
    intervals.flatMap { $0.usageRecords(bound: bound, asOf: now) }
  }
}
