/// Assembles a ``UsageReport`` from the credits of the four union levels.
struct ReportBuilder {
  let index: RecordIndex
  let table: DayBoundaryTable

  func report(
    device: [UnionLevel.Credit], categories: [UnionLevel.Credit], groups: [UnionLevel.Credit],
    apps: [UnionLevel.Credit], uncategorizedApps: [AppID]
  ) -> UsageReport {
    let categoriesByDay = bucketByDay(categories)
    let groupsByDay = bucketByDay(groups)
    let appsByDay = bucketByDay(apps)
    var days: [DailyUsage] = []
    days.reserveCapacity(device.count)
    for credit in device.sorted(by: { $0.day < $1.day }) {
      let day = Int(credit.day)
      var appsByCategory: [Int32: [AppUsage]] = [:]
      for groupCredit in groupsByDay[day] {
        let group = index.groups[Int(groupCredit.target)]
        appsByCategory[group.category, default: []].append(
          AppUsage(
            app: index.apps[Int(group.app)], total: Milliseconds.duration(groupCredit.amount)))
      }
      let categoryUsages = categoriesByDay[day].map { categoryCredit in
        CategoryUsage(
          category: index.categories[Int(categoryCredit.target)],
          total: Milliseconds.duration(categoryCredit.amount),
          apps: (appsByCategory[categoryCredit.target] ?? []).sorted {
            ($0.total, $1.app) > ($1.total, $0.app)
          })
      }.sorted { ($0.total, $1.category) > ($1.total, $0.category) }
      let appUsages = appsByDay[day].map { appCredit in
        AppUsage(
          app: index.apps[Int(appCredit.target)], total: Milliseconds.duration(appCredit.amount))
      }.sorted { ($0.total, $1.app) > ($1.total, $0.app) }
      days.append(
        DailyUsage(
          day: table.days.lowerBound.advanced(by: day),
          startInstant: table.startInstant(at: day), endInstant: table.startInstant(at: day + 1),
          total: Milliseconds.duration(credit.amount), categories: categoryUsages,
          apps: appUsages))
    }
    return UsageReport(
      boundary: table.boundary, sortedDays: days, uncategorizedApps: uncategorizedApps)
  }

  /// The credits grouped by day index, in O(*n* + *d*).
  private func bucketByDay(_ credits: [UnionLevel.Credit]) -> [[UnionLevel.Credit]] {
    var buckets = Array(repeating: [UnionLevel.Credit](), count: table.count)
    for credit in credits { buckets[Int(credit.day)].append(credit) }
    return buckets
  }
}
