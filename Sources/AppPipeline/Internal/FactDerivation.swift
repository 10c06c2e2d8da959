import Foundation
import SignalValues
import TrackerSignals
import UsageModel

/// What the facts say, derived afresh from the whole set: threshold accounting, usage records,
/// the facts that could not be used, and the signs of life they are.
///
/// A pure function of the facts and the configuration, independent of the order in which the
/// facts arrived: the facts are a sorted set, and they are replayed in that order.
struct DerivedUsage {
  /// The threshold accounting of every attributed threshold event.
  var accountant: ThresholdAccountant
  /// The usage records, as late as the events allow, never overlapping within one app's
  /// interval, clamped to the interval's start.
  var records: [UsageRecord]
  /// The threshold events that could not be counted, and why.
  var rejected: [RejectedFact]
  /// What recording the events did.
  var counts: ThresholdCounts
  /// One heartbeat of the monitor extension per fact: each callback is a sign of life.
  var signsOfLife: [Heartbeat]
  /// The highest threshold reached per interval and app, for the reward earnings.
  var highest: [IntervalUsage]

  /// One app's usage in one interval.
  struct IntervalUsage {
    var intervalStart: Int64
    var app: AppID
    var total: Duration
    var reachedAt: Int64
  }
}

enum FactDerivation {
  /// Derives the usage of `facts`.
  ///
  /// An event is attributed to an `intervalDidStart` at most ``PipelineState/longestInterval``
  /// before it.
  ///
  /// - Parameters:
  ///   - facts: The facts, sorted and unique (``PipelineState/facts``).
  ///   - configuration: The pipeline's configuration.
  ///   - accountant: An empty accountant with the configuration's zone and tolerance.
  /// - Returns: What the facts say.
  /// - Complexity: O(*n* log *n*) for *n* facts.
  static func derive(
    _ facts: [MonitorFact], configuration: PipelineConfiguration, accountant: ThresholdAccountant
  ) -> DerivedUsage {
    var starts: [String: [Int64]] = [:]
    for fact in facts where fact.callback == .intervalDidStart {
      starts[fact.activity, default: []].append(fact.instant)  // sorted: facts are
    }
    var accountant = accountant
    var rejected: [RejectedFact] = []
    var counts = ThresholdCounts()
    var steps: [StepKey: [Int64: Int64]] = [:]
    for fact in facts where fact.callback == .eventDidReachThreshold {
      guard let eventName = fact.event else { continue }
      let name: ThresholdEventName
      do {
        name = try ThresholdEventName(parsing: eventName)
      } catch {
        rejected.append(RejectedFact(fact: fact, reason: error.description))
        continue
      }
      guard
        let start = intervalStart(
          of: fact.activity, at: fact.instant, starts: starts[fact.activity] ?? [],
          configuration: configuration)
      else {
        rejected.append(
          RejectedFact(
            fact: fact,
            reason: "no interval of activity '\(fact.activity)' is known to contain it: no "
              + "intervalDidStart in the 7 days before it, and no schedule in the monitoring plan"
          ))
        continue
      }
      let event: ThresholdEvent
      do {
        event = try ThresholdEvent(
          name: name, intervalStart: Milliseconds.date(start), receivedAt: fact.at,
          includesPastActivity: configuration.includesPastActivity)
      } catch {
        rejected.append(RejectedFact(fact: fact, reason: error.description))
        continue
      }
      let outcome = accountant.record(event)
      counts.count(outcome)
      if case .implausible = outcome { continue }
      let threshold = Milliseconds.amount(name.threshold) ?? 0
      let key = StepKey(intervalStart: start, app: name.app)
      steps[key, default: [:]][threshold] = min(
        steps[key]?[threshold] ?? .max, fact.instant)
    }
    var records: [UsageRecord] = []
    var highest: [DerivedUsage.IntervalUsage] = []
    for key in steps.keys.sorted() {
      let placed = place(steps[key] ?? [:], intervalStart: key.intervalStart)
      for (start, end) in placed {
        records.append(
          UsageRecord(
            app: key.app, category: nil, startInstant: start, endInstant: end,
            source: .thresholdEvent))
      }
      if let top = steps[key]?.max(by: { $0.key < $1.key }) {
        highest.append(
          DerivedUsage.IntervalUsage(
            intervalStart: key.intervalStart, app: key.app,
            total: Milliseconds.duration(top.key), reachedAt: top.value))
      }
    }
    let signs = facts.map {
      Heartbeat(instant: $0.instant, source: .monitorExtension, sequence: nil, memoryBytes: nil)
    }
    return DerivedUsage(
      accountant: accountant, records: records, rejected: rejected, counts: counts,
      signsOfLife: signs, highest: highest)
  }

  /// The start of the interval of `activity` that an event at `instant` belongs to.
  static func intervalStart(
    of activity: String, at instant: Int64, starts: [Int64], configuration: PipelineConfiguration
  ) -> Int64? {
    let latest = starts.last { $0 <= instant }
    let schedule = configuration.monitoring?.activities.first { $0.name == activity }?.schedule
    if let schedule, let occurrence = occurrence(of: schedule, containing: instant, configuration) {
      // Monitoring started or restarted inside the occurrence begins a new interval there.
      guard let latest, latest >= occurrence else { return occurrence }
      return latest
    }
    guard let latest, instant - latest <= PipelineState.longestInterval else { return nil }
    return latest
  }

  private static func occurrence(
    of schedule: MonitoringSchedule, containing instant: Int64,
    _ configuration: PipelineConfiguration
  ) -> Int64? {
    let date = Milliseconds.date(instant)
    switch schedule {
    case .daily(let window):
      return window.occurrence(containing: date, in: configuration.timeZone).flatMap {
        Milliseconds.instant($0.start)
      }
    case .timer(let window):
      return window.contains(date) ? Milliseconds.instant(window.start) : nil
    }
  }

  /// Places the usage of one app in one interval, as late as the reports allow.
  ///
  /// Each step — a threshold and the earliest instant it was reported — is laid out so that no
  /// two steps overlap and none starts before the interval. A threshold reported at `r` was reached by
  /// `r`, and so was every lower one, so a step ends no later than the earliest report of it or
  /// of any higher threshold.
  ///
  /// - Returns: The `[start, end)` pieces in milliseconds, latest first; empty pieces omitted.
  static func place(_ steps: [Int64: Int64], intervalStart: Int64) -> [(Int64, Int64)] {
    let thresholds = steps.keys.sorted()
    var deadline = Int64.max
    var deadlines = [Int64](repeating: 0, count: thresholds.count)
    for index in thresholds.indices.reversed() {
      deadline = min(deadline, steps[thresholds[index]] ?? .max)
      deadlines[index] = deadline
    }
    var pieces: [(Int64, Int64)] = []
    var cursor = Int64.max
    for index in thresholds.indices.reversed() {
      let amount = thresholds[index] - (index == 0 ? 0 : thresholds[index - 1])
      let end = max(intervalStart, min(deadlines[index], cursor))
      let start = max(intervalStart, end - amount)
      if end > start { pieces.append((start, end)) }
      cursor = start
    }
    return pieces
  }

  struct StepKey: Hashable, Comparable {
    var intervalStart: Int64
    var app: AppID

    static func < (lhs: StepKey, rhs: StepKey) -> Bool {
      (lhs.intervalStart, lhs.app) < (rhs.intervalStart, rhs.app)
    }
  }
}
