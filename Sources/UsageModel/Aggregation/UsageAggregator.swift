import Foundation

/// Turns usage records into per-day, per-category, per-app totals, exactly and without
/// double counting.
///
/// The rules, each enforced by construction:
/// - **Day split.** A record that crosses a day boundary (of ``boundary``) is split there; each
///   part counts towards its own day. An instant exactly at a boundary belongs to the new day.
/// - **Union, not sum.** Records of the same app and category that overlap count once, so a
///   stretch recorded by two sources (a heartbeat and a report import) is not counted twice.
///   A category's total is the time during which at least one of its apps was in use; the
///   device total is the time during which any app was — it never exceeds the day's length.
/// - **Categories.** A record's own category wins; otherwise ``rules`` decide. An app recorded
///   under two categories appears under each with the time recorded under it.
/// - **Apps.** An app's day total (``DailyUsage/apps``) is the union of all its records,
///   whatever their categories, so the same hour recorded once without a category and once with
///   one counts one hour for the app — use it, not a sum over categories, for per-app totals.
/// - **Exact.** Every amount is a whole number of milliseconds, summed in integers.
///
/// ```swift
/// let aggregator = UsageAggregator(
///   boundary: try DayBoundary(timeZoneIdentifier: "America/New_York"), rules: rules)
/// let report = aggregator.aggregate(records)
/// report[today]?.usage(of: .socialMedia)?.total
/// ```
///
/// Bucketing uses a ``DayBoundaryTable`` built once for the records' span, so no `Calendar` is
/// called per record; records already in order of start are not sorted again.
///
/// > Important: Work and memory grow with the number of **days** the records span, not only
/// > with the number of records: the aggregator resolves the start of every local day from the
/// > earliest start to the latest end, and the report holds a ``DailyUsage`` for every day with
/// > usage. A single record that ends at `Date.distantFuture` (the year 4001, a supported
/// > instant, as an open-ended session closed with a sentinel end gets) spans 721,353 days and
/// > makes as many ``DailyUsage`` values: 0.45 s and about 430 MB at peak in a release build on a
/// > 2-core Linux VM, against a DeviceActivity monitor extension's 6 MB. Where records come from
/// > code you do not control, pass the days you need to ``aggregate(_:over:)`` (or an interval to
/// > ``aggregate(_:clippedTo:)``), which bounds the work by those days (the same record clipped
/// > to a week: 7 days, 0.3 ms).
public struct UsageAggregator: Sendable, Hashable {
  /// Where days start and end.
  public let boundary: DayBoundary
  /// The categories of records that carry none.
  public let rules: CategoryRules

  /// Creates an aggregator.
  ///
  /// - Parameters:
  ///   - boundary: Where days start and end.
  ///   - rules: The categories of records that carry none; by default every such app is
  ///     ``AppCategory/other``.
  public init(boundary: DayBoundary, rules: CategoryRules = CategoryRules()) {
    self.boundary = boundary
    self.rules = rules
  }

  /// Aggregates `records`, in any order.
  ///
  /// The work grows with the days the records span (see the type's discussion); use
  /// ``aggregate(_:over:)`` or ``aggregate(_:clippedTo:)`` to bound it.
  ///
  /// - Parameter records: Usage records; empty records count nothing.
  /// - Returns: The usage of every day that has some.
  /// - Complexity: O(*n* + *d* + *a*·*r*) for *n* records in order of start, spanning *d* days,
  ///   with *a* distinct apps and *r* rules; O(*n* log *n*) more when the records are not in
  ///   order of start.
  public func aggregate(_ records: [UsageRecord]) -> UsageReport {
    aggregate(records, from: .min, to: .max)
  }

  /// Aggregates the parts of `records` that lie inside `interval`, in any order.
  ///
  /// Each record is cut to `interval` first; records outside it count nothing and their apps
  /// are not listed in ``UsageReport/uncategorizedApps``. The days of the report are then at
  /// most the local days that `interval` touches, so the work is bounded by the interval, not
  /// by the records: clip to the week or month you are about to show or send.
  ///
  /// ```swift
  /// let lastHour = DateInterval(start: now.addingTimeInterval(-3600), end: now)
  /// let report = try aggregator.aggregate(records, clippedTo: lastHour)
  /// ```
  ///
  /// To count whole local days, ``aggregate(_:over:)`` takes the days and cannot fail.
  ///
  /// A bound beyond the supported instants (such as `Date.distantPast`, `Date.distantFuture`
  /// or an infinite date) leaves that side unbounded. A day that `interval` cuts counts only
  /// its part inside `interval`.
  ///
  /// - Parameters:
  ///   - records: Usage records; empty records count nothing.
  ///   - interval: The period to count, start included, end excluded.
  /// - Returns: The usage inside `interval` of every day that has some.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` when a bound of
  ///   `interval` is not a number.
  /// - Complexity: O(*n* + *d* + *a*·*r*) for *n* records in order of start, with *d* the days
  ///   of `interval` that hold usage, *a* distinct apps and *r* rules; O(*n* log *n*) more when
  ///   the records are not in order of start.
  public func aggregate(_ records: [UsageRecord], clippedTo interval: DateInterval)
    throws(UsageModelError) -> UsageReport
  {
    aggregate(
      records, from: try Self.bound(interval.start, field: "interval.start"),
      to: try Self.bound(interval.end, field: "interval.end"))
  }

