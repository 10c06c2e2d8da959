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
      // Credits are sorted into the documented orders (most used first, ties by name) before
      // they become values: moving plain integers is cheaper than moving values with strings.
      var appsByCategory: [Int32: [AppUsage]] = [:]
      for groupCredit in ordered(
        groupsByDay[day], by: { index.apps[Int(index.groups[Int($0)].app)] })
      {
        let group = index.groups[Int(groupCredit.target)]
        appsByCategory[group.category, default: []].append(
          AppUsage(
            app: index.apps[Int(group.app)], total: Milliseconds.duration(groupCredit.amount)))
      }
      let categoryUsages = ordered(categoriesByDay[day], by: { index.categories[Int($0)] }).map {
        categoryCredit in
        CategoryUsage(
          category: index.categories[Int(categoryCredit.target)],
          total: Milliseconds.duration(categoryCredit.amount),
          apps: appsByCategory[categoryCredit.target] ?? [])
      }
      let appUsages = ordered(appsByDay[day], by: { index.apps[Int($0)] }).map { appCredit in
        AppUsage(
          app: index.apps[Int(appCredit.target)], total: Milliseconds.duration(appCredit.amount))
      }
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

  /// `credits` largest amount first, ties by the name of their target.
  private func ordered<Name: Comparable>(
    _ credits: [UnionLevel.Credit], by name: (Int32) -> Name
  ) -> [UnionLevel.Credit] {
    credits.sorted {
      $0.amount != $1.amount ? $0.amount > $1.amount : name($0.target) < name($1.target)
    }
  }
}
