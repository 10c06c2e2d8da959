import BudgetMath
import Foundation
import TestSupport
import Testing
import UsageModel

/// Hostile JSON for every `Codable` type of BudgetMath: decoding throws or gives a value that
/// round-trips and survives its main operations; it never traps or hangs.
@Suite("Decoding hostile JSON never traps")
struct FuzzTests {
  static let plan = Fuzz.Plan(seed: 0x5EED_0002, makeTargets)

  @Test("every input decodes to a usable value or throws a DecodingError", arguments: plan.targets)
  func fuzz(_ target: Fuzz.Target) throws {
    try Self.plan.run(target)
  }

  // MARK: - Inputs that once failed

  @Test("replay: a break of Int64.max ms is refused when decoded (its planned end trapped)")
  func replayBreakOfInt64Max() throws {
    // Found by this loop before the fix: replaying the break added its length to the clock.
    let input =
      #"{"events":[{"at":"2026-03-08T12:10:00Z","breakLengthMs":9223372036854775807,"kind":"beginBreak"},{"at":"2026-03-08T12:11:40Z","kind":"endBreak","unknown":1}],"focusDurationMs":1500000,"id":"f","scheduledStart":"2026-03-08T12:00:00Z"}"#
    #expect(try Fuzz.replay(FocusSession.self, input) == nil)
    var session = try FocusSession(
      id: "f", scheduledStart: try instant("2026-03-08T12:00:00Z"), focusDuration: minutes(25))
    #expect(throws: BudgetMathError.self) {
      try session.apply(
        .beginBreak(at: try instant("2026-03-08T12:10:00Z"), length: .milliseconds(Int64.max)))
    }
  }

  // swift-format-ignore: FunctionBodyLength
  static func makeTargets() throws -> [Fuzz.Target] {
    let now = try instant("2026-03-08T12:00:00Z")
    let today = try day("2026-03-08")
    let boundary = DayBoundary(timeZone: try #require(TimeZone(identifier: "Europe/Paris")))
    let rollover = try RolloverPolicy(cap: minutes(30))
    let budget = try Budget(
      category: .gaming, period: .isoWeek, amount: hours(7), granularity: .minutes,
      rollover: rollover)
    let plan = try MonthlyPlan(
      month: today.localMonth, amounts: [.socialMedia: hours(30), .gaming: hours(10)],
      excluded: [.education], startDay: try day("2026-03-03"))
    let usage: [LocalDay: Duration] = [today: minutes(50), today.advanced(by: -1): minutes(70)]
    let reports = try plan.reports(on: today, usage: [.socialMedia: usage])
    let report = try #require(reports.first { $0.category == .socialMedia })
    var alerts = BudgetAlertState()
    let raised = alerts.evaluate(
      category: .gaming, window: today...today, used: minutes(61), allowance: minutes(60))
    let pace = try #require(try plan.pace(of: report, boundary: boundary, now: now))
    let cap = try DailyEarningCap(xp: 500, dayBoundary: boundary)
    var ledger = RewardLedger(rate: .tenXPPerMinute, dailyEarningCap: cap)
    let transactions = [
      LedgerTransaction(id: "e1", at: now, kind: .earn(xp: 600)),
      LedgerTransaction(id: "r1", at: now, kind: .redeem(xp: 95)),
      LedgerTransaction(id: "s1", at: now, kind: .startSpending(session: "a", reserve: minutes(5))),
      LedgerTransaction(id: "s2", at: now, kind: .endSpending(session: "a", used: minutes(2))),
      LedgerTransaction(id: "a1", at: now, kind: .adjust(xp: -3, time: minutes(-1), reason: "x")),
      LedgerTransaction(id: "x1", at: now, kind: .expire(xp: 1, time: .seconds(1))),
    ]
    for transaction in transactions { try ledger.apply(transaction) }
    var session = try FocusSession(id: "f", scheduledStart: now, focusDuration: minutes(25))
    let events: [FocusEvent] = [
      .start(at: now), .beginBreak(at: now + 600, length: minutes(5)),
      .endBreak(at: now + 700), .complete(at: now + 2_000),
    ]
    for event in events { try session.apply(event) }
    let builtLedger = ledger
    let builtSession = session

    return [
      .decoding(raised),
      .decoding([alerts]) { state in
        var copy = state
        _ = copy.evaluate(
          category: .gaming, window: today...today, used: .seconds(Int64.max),
          allowance: .zero)
        _ = copy.evaluate(report, period: .month, scope: .period)
        copy.forgetWindows(endingBefore: today)
      },
      .decoding([AlertScope.period]),
      .decoding([AllowanceGranularity.minutes]),
      .decoding([report.allowance]) { _ = $0.total },
      .decoding([budget] + plan.budgets) { budget in
        _ = budget.baseAllowances(forPeriodContaining: today)
        _ = budget.proratedAmount(forPeriodContaining: today, planStart: today)
        _ = budget.allowances(forPeriodContaining: today, usage: usage)
        _ = try? budget.report(on: today, usage: usage)
      },
      .decoding([rollover]),
      .decoding([BudgetPeriod.day, .isoWeek, .month]) { period in
        _ = period.days(containing: today)
        _ = period.length(containing: today, boundary: boundary)
      },
      .decoding([plan]) { plan in
        for day in plan.month.days { _ = try? plan.reports(on: day, usage: [.gaming: usage]) }
        _ = plan.baseAllowance(for: .socialMedia, on: today)
      },
      .decoding([Countdown(start: now, duration: minutes(25))]) { _ = $0.remaining(at: now) },
      .decoding(events),
      .decoding([FocusPhase.onBreak]),
      .decoding([FocusEventKind.endBreak]),
      .decoding([builtSession]) { session in
        var copy = session
        _ = copy.state(at: now + 1_000)
        _ = copy.state(at: .distantFuture)
        _ = try? copy.apply(.beginBreak(at: now + 3_000, length: minutes(1)))
        _ = copy.state(at: now + 4_000)
      },
      .decoding([builtSession.state(at: now + 650)]),
      .decoding([ExchangeRate.tenXPPerMinute]) { rate in
        _ = rate.convert(Int.max)
        _ = rate.convert(95)
      },
      .decoding([cap]) { cap in
        var ledger = RewardLedger(rate: .tenXPPerMinute, dailyEarningCap: cap)
        _ = try? ledger.apply(LedgerTransaction(id: "e", at: now, kind: .earn(xp: Int.max)))
      },
      .decoding(transactions) { transaction in
        var copy = builtLedger
        _ = try? copy.apply(transaction)
      },
      .decoding([builtLedger.balance]),
      .decoding([builtLedger]) { ledger in
        var copy = ledger
        _ = try? copy.apply(LedgerTransaction(id: "e9", at: now, kind: .earn(xp: Int.max)))
        _ = try? copy.redeemAll(id: "all", at: now)
        _ = copy.expiryOfEverything(id: "exp", at: now)
      },
      .decoding([pace]),
      .decoding([PaceOutlook.willRunOut]),
      .decoding([BudgetLevel.warning]),
      .decoding(reports),
      .decoding([report.today, report.period]) { status in
        _ = status.remaining
        _ = status.overage
        _ = status.fraction
      },
    ]
  }
}
