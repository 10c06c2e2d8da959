import Foundation
import UsageModel

extension Budget {
  /// The base allowances of every day of the period containing `day`.
  ///
  /// The period's amount is split over *all* its days (see ``AllowanceSplit``), so the days add
  /// up exactly to ``amount`` and differ by at most one ``granularity`` unit. When the plan
  /// starts inside the period, days before `planStart` get nothing and the rest keep their
  /// share: the prorated amount is exactly the sum of the covered days' shares.
  ///
  /// ```swift
  /// // 30 h a month, plan started on January 20: 12 of 31 shares.
  /// let days = budget.baseAllowances(forPeriodContaining: jan20, planStart: jan20)
  /// ```
  ///
  /// - Parameters:
  ///   - day: Any day of the period.
  ///   - planStart: The first day the plan applies, or `nil` when it applies to the whole
  ///     period. A start after the period gives every day nothing.
  /// - Returns: One allowance per day of the period, in order, with nothing carried in.
  /// - Complexity: O(*d*) in the number of days of the period.
  public func baseAllowances(
    forPeriodContaining day: LocalDay,
    planStart: LocalDay? = nil
  ) -> [DayAllowance] {
    let days = period.days(containing: day)
    let count = days.count
    let units = amountUnits
    return days.enumerated().map { index, current in
      let covered = planStart.map { current >= $0 } ?? true
      let share = AllowanceSplit.part(index, of: count, units: units) * granularity.milliseconds
      return DayAllowance(day: current, base: covered ? .milliseconds(share) : .zero)
    }
  }

  /// The base allowance of one day: its share of its period's amount.
  ///
  /// - Parameters:
  ///   - day: The day.
  ///   - planStart: The first day the plan applies, if any; earlier days get nothing.
  /// - Returns: The day's share.
  /// - Complexity: O(1).
  public func baseAllowance(on day: LocalDay, planStart: LocalDay? = nil) -> Duration {
    if let planStart, day < planStart { return .zero }
    let days = period.days(containing: day)
    let index = days.lowerBound.distance(to: day)
    let share = AllowanceSplit.part(index, of: days.count, units: amountUnits)
    return .milliseconds(share * granularity.milliseconds)
  }

  /// The period's amount after proration: the sum of the shares of the days from `planStart`.
  ///
  /// - Parameters:
  ///   - day: Any day of the period.
  ///   - planStart: The first day the plan applies, if any.
  /// - Returns: The time the period allows.
  /// - Complexity: O(1).
  public func proratedAmount(forPeriodContaining day: LocalDay, planStart: LocalDay? = nil)
    -> Duration
  {
    let days = period.days(containing: day)
    guard let planStart, planStart > days.lowerBound else { return amount }
    guard planStart <= days.upperBound else { return .zero }
    let skipped = AllowanceSplit.cumulative(
      days.lowerBound.distance(to: planStart), of: days.count, units: amountUnits)
    return .milliseconds((amountUnits - skipped) * granularity.milliseconds)
  }

  /// Every day's allowance over `window`, with unused time rolled over under ``rollover``.
  ///
  /// Day by day through the window: the first day carries nothing in; each later day carries in
  /// `min(cap, max(0, previous total − previous use))`, rounded down to whole ``granularity``
  /// units so that every allowance stays a whole number of units. Without a rollover policy, every day's
  /// allowance is its base. Everything is recomputed from `usage` — nothing is decremented — so
  /// corrected usage gives corrected allowances.
  ///
  /// - Parameters:
  ///   - window: The days to compute; rollover starts afresh at its first day.
  ///   - usage: The time used on each day; missing days count as unused.
  ///   - planStart: The first day the plan applies, if any.
  /// - Returns: One allowance per day of the window, in order.
  /// - Complexity: O(*d*) in the number of days of the window.
  public func allowances(
    over window: ClosedRange<LocalDay>,
    usage: [LocalDay: Duration],
    planStart: LocalDay? = nil
  ) -> [DayAllowance] {
    var result: [DayAllowance] = []
    result.reserveCapacity(window.count)
    var carry = Duration.zero
    for day in window {
      let allowance = DayAllowance(
        day: day, base: baseAllowance(on: day, planStart: planStart), carriedIn: carry)
      result.append(allowance)
      if let rollover {
        let unused = allowance.total - clampedToMilliseconds(usage[day] ?? .zero)
        carry = wholeUnits(min(rollover.cap, max(.zero, unused)))
      }
    }
    return result
  }

  /// Every day's allowance in the period containing `day`, rolling over inside the period.
  ///
  /// - Parameters:
  ///   - day: Any day of the period.
  ///   - usage: The time used on each day.
  ///   - planStart: The first day the plan applies, if any.
  /// - Returns: One allowance per day of the period, in order.
  /// - Complexity: O(*d*) in the number of days of the period.
  public func allowances(
    forPeriodContaining day: LocalDay,
    usage: [LocalDay: Duration],
    planStart: LocalDay? = nil
  ) -> [DayAllowance] {
    allowances(over: period.days(containing: day), usage: usage, planStart: planStart)
  }

  /// `duration` rounded down to whole granularity units.
  func wholeUnits(_ duration: Duration) -> Duration {
    let milliseconds = Milliseconds.amount(duration) ?? 0
    return .milliseconds(milliseconds - milliseconds % granularity.milliseconds)
  }

  /// The amount in whole granularity units; validated non-negative and whole at construction.
  var amountUnits: Int64 {
    (Milliseconds.amount(amount) ?? 0) / granularity.milliseconds
  }
}