  /// Aggregates the parts of `records` that lie on `days`, in any order.
  ///
  /// The same report as ``aggregate(_:clippedTo:)`` for the interval from the start of the
  /// first day to the start of the day after the last, but it cannot fail: every local day has
  /// an interval. Use it for the days you are about to show or send.
  ///
  /// ```swift
  /// let report = aggregator.aggregate(records, over: week.days)
  /// ```
  ///
  /// - Parameters:
  ///   - records: Usage records; empty records count nothing.
  ///   - days: The local days to count, under ``boundary``.
  /// - Returns: The usage of every day of `days` that has some.
  /// - Complexity: That of ``aggregate(_:clippedTo:)``, with *d* at most `days.count`.
  public func aggregate(_ records: [UsageRecord], over days: ClosedRange<LocalDay>) -> UsageReport {
    aggregate(
      records, from: boundary.startInstant(ofDayNumber: days.lowerBound.dayNumber),
      to: boundary.startInstant(ofDayNumber: days.upperBound.dayNumber + 1))
  }

  /// A clip bound in milliseconds, clamped to one step outside the supported instants.
  private static func bound(_ date: Date, field: String) throws(UsageModelError) -> Int64 {
    let value = date.timeIntervalSince1970 * 1000
    guard !value.isNaN else {
      throw .instantOutOfRange(field: field, secondsSince1970: date.timeIntervalSince1970)
    }
    if value < Double(Milliseconds.earliest) { return Milliseconds.earliest - 1 }
    if value > Double(Milliseconds.latest) { return Milliseconds.latest + 1 }
    return Int64(value.rounded())
  }

  /// Aggregates the parts of `records` inside `lower..<upper` (milliseconds).
  private func aggregate(_ records: [UsageRecord], from lower: Int64, to upper: Int64)
    -> UsageReport
  {
    var index = RecordIndex(rules: rules)
    let (items, lastEnd) = index.items(of: records, from: lower, to: upper)
    guard let first = items.first else {
      return UsageReport(boundary: boundary, sortedDays: [], uncategorizedApps: [])
    }
    let table = DayBoundaryTable(
      boundary: boundary,
      days: LocalDay(
        uncheckedDayNumber: boundary.dayNumber(containing: first.start))...LocalDay(
          uncheckedDayNumber: boundary.dayNumber(containing: lastEnd - 1)))

    // Every app has at least one (category, app) group. When each has exactly one — no app was
    // recorded under two categories — an app's union is its group's union, and the app level
    // would only repeat the group level's work.
    let oneGroupPerApp = index.groups.count == index.apps.count
    var device = UnionLevel(targets: 1)
    var categories = UnionLevel(targets: index.categories.count)
    var groups = UnionLevel(targets: index.groups.count)
    var apps = UnionLevel(targets: oneGroupPerApp ? 0 : index.apps.count)
    let categoryOfGroup = index.groups.map { Int($0.category) }
    let appOfGroup = index.groups.map { Int($0.app) }
    // Items come in order of start, so the day of each start is found by walking forward.
    var day = 0
    for item in items {
      while table.startInstant(at: day + 1) <= item.start { day += 1 }
      let group = Int(item.group)
      device.add(target: 0, start: item.start, end: item.end, day: day, table: table)
      categories.add(
        target: categoryOfGroup[group], start: item.start, end: item.end, day: day, table: table)
      groups.add(target: group, start: item.start, end: item.end, day: day, table: table)
      if !oneGroupPerApp {
        apps.add(
          target: appOfGroup[group], start: item.start, end: item.end, day: day, table: table)
      }
    }
    device.finish(table: table)
    categories.finish(table: table)
    groups.finish(table: table)
    apps.finish(table: table)
    let appCredits =
      oneGroupPerApp
      ? groups.credits.map {
        UnionLevel.Credit(day: $0.day, target: Int32(appOfGroup[Int($0.target)]), amount: $0.amount)
      }
      : apps.credits

    return ReportBuilder(index: index, table: table).report(
      device: device.credits, categories: categories.credits, groups: groups.credits,
      apps: appCredits, uncategorizedApps: index.uncategorizedApps)
  }
}
