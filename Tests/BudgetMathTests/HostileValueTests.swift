import BudgetMath
import Foundation
import Testing
import UsageModel

/// Values no sane caller passes, through BudgetMath's public API: each gives a defined result or
/// a typed error, never a trap, a hang or unbounded memory.
@Suite("Hostile values give a defined result or a typed error")
struct HostileValueTests {
  static let extremeDurations: [Duration] = [
    .seconds(Int64.max), .seconds(Int64.min), .milliseconds(Int64.max), .milliseconds(Int64.min),
    Duration(secondsComponent: Int64.max, attosecondsComponent: 999_999_999_999_999_999),
  ]

  @Test("extreme durations are typed errors where amounts must be exact, clamped where derived")
  func extremeDurations() throws {
    let today = try day("2026-03-08")
    let budget = try Budget(
      category: .gaming, period: .month, amount: hours(30),
      rollover: try RolloverPolicy(cap: hours(1)))
    for duration in Self.extremeDurations {
      if duration != .milliseconds(Int64.max) {
        #expect(throws: BudgetMathError.self) {
          try Budget(category: .gaming, period: .day, amount: duration)
        }
      }
      if duration != .milliseconds(Int64.max) {
        #expect(throws: BudgetMathError.self) {
          try budget.report(on: today, usage: [today: duration])
        }
      }
      // Rollover derives what is left from any use, however large or negative.
      let allowances = budget.allowances(
        forPeriodContaining: today, usage: [today.advanced(by: -1): duration])
      #expect(allowances.allSatisfy { $0.carriedIn >= .zero && $0.carriedIn <= hours(1) })
      let status = try? BudgetStatus(used: duration, allowance: duration)
      _ = (status?.remaining, status?.overage, status?.fraction)
      var alerts = BudgetAlertState()
      _ = alerts.evaluate(
        category: .gaming, window: today...today, used: duration, allowance: duration)
      _ = Countdown(start: .distantFuture, duration: duration).remaining(at: .distantPast)
      #expect(throws: BudgetMathError.self) {
        try FocusSession(
          id: "f", scheduledStart: try instant("2026-03-08T12:00:00Z"), focusDuration: duration)
      }
      var ledger = RewardLedger(rate: .tenXPPerMinute)
      let adjust = LedgerTransaction(
        id: "a", at: try instant("2026-03-08T12:00:00Z"),
        kind: .adjust(xp: 0, time: duration, reason: "x"))
      if duration == .milliseconds(Int64.max) {
        try ledger.apply(adjust)
      } else {
        #expect(throws: BudgetMathError.self) { try ledger.apply(adjust) }
      }
    }
  }

  @Test("a split into more parts than there are days is a typed error, not an allocation")
  func hugeSplits() throws {
    for count in [Int.max, AllowanceSplit.maximumCount + 1, 0, -1, .min] {
      #expect(throws: BudgetMathError.self) { try AllowanceSplit.split(hours(1), into: count) }
    }
    let parts = try AllowanceSplit.split(.milliseconds(Int64.max / 1000 * 1000), into: 1_000_000)
    #expect(parts.count == 1_000_000)
    #expect(
      parts.reduce(Duration.zero, +) == .milliseconds(Int64.max / 1000 * 1000))
  }

  @Test("XP at the ends of Int converts and earns without trapping")
  func extremeXP() throws {
    let at = try instant("2026-03-08T12:00:00Z")
    let rates = [
      ExchangeRate.tenXPPerMinute, try ExchangeRate(experiencePoints: 1, time: .seconds(60)),
      try ExchangeRate(experiencePoints: .max, time: .milliseconds(Int64.max)),
    ]
    for rate in rates {
      for xp in [Int.max, Int.min, 0, -1] { _ = rate.convert(xp) }
      var ledger = RewardLedger(rate: rate)
      try ledger.apply(LedgerTransaction(id: "e1", at: at, kind: .earn(xp: .max)))
      #expect(throws: BudgetMathError.self) {
        try ledger.apply(LedgerTransaction(id: "e2", at: at, kind: .earn(xp: 1)))
      }
      // Under a cap of Int.max XP a day, what exceeds the cap is reported as capped.
      var capped = RewardLedger(
        rate: rate,
        dailyEarningCap: try DailyEarningCap(
          xp: .max, dayBoundary: DayBoundary(timeZone: try #require(TimeZone(identifier: "UTC")))))
      try capped.apply(LedgerTransaction(id: "e1", at: at, kind: .earn(xp: .max)))
      #expect(
        try capped.apply(LedgerTransaction(id: "e2", at: at, kind: .earn(xp: .max))).entry.cappedXP
          == .max)
      _ = try? ledger.redeemAll(id: "all", at: at)
      #expect(ledger.balance.xp >= 0)
      #expect(throws: BudgetMathError.self) {
        try ledger.apply(LedgerTransaction(id: "n", at: at, kind: .earn(xp: .min)))
      }
    }
  }

  @Test("distant and unusable instants: countdowns clamp, ledgers and sessions refuse")
  func hostileInstants() throws {
    let noon = try instant("2026-03-08T12:00:00Z")
    let countdown = Countdown(start: noon, duration: minutes(25))
    // Instants out of range count as the nearest supported one; NaN as the latest.
    // 0001-01-03T00:00:00Z and 9999-12-29T23:59:59.999Z (a formatter would use the Julian
    // calendar for year 1).
    let earliest = Date(timeIntervalSince1970: -62_135_424_000)
    let latest = Date(timeIntervalSince1970: 253_402_127_999.999)
    #expect(
      countdown.remaining(at: .distantPast)
        == .milliseconds(Int64((countdown.end.timeIntervalSince(earliest) * 1000).rounded())))
    #expect(countdown.remaining(at: .distantFuture) == .zero)
    #expect(countdown.remaining(at: Date(timeIntervalSince1970: .nan)) == .zero)
    #expect(Countdown(end: Date(timeIntervalSince1970: .nan)).end == latest)
    #expect(Countdown(end: Date(timeIntervalSince1970: -.infinity)).end == earliest)
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    try ledger.apply(LedgerTransaction(id: "future", at: .distantFuture, kind: .earn(xp: 10)))
    #expect(throws: BudgetMathError.self) {
      try ledger.apply(LedgerTransaction(id: "past", at: .distantPast, kind: .earn(xp: 10)))
    }
    let day = DateInterval(start: noon, duration: 86_400)
    let pace = try PaceProjection(
      used: minutes(5), allowance: hours(1), period: day, now: .distantFuture)
    #expect(pace.elapsed == .seconds(86_400))
  }

  @Test("empty and 1 MB identifiers: empty ones are refused, long ones kept")
  func hostileStrings() throws {
    let megabyte = String(repeating: "x", count: 1 << 20)
    let at = try instant("2026-03-08T12:00:00Z")
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    #expect(throws: BudgetMathError.self) {
      try ledger.apply(LedgerTransaction(id: "", at: at, kind: .earn(xp: 10)))
    }
    #expect(throws: BudgetMathError.self) {
      try ledger.apply(
        LedgerTransaction(id: "a", at: at, kind: .adjust(xp: 1, time: .zero, reason: "")))
    }
    try ledger.apply(LedgerTransaction(id: megabyte, at: at, kind: .earn(xp: 10)))
    #expect(ledger.entry(for: megabyte)?.xpChange == 10)
    #expect(throws: BudgetMathError.self) {
      try FocusSession(id: "", scheduledStart: at, focusDuration: minutes(1))
    }
    var session = try FocusSession(id: megabyte, scheduledStart: at, focusDuration: minutes(1))
    try session.apply(.start(at: at.addingTimeInterval(-60)))
    #expect(session.state(at: at.addingTimeInterval(-30)).phase == .active)
  }

  @Test("a clock that goes back: an earlier event is refused, earlier questions answer as of then")
  func clockGoesBack() throws {
    let noon = try instant("2026-03-08T12:00:00Z")
    var session = try FocusSession(id: "f", scheduledStart: noon, focusDuration: minutes(25))
    try session.apply(.beginBreak(at: noon.addingTimeInterval(600)))
    #expect(throws: BudgetMathError.self) {
      try session.apply(.endBreak(at: noon.addingTimeInterval(300)))
    }
    #expect(session.state(at: noon.addingTimeInterval(300)).phase == .active)
    #expect(session.state(at: noon.addingTimeInterval(-300)).phase == .scheduled)
    let day = DateInterval(start: noon, duration: 86_400)
    let pace = try PaceProjection(
      used: minutes(5), allowance: hours(1), period: day, now: noon - 3_600)
    #expect(pace.elapsed == .zero)
    #expect(pace.outlook == .noUsageYet)
  }
}
