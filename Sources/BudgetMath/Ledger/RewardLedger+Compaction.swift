import Foundation
import UsageModel

extension RewardLedger {
  /// The same ledger without its oldest transactions: those dated before `cut` are summarised
  /// in the ``opening``, and the ledger keeps the rest.
  ///
  /// A ledger keeps every transaction to recognise a repeat by its identifier, so it grows with
  /// its age. Compacting it lets go of the longest run of its first transactions that are all
  /// dated before `cut` and before every transaction after them; the opening's
  /// ``LedgerOpening/through`` is a millisecond after the newest of them, and a new transaction
  /// dated before it is refused (``BudgetMathError/transactionBeforeOpening(id:at:opening:)``),
  /// so no transaction let go can be applied a second time. A transaction dated at or after
  /// `cut` stops the run, so one dated in the future keeps every later one until `cut` passes
  /// it.
  ///
  /// The compacted ledger has the same balance and open sessions, and accepts and refuses every
  /// new transaction dated at or after the opening as this one does, with the same effects,
  /// except two things it no longer knows: an identifier used only by a transaction let go is
  /// free again, and so is the identifier of a spending session that started and ended among
  /// them.
  ///
  /// - Parameter cut: Transactions dated before this instant may be let go. Choose it older
  ///   than any transaction that can still be repeated: a pipeline compacts at its retention.
  /// - Returns: The compacted ledger, or this one when no transaction can be let go.
  /// - Complexity: O(*n*) in the transactions kept.
  public func compacted(before cut: Date) -> RewardLedger {
    let kept = Self.firstKept(in: entries.map(\.transaction.at), before: cut)
    guard kept > 0,
      let newest = entries[..<kept].lazy.map({ Milliseconds.clampedInstant($0.transaction.at) })
        .max()
    else { return self }
    // A millisecond after the newest transaction let go: the earliest opening that refuses a
    // repeat of every one of them, and so the fewest new transactions. The ledger's instants are
    // whole milliseconds, so it is no later than the earliest transaction kept.
    let through = Milliseconds.date(newest + 1)
    var open: [String: Duration] = opening?.openSessions ?? [:]
    var earned: [LocalDay: Int] = opening?.earnedPerDay ?? [:]
    for entry in entries[..<kept] {
      switch entry.transaction.kind {
      case .startSpending(let session, let reserve): open[session] = reserve
      case .endSpending(let session, _): open[session] = nil
      case .earn:
        if let day = earningDays[entry.transaction.id] { earned[day, default: 0] += entry.xpChange }
      case .redeem, .adjust, .expire: break
      }
    }
    // No new transaction earns on a day before the one containing `through`; a day more is
    // kept in case the zone's rules move that day's start, and every day when that day cannot
    // be found, which keeps more than needed and refuses nothing.
    // The first supported day has no day before it (`advanced(by:)` would trap): nothing is
    // let go then.
    if let boundary = dailyEarningCap?.dayBoundary,
      let day = try? boundary.day(containing: through),
      day.dayNumber > LocalDay.supportedDayNumbers.lowerBound
    {
      let first = day.advanced(by: -1)
      earned = earned.filter { $0.key >= first }
    }
    // An opening that cannot be made (a `through` past the last representable instant) lets
    // nothing go: the ledger stays whole, as a ledger that was never compacted.
    guard
      let opening = try? LedgerOpening(
        through: through, balance: entries[kept - 1].balanceAfter, openSessions: open,
        earnedPerDay: earned)
    else { return self }
    var compacted = RewardLedger(rate: rate, dailyEarningCap: dailyEarningCap, opening: opening)
    for entry in entries[kept...] {
      // Each kept transaction applied to the same balance before, so it applies again with
      // the same effect; a ledger that somehow refuses one is not returned.
      let transaction = entry.transaction
      guard
        let (replayed, day) = try? compacted.effect(
          of: transaction, storedEarningDay: earningDays[transaction.id]),
        replayed == entry
      else { return self }
      compacted.record(replayed, earningDay: day)
    }
    return compacted
  }

  /// How many of the first transactions, dated `dates` in the order applied, can be let go
  /// before `cut`: the most whose dates are all before `cut` and before every later date.
  static func firstKept(in dates: [Date], before cut: Date) -> Int {
    // The earliest date from each index on.
    var laterMinimum = [Date](repeating: .distantFuture, count: dates.count + 1)
    for index in dates.indices.reversed() {
      laterMinimum[index] = min(dates[index], laterMinimum[index + 1])
    }
    var best = 0
    var latest = Date.distantPast
    for index in dates.indices {
      latest = max(latest, dates[index])
      guard latest < cut else { break }
      if latest < laterMinimum[index + 1] { best = index + 1 }
    }
    return best
  }
}
