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
  private var appInterner = NameInterner<AppID>()
  private var categoryInterner = NameInterner<AppCategory>()
  private(set) var groups: [Group] = []
  private var groupNumbers: [Int64: Int32] = [:]
  /// A direct-mapped cache in front of `groupNumbers`: (category, app) key and group, by slot.
  private var groupCacheKeys = [Int64](repeating: -1, count: 256)
  private var groupCacheValues = [Int32](repeating: -1, count: 256)
  /// For each app, its group under the rules' category, or -1 until first needed.
  private var ruleGroupOfApp: [Int32] = []
  private var uncategorized: Set<Int32> = []

  init(rules: CategoryRules) {
    self.rules = rules
  }

  /// The records' non-empty parts inside `lower..<upper` as sweep items, sorted by start, and
  /// the latest end among them.
  ///
  /// Each record's app is numbered from its UTF-8 bytes (``AppInterner``): no string is copied,
  /// retained or compared as a `String` on this path, whether consecutive records share an app
  /// or not.
  mutating func items(of records: [UsageRecord], from lower: Int64, to upper: Int64)
    -> (items: [SweepItem], end: Int64)
  {
    var items: [SweepItem] = []
    items.reserveCapacity(records.count)
    var sorted = true
    var previousStart = Int64.min
    var latestEnd = Int64.min
    // Records are read in place by index: copying one would retain and release its strings.
    for index in records.indices {
      let start = max(records[index].startInstant, lower)
      let end = min(records[index].endInstant, upper)
      guard end > start else { continue }
      let app = appNumber(records[index].app)
      let group: Int32
      if let category = records[index].category {
        group = groupNumber(category: categoryNumber(category), app: app)
      } else {
        group = ruleGroup(app: app)
      }
      if start < previousStart { sorted = false }
      previousStart = start
      if end > latestEnd { latestEnd = end }
      items.append(SweepItem(start: start, end: end, group: group))
    }
    if !sorted { items.sort { $0.start < $1.start } }
    return (items, latestEnd)
  }

  var uncategorizedApps: [AppID] { uncategorized.map { apps[Int($0)] }.sorted() }

  /// The apps, by number.
  var apps: [AppID] { appInterner.names }
  /// The categories, by number.
  var categories: [AppCategory] { categoryInterner.names }

  private mutating func appNumber(_ app: AppID) -> Int32 {
    let number = appInterner.number(of: app)
    if Int(number) == ruleGroupOfApp.count { ruleGroupOfApp.append(-1) }
    return number
  }

  private mutating func categoryNumber(_ category: AppCategory) -> Int32 {
    categoryInterner.number(of: category)
  }

  private mutating func groupNumber(category: Int32, app: Int32) -> Int32 {
    let key = Int64(category) << 32 | Int64(app)
    let slot = Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    if groupCacheKeys[slot] == key { return groupCacheValues[slot] }
    let number: Int32
    if let known = groupNumbers[key] {
      number = known
    } else {
      number = Int32(groups.count)
      groups.append(Group(category: category, app: app))
      groupNumbers[key] = number
    }
    groupCacheKeys[slot] = key
    groupCacheValues[slot] = number
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
