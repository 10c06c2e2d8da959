import BudgetMath
import Foundation
import UsageModel

extension LedgerJournal.Fold {
  /// Whether ``credit(_:intervalsFrom:configuration:asOf:)`` would credit anything.
  func owesCredit(
    for usage: ThresholdAccountant, intervalsFrom first: Int64,
    configuration: PipelineConfiguration, asOf now: Date
  ) -> Bool {
    guard let rewards = configuration.rewards else { return false }
    return Self.earnings(usage, from: first, bound: configuration.rewardBound, asOf: now).contains {
      earning in
      let xp = rewards.experiencePoints(
        for: earning.amount, in: configuration.rules.category(for: earning.app))
      return pays(earning, xp: xp)
    }
  }

  /// Whether `earning`, worth `xp` in all, is credited: when it is worth more than what its
  /// interval and app were credited, and, for a use reported before the ledger's opening, only
  /// when that is still known — otherwise it may have been paid among the transactions let go.
  private func pays(_ earning: Earning, xp: Int) -> Bool {
    guard xp > (earned[earning.key] ?? 0) else { return false }
    guard let through = ledger.opening?.through, earning.at < through else { return true }
    return earned[earning.key] != nil
  }

  /// Credits the reward ledger with the XP of `usage` not credited yet.
  ///
  /// For each interval and app, the XP of its use so far (its highest threshold within the
  /// configuration's ``PipelineConfiguration/rewardBound``, the confirmed one by default; whole
  /// minutes, at the configured rate of its category; graded as of `now`) less what was
  /// credited for it before, as one `earn`
  /// transaction identified by the interval, the app and the new total: crediting again from
  /// the same facts changes nothing, and the sum credited for an interval is the XP of its usage
  /// whatever order the facts came in — for the lower bound, as long as they come in the order
  /// of their instants (`ThresholdGrading`). Credits are never taken back: what a later fact
  /// unconfirms stays credited, and earnings are keyed by the interval's start, so changing the
  /// configuration's registrations, which can move an interval's start, credits the use again
  /// under the new start.
  ///
  /// Only the intervals that start at or after `first` are credited: `usage` is derived from
  /// the facts from `first` on, and an interval that began before has facts it did not read.
  /// A use reported before the ledger's opening is credited, dated at the opening, only when
  /// what its interval was credited is still known.
  mutating func credit(
    _ usage: ThresholdAccountant, intervalsFrom first: Int64,
    configuration: PipelineConfiguration, asOf now: Date
  ) throws(PipelineError) {
    guard let rewards = configuration.rewards else { return }
    for earning in Self.earnings(usage, from: first, bound: configuration.rewardBound, asOf: now) {
      let category = configuration.rules.category(for: earning.app)
      let xp = rewards.experiencePoints(for: earning.amount, in: category)
      let key = earning.key
      guard pays(earning, xp: xp) else { continue }
      let credited = earned[key] ?? 0
      // A use reported before the opening (a fact published late with its time, a clock set
      // back) is dated at it, which the ledger accepts.
      let at = max(earning.at, ledger.opening?.through ?? earning.at)
      let transaction = LedgerTransaction(
        id: "usage:\(key)|\(xp)", at: at, kind: .earn(xp: xp - credited))
      do throws(BudgetMathError) {
        try ledger.apply(transaction)
      } catch {
        throw .budget(error)
      }
      earned[key] = xp
    }
  }

  /// One app's use in one interval within a bound, keyed `"<interval start in ms>|<app>"` as
  /// `earned` is, with the instant its amount was first reported.
  private struct Earning {
    var key: String
    var app: AppID
    var amount: Duration
    var at: Date
  }

  /// Each interval's apps, with their use within `bound` as of `now`, for the intervals that
  /// start at or after `first`.
  private static func earnings(
    _ usage: ThresholdAccountant, from first: Int64, bound: UsageBound, asOf now: Date
  ) -> [Earning] {
    usage.intervals.flatMap { interval -> [Earning] in
      let start = Milliseconds.clampedInstant(interval.start)
      guard start >= first else { return [] }
      return zip(interval.apps, interval.gradings(asOf: now)).map { app, grading in
        let amount = grading.threshold(for: bound)
        let at = app.steps.first { $0.threshold == amount }?.reportedAt ?? app.reachedAt
        return Earning(key: "\(start)|\(app.app.rawValue)", app: app.app, amount: amount, at: at)
      }
    }
  }
}
