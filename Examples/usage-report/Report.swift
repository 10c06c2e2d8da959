import BudgetMath
import Foundation
import UsageModel

/// The report: each day's usage, the totals over those days, and the budgets of a plan.
struct UsageSummary {
  /// Each day's usage, from the records (aggregated) and the sync payloads (per-app totals).
  let usage: UsageReport
  /// The names the sync payloads gave to apps.
  let appNames: [AppID: String]
  /// The month the report is restricted to, if any.
  let month: LocalMonth?
  /// How many records and payload days were counted.
  let recordCount: Int
  let payloadDayCount: Int
  /// Every category's and every app's time over all the days, most used first.
  let categoryTotals: [CategoryUsage]
  let appTotals: [AppUsage]
  /// The budgets of the plan, when one was given.
  let budgets: Budgets?

  /// A plan's budgets on one day, judged at one instant.
  struct Budgets {
    let plan: MonthlyPlan
    let day: LocalDay
    let now: Date
    let nowWasGiven: Bool
    let lines: [(report: BudgetReport, pace: PaceProjection?)]
  }

  /// The longest span of days counted without `--month`, so that a record that ends in the
  /// year 4001 cannot make the program build a report of 721,000 days.
  static let maximumDays = 3660

  init(input: Input, boundary: DayBoundary, month: LocalMonth?, now: Date?) throws(Failure) {
    var month = month
    if let plan = input.plan {
      if let month, month != plan.month {
        throw .usage("--month \(month) is not the month of the plan in \(input.planFile)")
      }
      month = plan.month
    }
    self.month = month
    // What is counted: the month's days, and nothing after `now`.
    let nowDay = try now.map { now throws(Failure) in try Self.day(inProgressAt: now, boundary) }
    var counted = DateInterval(start: .distantPast, end: max(.distantPast, now ?? .distantFuture))
    if let month {
      let days = DateInterval(
        start: boundary.start(of: month.firstDay), end: boundary.interval(of: month.lastDay).end)
      counted = DateInterval(
        start: days.start, end: max(days.start, min(days.end, counted.end)))
    }
    try Self.checkSpan(of: input.records, within: counted, boundary: boundary)
    let fromRecords: UsageReport
    do {
      fromRecords = try UsageAggregator(boundary: boundary, rules: input.rules)
        .aggregate(input.records, clippedTo: counted)
    } catch {
      throw .usage("--now: \(error)")
    }
    // A later payload for a day replaces an earlier one, as the backend's re-sync does.
    var latest: [LocalDay: PayloadLine] = [:]
    for line in input.payloads {
      let day = line.payload.usageDate
      guard month?.days.contains(day) ?? true, day <= nowDay ?? day else { continue }
      if let first = input.payloads.first, first.payload.userId != line.payload.userId {
        throw .input(
          line.location,
          "a payload of user \(line.payload.userId.debugDescription) among payloads of "
            + "\(first.payload.userId.debugDescription); report one person at a time")
      }
      latest[line.payload.usageDate] = line
    }
    var days = fromRecords.days
    var uncategorized = Set(fromRecords.uncategorizedApps)
    var names: [AppID: String] = [:]
    for (day, line) in latest.sorted(by: { $0.key < $1.key }) {
      guard fromRecords[day] == nil else {
        throw .input(
          line.location,
          "\(day) has usage records too; give each day records or a sync payload, not both")
      }
      days.append(try Self.dailyUsage(of: line, boundary: boundary, rules: input.rules))
      uncategorized.formUnion(input.rules.uncategorizedApps(in: line.payload.apps.map(\.bundleId)))
      for app in line.payload.apps { names[app.bundleId] = app.appName }
    }
    do {
      usage = try UsageReport(
        boundary: boundary, days: days, uncategorizedApps: Array(uncategorized))
    } catch {
      throw .input("the input", "\(error)")
    }
    appNames = names
    recordCount = input.records.count
    payloadDayCount = latest.count
    (categoryTotals, appTotals) = Self.totals(of: usage)
    if let plan = input.plan {
      budgets = try Self.budgets(of: plan, file: input.planFile, usage: usage, now: now)
    } else {
      budgets = nil
    }
  }

  /// Refuses records whose parts inside `interval` span more than ``maximumDays`` local days.
  private static func checkSpan(
    of records: [UsageRecord], within interval: DateInterval, boundary: DayBoundary
  ) throws(Failure) {
    guard let earliest = records.map(\.start).min(), let latest = records.map(\.end).max() else {
      return
    }
    let start = max(earliest, interval.start)
    let end = min(latest, interval.end)
    guard start < end else { return }
    let first: LocalDay
    let last: LocalDay
    do {
      first = try boundary.day(containing: start)
      last = try boundary.day(containing: end)
    } catch {
      throw .input("the records", "\(error)")
    }
    guard first.distance(to: last) < maximumDays else {
      throw .input(
        "the records",
        "they span \(first.distance(to: last) + 1) local days, \(first) to \(last); "
          + "count one month with --month")
    }
  }

