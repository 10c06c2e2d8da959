import BudgetMath
import UsageModel

extension PipelineState {
  /// Whether ``credit(_:configuration:)`` would credit anything.
  func owesCredit(for usage: ThresholdAccountant, configuration: PipelineConfiguration) -> Bool {
    guard let rewards = configuration.rewards else { return false }
    return Self.earnings(usage).contains { key, app in
      let xp = rewards.experiencePoints(
        for: app.highest, in: configuration.rules.category(for: app.app))
      return xp > (earned[key] ?? 0)
    }
  }

  /// Credits the reward ledger with the XP of `usage` not credited yet.
  ///
  /// For each interval and app, the XP of its highest threshold so far (whole minutes, at the
  /// configured rate of its category) less what was credited for it before, as one `earn`
  /// transaction identified by the interval, the app and the new total: crediting again from
  /// the same facts changes nothing, and the sum credited for an interval is the XP of its usage
  /// whatever order the facts came in.
  mutating func credit(_ usage: ThresholdAccountant, configuration: PipelineConfiguration)
    throws(PipelineError)
  {
    guard let rewards = configuration.rewards else { return }
    for (key, item) in Self.earnings(usage) {
      let category = configuration.rules.category(for: item.app)
      let xp = rewards.experiencePoints(for: item.highest, in: category)
      let credited = earned[key] ?? 0
      guard xp > credited else { continue }
      let transaction = LedgerTransaction(
        id: "usage:\(key)|\(xp)", at: item.reachedAt, kind: .earn(xp: xp - credited))
      do throws(BudgetMathError) {
        try ledger.apply(transaction)
      } catch {
        throw .budget(error)
      }
      earned[key] = xp
    }
  }

  /// Each interval's apps, keyed `"<interval start in ms>|<app>"` as ``earned`` is.
  private static func earnings(_ usage: ThresholdAccountant)
    -> [(key: String, app: MonitoringIntervalUsage.AppThreshold)]
  {
    usage.intervals.flatMap { interval in
      let start = Milliseconds.clampedInstant(interval.start)
      return interval.apps.map { (key: "\(start)|\($0.app.rawValue)", app: $0) }
    }
  }
}
