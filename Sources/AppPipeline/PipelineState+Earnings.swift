import BudgetMath
import UsageModel

extension PipelineState {
  /// Credits the reward ledger with the XP of `usage` not credited yet.
  ///
  /// For each interval and app, the XP of its highest threshold so far (whole minutes, at the
  /// configured rate of its category) less what was credited for it before, as one `earn`
  /// transaction identified by the interval, the app and the new total: crediting again from
  /// the same facts changes nothing, and the sum credited for an interval is the XP of its usage
  /// whatever order the facts came in.
  /// Whether ``credit(_:configuration:)`` would credit anything.
  func owesCredit(
    for usage: [DerivedUsage.IntervalUsage], configuration: PipelineConfiguration
  ) -> Bool {
    guard let rewards = configuration.rewards else { return false }
    return usage.contains { item in
      let xp = rewards.experiencePoints(
        for: item.total, in: configuration.rules.category(for: item.app))
      return xp > (earned["\(item.intervalStart)|\(item.app.rawValue)"] ?? 0)
    }
  }

  mutating func credit(
    _ usage: [DerivedUsage.IntervalUsage], configuration: PipelineConfiguration
  ) throws(PipelineError) {
    guard let rewards = configuration.rewards else { return }
    for item in usage {
      let category = configuration.rules.category(for: item.app)
      let xp = rewards.experiencePoints(for: item.total, in: category)
      let key = "\(item.intervalStart)|\(item.app.rawValue)"
      let credited = earned[key] ?? 0
      guard xp > credited else { continue }
      let transaction = LedgerTransaction(
        id: "usage:\(key)|\(xp)", at: Milliseconds.date(item.reachedAt),
        kind: .earn(xp: xp - credited))
      do throws(BudgetMathError) {
        try ledger.apply(transaction)
      } catch {
        throw .budget(error)
      }
      earned[key] = xp
    }
  }
}
