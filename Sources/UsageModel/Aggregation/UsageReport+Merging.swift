import Foundation

extension UsageReport {
  /// The reports of several time zones as one, day by day: the days of a person who travelled.
  ///
  /// Each report holds the usage of the intervals that began in one zone, aggregated by that
  /// zone's days. A local day of the result holds the usage every report gives that day: its
  /// apps' and categories' times add up, and its interval spans theirs (a day of travel west is
  /// longer than 24 hours). The reports come from different monitoring intervals, which one
  /// device does not use at once; should two overlap (two activities whose intervals began in
  /// different zones), a day's total is capped at its length, and each app's and category's at
  /// the day's total.
  ///
  /// ```swift
  /// let days = try UsageReport.merging([parisReport, newYorkReport], boundary: newYork)
  /// ```
  ///
  /// - Parameters:
  ///   - reports: The reports, one per zone.
  ///   - boundary: The boundary the merged report names (the configured zone's).
  /// - Returns: One report; a single report is returned as it is, with `boundary`.
  /// - Throws: ``UsageModelError`` when a merged day cannot be built (it cannot, for reports the
  ///   aggregator made).
  /// - Complexity: O(*n* log *n*) in the days, categories and apps of the reports.
  public static func merging(_ reports: [UsageReport], boundary: DayBoundary)
    throws(UsageModelError) -> UsageReport
  {
    var byDay: [LocalDay: [DailyUsage]] = [:]
    for report in reports {
      for day in report.days { byDay[day.day, default: []].append(day) }
    }
    var days: [DailyUsage] = []
    for (day, parts) in byDay {
      guard let first = parts.first else { continue }
      days.append(parts.count == 1 ? first : try merged(first, parts.dropFirst(), on: day))
    }
    return try UsageReport(
      boundary: boundary, days: days,
      uncategorizedApps: Array(Set(reports.flatMap(\.uncategorizedApps))))
  }

  /// One day's usage from several parts of it.
  private static func merged(
    _ first: DailyUsage, _ rest: ArraySlice<DailyUsage>, on day: LocalDay
  ) throws(UsageModelError) -> DailyUsage {
    let parts = [first] + rest
    var apps: [AppID: Duration] = [:]
    var categories: [AppCategory: [AppID: Duration]] = [:]
    var categoryTotals: [AppCategory: Duration] = [:]
    for part in parts {
      for app in part.apps { apps[app.app, default: .zero] += app.total }
      for category in part.categories {
        categoryTotals[category.category, default: .zero] += category.total
        for app in category.apps {
          categories[category.category, default: [:]][app.app, default: .zero] += app.total
        }
      }
    }
    let start = parts.map(\.startInstant).min() ?? first.startInstant
    let end = parts.map(\.endInstant).max() ?? first.endInstant
    // Overlapping parts (two activities whose intervals began in different zones) would add
    // one stretch of use twice: capped, a day never holds more than its length, nor an app or
    // a category more than the day (nor an app more than its category).
    let total = min(parts.reduce(.zero) { $0 + $1.total }, Milliseconds.duration(end - start))
    return try DailyUsage(
      day: day,
      interval: DateInterval(start: Milliseconds.date(start), end: Milliseconds.date(end)),
      total: total,
      categories: categoryTotals.map { category, sum in
        let capped = min(sum, total)
        return CategoryUsage(
          category: category, total: capped,
          apps: (categories[category] ?? [:]).map {
            AppUsage(app: $0.key, total: min($0.value, capped))
          })
      },
      apps: apps.map { AppUsage(app: $0.key, total: min($0.value, total)) })
  }
}
