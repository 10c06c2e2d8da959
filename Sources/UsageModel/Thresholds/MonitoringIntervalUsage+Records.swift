import Foundation

extension MonitoringIntervalUsage {
  /// The interval's usage laid out on the timeline: each app's thresholds as usage records, as
  /// late as their reports allow.
  ///
  /// The rule, for one app: a threshold reported at instant *r* was reached by *r*, and so was
  /// every lower threshold, so the use between two consecutive thresholds ends no later than the
  /// earliest report of the higher one or of any threshold above it. Each step — the use between
  /// one threshold and the next lower — is placed to end at that deadline, or at the start of
  /// the step above it if that is earlier, so that an app's steps never overlap; no step starts
  /// before the interval (use the platform counted from before it, with past activity
  /// included, is not placed on the timeline, where the interval before may already hold it).
  /// A duplicate or late report changes no deadline but an earlier one, so recording the same
  /// events in any order gives the same records.
  ///
  /// Records of different apps are placed independently and can overlap in time.
  ///
  /// ```swift
  /// var accountant = ThresholdAccountant(timeZone: zone)
  /// for event in events { accountant.record(event) }
  /// let report = try UsageAggregator(boundary: boundary).aggregate(accountant.usageRecords())
  /// ```
  ///
  /// - Returns: The records, with source ``UsageSource/thresholdEvent`` and no category, in
  ///   order of app and, for each app, latest first; empty steps omitted.
  /// - Complexity: O(*s*) for *s* steps in the interval.
  public func usageRecords() -> [UsageRecord] {
    apps.flatMap { usage in
      Self.place(usage.steps, intervalStart: startInstant).map { start, end in
        UsageRecord(
          app: usage.app, category: nil, startInstant: start, endInstant: end,
          source: .thresholdEvent)
      }
    }
  }

  /// The `[start, end)` pieces, in milliseconds and latest first, of one app's `steps`.
  private static func place(_ steps: [ThresholdStep], intervalStart: Int64) -> [(Int64, Int64)] {
    var pieces: [(Int64, Int64)] = []
    var deadline = Int64.max
    var cursor = Int64.max
    for index in steps.indices.reversed() {
      deadline = min(deadline, steps[index].instant)
      let lower = index == steps.startIndex ? 0 : steps[index - 1].thresholdAmount
      let amount = steps[index].thresholdAmount - lower
      let end = max(intervalStart, min(deadline, cursor))
      let start = max(intervalStart, end - amount)
      if end > start { pieces.append((start, end)) }
      cursor = start
    }
    return pieces
  }
}

extension ThresholdAccountant {
  /// Every interval's usage laid out on the timeline, by the rule of
  /// ``MonitoringIntervalUsage/usageRecords()``.
  ///
  /// - Returns: The records, in order of interval, then app, then latest first.
  /// - Complexity: O(*s*) for *s* steps in all intervals.
  public func usageRecords() -> [UsageRecord] {
    intervals.flatMap { $0.usageRecords() }
  }
}
