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
  public func aggregate(_ records: some Sequence<UsageRecord>) -> UsageReport {
    var index = RecordIndex(rules: rules)
    let items = index.items(of: records)
    guard let first = items.first else {
      return UsageReport(boundary: boundary, days: [], uncategorizedApps: [])
    }
    let lastEnd = items.reduce(first.end) { max($0, $1.end) }
    let table = DayBoundaryTable(
      boundary: boundary,
      days: LocalDay(
        uncheckedDayNumber: boundary.dayNumber(containing: first.start))...LocalDay(
          uncheckedDayNumber: boundary.dayNumber(containing: lastEnd - 1)))

    var device = UnionLevel(targets: 1)
    var categories = UnionLevel(targets: index.categories.count)
    var groups = UnionLevel(targets: index.groups.count)
    for item in items {
      let group = Int(item.group)
      device.add(target: 0, start: item.start, end: item.end, table: table)
      categories.add(
        target: Int(index.groups[group].category), start: item.start, end: item.end, table: table)
      groups.add(target: group, start: item.start, end: item.end, table: table)
    }
    device.finish(table: table)
    categories.finish(table: table)
    groups.finish(table: table)

    return ReportBuilder(index: index, table: table).report(
      device: device.credits, categories: categories.credits, groups: groups.credits,
      uncategorizedApps: index.uncategorizedApps)
  }
}

/// A record reduced to what the sweep needs: its ends in milliseconds and its (category, app).
struct SweepItem {
  var start: Int64
  var end: Int64
  var group: Int32
}

/// Numbers the apps, categories and (category, app) groups of a batch of records.
struct RecordIndex {
  struct Group {
    var category: Int32
    var app: Int32
  }

  let rules: CategoryRules
  private(set) var apps: [AppID] = []
  private(set) var categories: [Category] = []
  private(set) var groups: [Group] = []
  private var appNumbers: [AppID: Int32] = [:]
  private var categoryNumbers: [Category: Int32] = [:]
  private var groupNumbers: [Int64: Int32] = [:]
  /// For each app, its group under the rules' category, or -1 until first needed.
  private var ruleGroupOfApp: [Int32] = []
  private var uncategorized: Set<Int32> = []

  init(rules: CategoryRules) {
    self.rules = rules
  }

  /// The non-empty records as sweep items, sorted by start.
  mutating func items(of records: some Sequence<UsageRecord>) -> [SweepItem] {
    var items: [SweepItem] = []
    items.reserveCapacity(records.underestimatedCount)
    var sorted = true
    var previousStart = Int64.min
    for record in records where record.endInstant > record.startInstant {
      let app = appNumber(record.app)
      let group: Int32
      if let category = record.category {
        group = groupNumber(category: categoryNumber(category), app: app)
      } else {
        group = ruleGroup(app: app)
      }
      if record.startInstant < previousStart { sorted = false }
      previousStart = record.startInstant
      items.append(SweepItem(start: record.startInstant, end: record.endInstant, group: group))
    }
    if !sorted { items.sort { $0.start < $1.start } }
    return items
  }

  var uncategorizedApps: [AppID] { uncategorized.map { apps[Int($0)] }.sorted() }

  private mutating func appNumber(_ app: AppID) -> Int32 {
    if let number = appNumbers[app] { return number }
    let number = Int32(apps.count)
    apps.append(app)
    appNumbers[app] = number
    ruleGroupOfApp.append(-1)
    return number
  }

  private mutating func categoryNumber(_ category: Category) -> Int32 {
    if let number = categoryNumbers[category] { return number }
    let number = Int32(categories.count)
    categories.append(category)
    categoryNumbers[category] = number
    return number
  }

  private mutating func groupNumber(category: Int32, app: Int32) -> Int32 {
    let key = Int64(category) << 32 | Int64(app)
    if let number = groupNumbers[key] { return number }
    let number = Int32(groups.count)
    groups.append(Group(category: category, app: app))
    groupNumbers[key] = number
    return number
  }

  private mutating func ruleGroup(app: Int32) -> Int32 {
    let cached = ruleGroupOfApp[Int(app)]
    if cached >= 0 { return cached }
    let rule = rules.rule(for: apps[Int(app)])
    if rule == nil { uncategorized.insert(app) }
    let group = groupNumber(category: categoryNumber(rule?.category ?? .other), app: app)
    ruleGroupOfApp[Int(app)] = group
    return group
  }
}
