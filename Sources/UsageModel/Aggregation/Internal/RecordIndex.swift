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
  private(set) var categories: [AppCategory] = []
  private(set) var groups: [Group] = []
  private var appNumbers: [AppID: Int32] = [:]
  private var categoryNumbers: [AppCategory: Int32] = [:]
  private var groupNumbers: [Int64: Int32] = [:]
  /// For each app, its group under the rules' category, or -1 until first needed.
  private var ruleGroupOfApp: [Int32] = []
  private var uncategorized: Set<Int32> = []

  init(rules: CategoryRules) {
    self.rules = rules
  }

  /// The records' non-empty parts inside `lower..<upper` as sweep items, sorted by start, and
  /// the latest end among them.
  ///
  /// Consecutive records usually belong to the same app (a session is recorded piece by
  /// piece), so the group of the previous record is tried first: an equality test instead of
  /// a hash lookup.
  mutating func items(of records: [UsageRecord], from lower: Int64, to upper: Int64)
    -> (items: [SweepItem], end: Int64)
  {
    var items: [SweepItem] = []
    items.reserveCapacity(records.count)
    var sorted = true
    var previousStart = Int64.min
    var latestEnd = Int64.min
    // The empty string is never an app ID, so the first record misses the cache.
    var cachedApp = ""
    var cachedCategory = ""
    var cachedGroup: Int32 = -1
    // Records are read in place by index: copying one would retain and release its strings.
    for index in records.indices {
      let start = max(records[index].startInstant, lower)
      let end = min(records[index].endInstant, upper)
      guard end > start else { continue }
      let sameCategory: Bool
      if let category = records[index].category {
        sameCategory = category.rawValue == cachedCategory
      } else {
        sameCategory = cachedCategory.isEmpty
      }
      let group: Int32
      if sameCategory, records[index].app.rawValue == cachedApp {
        group = cachedGroup
      } else {
        group = self.group(of: records[index])
        cachedApp = records[index].app.rawValue
        cachedCategory = records[index].category?.rawValue ?? ""
        cachedGroup = group
      }
      if start < previousStart { sorted = false }
      previousStart = start
      if end > latestEnd { latestEnd = end }
      items.append(SweepItem(start: start, end: end, group: group))
    }
    if !sorted { items.sort { $0.start < $1.start } }
    return (items, latestEnd)
  }

  /// The group of a record: its own category, or the rules' category of its app.
  private mutating func group(of record: UsageRecord) -> Int32 {
    let app = appNumber(record.app)
    if let category = record.category {
      return groupNumber(category: categoryNumber(category), app: app)
    }
    return ruleGroup(app: app)
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

  private mutating func categoryNumber(_ category: AppCategory) -> Int32 {
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