  /// The day in progress at `now`; at a day's very start, the day that just ended.
  static func day(inProgressAt now: Date, _ boundary: DayBoundary) throws(Failure) -> LocalDay {
    do {
      return try boundary.day(containing: now.addingTimeInterval(-0.001))
    } catch {
      throw .usage("--now: \(error)")
    }
  }

  /// A payload's day: each app's minutes, each category the sum of its apps' minutes.
  ///
  /// A payload has no instants, so two apps are taken never to have been in use at once: the
  /// day's total is the sum of the apps, and must fit in the day.
  private static func dailyUsage(of line: PayloadLine, boundary: DayBoundary, rules: CategoryRules)
    throws(Failure) -> DailyUsage
  {
    let day = line.payload.usageDate
    let length = boundary.length(of: day)
    let minutesInDay = Int(length.components.seconds / 60)
    var total = Duration.zero
    var apps: [AppCategory: [AppUsage]] = [:]
    for app in line.payload.apps {
      // Checked before multiplying, so that a huge number of minutes cannot overflow.
      guard app.totalMinutes <= minutesInDay else {
        throw .input(
          line.location,
          "\(app.bundleId) used \(app.totalMinutes) minutes on \(day), a day of "
            + "\(formatted(length))")
      }
      let time = Duration.seconds(app.totalMinutes * 60)
      total += time
      apps[rules.category(for: app.bundleId), default: []].append(
        AppUsage(app: app.bundleId, total: time))
    }
    guard total <= length else {
      throw .input(
        line.location,
        "the apps add up to \(formatted(total)), more than the \(formatted(length)) of \(day)")
    }
    let categories = apps.map { category, apps in
      CategoryUsage(category: category, total: apps.reduce(.zero) { $0 + $1.total }, apps: apps)
    }
    do {
      return try DailyUsage(
        day: day, interval: boundary.interval(of: day), total: total, categories: categories,
        apps: apps.values.flatMap { $0 })
    } catch {
      throw .input(line.location, "\(error)")
    }
  }

  /// Each category's and each app's time over all days, most used first, ties by name.
  private static func totals(of usage: UsageReport) -> ([CategoryUsage], [AppUsage]) {
    var categories: [AppCategory: [AppID: Duration]] = [:]
    var categoryTimes: [AppCategory: Duration] = [:]
    var apps: [AppID: Duration] = [:]
    for day in usage.days {
      for category in day.categories {
        categoryTimes[category.category, default: .zero] += category.total
        for app in category.apps {
          categories[category.category, default: [:]][app.app, default: .zero] += app.total
        }
      }
      for app in day.apps { apps[app.app, default: .zero] += app.total }
    }
    let appTotals = apps.map { AppUsage(app: $0.key, total: $0.value) }.sorted(by: mostUsedFirst)
    let categoryTotals = categoryTimes.map { category, total in
      CategoryUsage(
        category: category, total: total,
        apps: (categories[category] ?? [:]).map { AppUsage(app: $0.key, total: $0.value) }
          .sorted(by: mostUsedFirst))
    }.sorted { ($0.total, $1.category) > ($1.total, $0.category) }
    return (categoryTotals, appTotals)
  }

  /// The plan's budgets on the day in progress at `now`, or, without `now`, at the end of the
  /// latest day of the plan with usage.
  private static func budgets(of plan: MonthlyPlan, file: String, usage: UsageReport, now: Date?)
    throws(Failure) -> Budgets
  {
    let boundary = usage.boundary
    let day: LocalDay
    let instant: Date
    if let now {
      day = try Self.day(inProgressAt: now, boundary)
      instant = now
    } else {
      let planDays = plan.startDay...plan.month.lastDay
      day = usage.days.last { planDays.contains($0.day) }?.day ?? plan.startDay
      instant = boundary.interval(of: day).end
    }
    guard plan.month.days.contains(day), day >= plan.startDay else {
      throw .usage(
        "--now falls on \(day), outside the plan's days \(plan.startDay)...\(plan.month.lastDay)")
    }
    do {
      let reports = try plan.reports(on: day, usage: usage)
      var lines: [(report: BudgetReport, pace: PaceProjection?)] = []
      // The plan's days, from its start: a plan that started on the 28th has used its
      // prorated amount in days, not weeks. (`MonthlyPlan.pace(of:boundary:now:)` measures
      // from the 1st, which dilutes the rate of a plan that started mid-month.)
      let period = DateInterval(
        start: boundary.start(of: plan.startDay), end: boundary.interval(of: plan.month.lastDay).end
      )
      for report in reports {
        let pace =
          report.today.level == .excluded
          ? nil
          : try PaceProjection(
            used: report.period.used, allowance: report.period.allowance, period: period,
            now: instant)
        lines.append((report, pace))
      }
      return Budgets(plan: plan, day: day, now: instant, nowWasGiven: now != nil, lines: lines)
    } catch {
      throw .input(file, "\(error)")
    }
  }
}

/// Whether `lhs` comes first in a list of apps: most used first, ties by app ID.
private func mostUsedFirst(_ lhs: AppUsage, _ rhs: AppUsage) -> Bool {
  (lhs.total, rhs.app) > (rhs.total, lhs.app)
}
