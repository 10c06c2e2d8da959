import Foundation
import TestSupport
import Testing
import UsageModel

/// A million random records against a reference written the simplest way: minute coverage
/// counted with difference arrays, and day boundaries from Foundation's `Calendar`.
@Suite("Aggregation against a reference")
struct AggregationPropertyTests {
  /// Records are whole minutes inside these 40 days, which include the 23-hour 2026-03-08.
  static let dayCount = 40
  static let recordCount = 1_000_000

  @Test("a million random records aggregate exactly as the reference says")
  func millionRecordsMatchReference() throws {
    let timeZone = try zone("America/New_York")
    let calendar = gregorian(timeZone)
    let firstDay = try instant("2026-02-20T00:00:00-05:00")
    // Foundation's day starts, as minute offsets from the first day's start.
    var dayStartMinutes: [Int] = []
    var cursor = firstDay
    for _ in 0...Self.dayCount {
      dayStartMinutes.append(Int(cursor.timeIntervalSince(firstDay) / 60))
      let next = try #require(calendar.date(byAdding: .day, value: 1, to: cursor))
      cursor = calendar.startOfDay(for: next)
    }
    let minuteCount = dayStartMinutes[Self.dayCount]

    let apps = try (0..<12).map { try AppID("com.example.app\($0)") }
    let rules = CategoryRules([
      try .prefix("com.example.app1", .gaming),  // app1, app10, app11
      .exact(apps[2], .socialMedia), .exact(apps[3], .socialMedia),
      try .pattern("com.example.app?", .productivity),
    ])
    let explicit: [AppCategory?] = [nil, nil, nil, .education, .shopping]
    let sources = UsageSource.allCases

    // The reference's state: difference arrays per (category, app), per category, per app over
    // all its categories, and for the device. A record's category and (category, app) depend
    // only on its app and its explicit category, so they are numbered once per pair.
    var categoryNames: [AppCategory] = []
    var groupNames: [(category: AppCategory, app: AppID)] = []
    let slots = explicit.map { category in
      apps.map { app in
        let resolved = category ?? rules.category(for: app)
        if !categoryNames.contains(resolved) { categoryNames.append(resolved) }
        if !groupNames.contains(where: { $0 == (resolved, app) }) {
          groupNames.append((resolved, app))
        }
        return (
          category: categoryNames.firstIndex(of: resolved) ?? 0,
          group: groupNames.firstIndex { $0 == (resolved, app) } ?? 0
        )
      }
    }
    let empty = [Int32](repeating: 0, count: minuteCount + 1)
    var groupDiffs = Array(repeating: empty, count: groupNames.count)
    var categoryDiffs = Array(repeating: empty, count: categoryNames.count)
    var appDiffs = Array(repeating: empty, count: apps.count)
    var deviceDiff = empty

    var random = SplitMix64(seed: 0x5EED_0003)
    var records: [UsageRecord] = []
    records.reserveCapacity(Self.recordCount)
    for _ in 0..<Self.recordCount {
      let appIndex = Int(random.next() % 12)
      let choice = Int(random.next() % 5)
      let startMinute = Int(random.next() % UInt64(minuteCount))
      let length = min(Int(random.next() % 91), minuteCount - startMinute)
      records.append(
        try UsageRecord(
          app: apps[appIndex], category: explicit[choice],
          start: firstDay.addingTimeInterval(Double(startMinute * 60)),
          duration: .seconds(length * 60), source: sources[Int(random.next() % 4)]))
      guard length > 0 else { continue }
      let (category, group) = slots[choice][appIndex]
      groupDiffs[group][startMinute] += 1
      groupDiffs[group][startMinute + length] -= 1
      categoryDiffs[category][startMinute] += 1
      categoryDiffs[category][startMinute + length] -= 1
      appDiffs[appIndex][startMinute] += 1
      appDiffs[appIndex][startMinute + length] -= 1
      deviceDiff[startMinute] += 1
      deviceDiff[startMinute + length] -= 1
    }

    /// Covered minutes per day of one difference array.
    func coveredMinutesPerDay(_ diff: [Int32]) -> [Int] {
      var perDay = [Int](repeating: 0, count: Self.dayCount)
      var depth: Int32 = 0
      var day = 0
      for minute in 0..<minuteCount {
        depth += diff[minute]
        while minute >= dayStartMinutes[day + 1] { day += 1 }
        if depth > 0 { perDay[day] += 1 }
      }
      return perDay
    }

    let report = UsageAggregator(boundary: DayBoundary(timeZone: timeZone), rules: rules)
      .aggregate(records)

    let device = coveredMinutesPerDay(deviceDiff)
    #expect(report.days.count == device.filter { $0 > 0 }.count)
    let days = Dictionary(uniqueKeysWithValues: report.days.map { ($0.day, $0) })
    let localFirstDay = try day("2026-02-20")
    for (offset, minutes) in device.enumerated() where minutes > 0 {
      let usage = try #require(days[localFirstDay.advanced(by: offset)])
      #expect(usage.total == .minutes(minutes), "device total of \(usage.day)")
      #expect(usage.length == .minutes(dayStartMinutes[offset + 1] - dayStartMinutes[offset]))
      #expect(usage.total <= usage.length)
    }
    for (category, diff) in zip(categoryNames, categoryDiffs) {
      for (offset, minutes) in coveredMinutesPerDay(diff).enumerated() {
        let reported = days[localFirstDay.advanced(by: offset)]?.usage(of: category)?.total
        #expect((reported ?? .zero) == .minutes(minutes), "\(category) on day \(offset)")
      }
    }
    for (app, diff) in zip(apps, appDiffs) {
      for (offset, minutes) in coveredMinutesPerDay(diff).enumerated() {
        let reported = days[localFirstDay.advanced(by: offset)]?.total(of: app)
        #expect((reported ?? .zero) == .minutes(minutes), "\(app) on day \(offset)")
      }
    }
    for (group, diff) in zip(groupNames, groupDiffs) {
      for (offset, minutes) in coveredMinutesPerDay(diff).enumerated() {
        let reported = days[localFirstDay.advanced(by: offset)]?.usage(of: group.category)?.total(
          of: group.app)
        #expect((reported ?? .zero) == .minutes(minutes), "\(group) on day \(offset)")
      }
    }
  }
}
