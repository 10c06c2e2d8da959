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
///   boundary: DayBoundary(timeZone: TimeZone(identifier: "America/New_York")!), rules: rules)
/// let report = aggregator.aggregate(records)
/// report[today]?.usage(of: .socialMedia)?.total
/// ```
///
/// Bucketing uses a ``DayBoundaryTable`` built once for the records' span, so no `Calendar` is
/// called per record; records already in order of start are not sorted again.
public struct UsageAggregator: Sendable {
  /// Where days start and end.
  public let boundary: DayBoundary
  /// The categories of records that carry none.
  public let rules: CategoryRules

  /// Creates an aggregator.
  ///
  /// - Parameters:
  ///   - boundary: Where days start and end.
  ///   - rules: The categories of records that carry none; by default every such app is
  ///     ``Category/other``.
  public init(boundary: DayBoundary, rules: CategoryRules = CategoryRules()) {
    self.boundary = boundary
    self.rules = rules
  }

  /// Aggregates `records`, in any order.
  ///
  /// - Parameter records: Usage records; empty records count nothing.
  /// - Returns: The usage of every day that has some.
  /// - Complexity: O(*n* + *d* + *a*·*r*) for *n* records in order of start, spanning *d* days,
  ///   with *a* distinct apps and *r* rules; O(*n* log *n*) more when the records are not in
  ///   order of start.
  public func aggregate(_ records: [UsageRecord]) -> UsageReport {
    var index = RecordIndex(rules: rules)
    let (items, lastEnd) = index.items(of: records)
    guard let first = items.first else {
      return UsageReport(boundary: boundary, sortedDays: [], uncategorizedApps: [])
    }
    let table = DayBoundaryTable(
      boundary: boundary,
      days: LocalDay(
        uncheckedDayNumber: boundary.dayNumber(containing: first.start))...LocalDay(
          uncheckedDayNumber: boundary.dayNumber(containing: lastEnd - 1)))

    var device = UnionLevel(targets: 1)
    var categories = UnionLevel(targets: index.categories.count)
    var groups = UnionLevel(targets: index.groups.count)
    var apps = UnionLevel(targets: index.apps.count)
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
      apps.add(target: appOfGroup[group], start: item.start, end: item.end, day: day, table: table)
    }
    device.finish(table: table)
    categories.finish(table: table)
    groups.finish(table: table)
    apps.finish(table: table)

    return ReportBuilder(index: index, table: table).report(
      device: device.credits, categories: categories.credits, groups: groups.credits,
      apps: apps.credits, uncategorizedApps: index.uncategorizedApps)
  }
}
