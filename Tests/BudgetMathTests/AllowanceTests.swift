import BudgetMath
import Foundation
import Testing
import UsageModel

@Suite("Allowance distribution")
struct AllowanceTests {
  static let amounts: [Duration] = [
    .zero, .seconds(1), minutes(59), hours(30), hours(1000), .seconds(1_000_003),
  ]

  static let months: [LocalMonth] = {
    var months: [LocalMonth] = []
    var month = LocalMonth(uncheckedForTests: 2000, 1)
    while month.year <= 2100 {
      months.append(month)
      month = month.advanced(by: 1)
    }
    return months
  }()

  @Test(
    "every month from 2000 to 2100: daily allowances add up exactly and differ by at most a second",
    arguments: amounts)
  func monthlyAllowancesAddUpExactly(amount: Duration) throws {
    for month in Self.months {
      let budget = try Budget(category: .socialMedia, period: .month, amount: amount)
      let days = budget.baseAllowances(forPeriodContaining: month.firstDay)
      #expect(days.count == month.numberOfDays)
      #expect(days.map(\.day) == Array(month.days))
      #expect(days.reduce(Duration.zero) { $0 + $1.base } == amount, "\(month)")
      let bases = days.map(\.base)
      #expect(try #require(bases.max()) - #require(bases.min()) <= .seconds(1), "\(month)")
      for allowance in days {
        #expect(budget.baseAllowance(on: allowance.day) == allowance.base)
      }
    }
  }

  @Test(
    "every ISO week from 2000 to 2100: daily allowances add up exactly and differ by at most a second",
    arguments: amounts)
  func weeklyAllowancesAddUpExactly(amount: Duration) throws {
    let budget = try Budget(category: .gaming, period: .isoWeek, amount: amount)
    var monday = try day("2000-01-03")
    let end = try day("2100-12-31")
    while monday <= end {
      let days = budget.baseAllowances(forPeriodContaining: monday.advanced(by: 3))
      #expect(days.first?.day == monday && days.first?.day.weekday == .monday)
      #expect(days.count == 7)
      #expect(days.reduce(Duration.zero) { $0 + $1.base } == amount)
      let bases = days.map(\.base)
      #expect(try #require(bases.max()) - #require(bases.min()) <= .seconds(1))
      monday = monday.advanced(by: 7)
    }
  }

  @Test(
    "in minutes, whole-minute amounts add up exactly and differ by at most a minute",
    arguments: [minutes(59), hours(30), hours(1000), minutes(100_003)])
  func minuteGranularityAddsUpExactly(amount: Duration) throws {
    for month in Self.months {
      let parts = try AllowanceSplit.split(amount, into: month.numberOfDays, granularity: .minutes)
      #expect(parts.reduce(.zero, +) == amount)
      #expect(
        parts.allSatisfy { $0.components.seconds % 60 == 0 && $0.components.attoseconds == 0 })
      #expect(try #require(parts.max()) - #require(parts.min()) <= minutes(1))
    }
  }

  @Test("30 hours over 31 days in minutes loses nothing, unlike truncating each day's share")
  func thirtyOneDayMonthLosesNothing() throws {
    let parts = try AllowanceSplit.split(hours(30), into: 31, granularity: .minutes)
    #expect(parts.reduce(.zero, +) == hours(30))
    #expect(parts.filter { $0 == minutes(59) }.count == 2)
    #expect(parts.filter { $0 == minutes(58) }.count == 29)
    // Truncated: Int(30 × 60 / 31) = 58 minutes every day, 1,798 minutes a month.
    #expect(minutes(58) * 31 == hours(30) - minutes(2))
  }

  @Test("the larger parts are spread through the period, not bunched at one end")
  func remaindersAreSpread() throws {
    let parts = try AllowanceSplit.split(.seconds(10), into: 4)
    #expect(parts == [.seconds(2), .seconds(3), .seconds(2), .seconds(3)])
    let week = try AllowanceSplit.split(.seconds(3), into: 7)
    #expect(week.map { $0.components.seconds } == [0, 0, 1, 0, 1, 0, 1])
  }

  @Test("an amount that is not whole units of the granularity is rejected")
  func fractionalAmountIsRejected() {
    #expect(
      throws: BudgetMathError.amountNotWholeUnits(amount: .seconds(90), granularity: .minutes)
    ) {
      _ = try AllowanceSplit.split(.seconds(90), into: 3, granularity: .minutes)
    }
    #expect(
      throws: BudgetMathError.amountNotWholeUnits(
        amount: .milliseconds(1500), granularity: .seconds)
    ) {
      _ = try Budget(category: .gaming, period: .day, amount: .milliseconds(1500))
    }
  }

  @Test("a negative amount or a count below one is rejected")
  func invalidInputIsRejected() {
    #expect(throws: BudgetMathError.self) { _ = try AllowanceSplit.split(.seconds(-1), into: 3) }
    #expect(throws: BudgetMathError.self) { _ = try AllowanceSplit.split(.seconds(1), into: 0) }
  }

  @Test(
    "a plan that starts mid-period prorates: earlier days get nothing, the rest keep their share")
  func midPeriodStartProrates() throws {
    let budget = try Budget(category: .socialMedia, period: .month, amount: hours(31))
    let start = try day("2026-01-20")
    let days = budget.baseAllowances(forPeriodContaining: start, planStart: start)
    #expect(days.prefix(19).allSatisfy { $0.base == .zero })
    #expect(days.suffix(12).allSatisfy { $0.base == hours(1) })
    #expect(budget.proratedAmount(forPeriodContaining: start, planStart: start) == hours(12))
    #expect(budget.baseAllowance(on: try day("2026-01-19"), planStart: start) == .zero)
    #expect(
      budget.proratedAmount(forPeriodContaining: start, planStart: try day("2026-02-01")) == .zero)
    #expect(
      budget.proratedAmount(forPeriodContaining: start, planStart: try day("2025-12-20"))
        == hours(31))
  }

  @Test(
    "the prorated amount is exactly the sum of the covered days' shares",
    arguments: [hours(30), .seconds(1_000_003), minutes(59)])
  func proratedAmountIsSumOfShares(amount: Duration) throws {
    let budget = try Budget(category: .gaming, period: .month, amount: amount)
    let month = try day("2024-02-01")
    for offset in 0..<29 {
      let start = month.advanced(by: offset)
      let sum = budget.baseAllowances(forPeriodContaining: month, planStart: start)
        .reduce(Duration.zero) { $0 + $1.base }
      #expect(budget.proratedAmount(forPeriodContaining: month, planStart: start) == sum)
    }
  }
}

extension LocalMonth {
  /// A month known to be valid, for building test tables.
  init(uncheckedForTests year: Int, _ month: Int) {
    do {
      self = try LocalMonth(year: year, month: month)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}
