import Foundation
import TestSupport
import UsageModel

/// `UsageAggregator.aggregate` on a million records against a naive `Calendar` bucketing and a
/// plain summing loop over the same array.
enum UsageModelBenchmarks {
  static let suite = BenchmarkSuite(
    name: "usagemodel",
    summary: "aggregating 1M records (365 days, New York) vs Calendar per record and a plain loop",
    run: run
  )

  static func run(_ options: BenchmarkOptions, _ report: inout Report) throws {
    let count = options.quick ? 50_000 : 1_000_000
    let workload = try Workload(count: count)
    let aggregator = UsageAggregator(boundary: workload.boundary, rules: workload.rules)
    let note = "\(count) records, \(workload.dayCount) days, America/New_York"

    let naive = Measurement.bulk(
      "naive: Calendar.startOfDay per record", rounds: options.quick ? 2 : 3
    ) {
      consume(naiveAggregate(workload))
    }
    let plain = Measurement.bulk("plain loop: sum per app", rounds: options.quick ? 3 : 10) {
      consume(plainSum(workload.records))
    }
    let measured = Measurement.bulk("UsageAggregator.aggregate", rounds: options.quick ? 3 : 10) {
      consume(aggregator.aggregate(workload.records))
    }
    let switching = try Workload(count: count, appChangesPerTen: 10)
    let everyPiece = Measurement.bulk(
      "UsageAggregator.aggregate, app drawn at every piece", rounds: options.quick ? 3 : 10
    ) {
      consume(aggregator.aggregate(switching.records))
    }
    let mixed = try Workload(count: count, mixedCategories: true)
    let twoCategories = Measurement.bulk(
      "UsageAggregator.aggregate, 4 apps under two categories", rounds: options.quick ? 3 : 10
    ) {
      consume(aggregator.aggregate(mixed.records))
    }
    let shuffled = Measurement.bulk(
      "UsageAggregator.aggregate, shuffled input", rounds: options.quick ? 3 : 5
    ) {
      consume(aggregator.aggregate(workload.shuffled))
    }

    report.add(
      Report.Row(
        suite: suite.name, measurement: measured, baseline: naive, target: .atLeastFaster(50),
        note: note))
    report.add(
      Report.Row(
        suite: suite.name, measurement: measured, baseline: plain, target: .atMost(10),
        note: note))
    report.add(
      Report.Row(
        suite: suite.name, measurement: everyPiece, baseline: naive, target: nil,
        note: note + "; a random app for every piece (defeats the same-app shortcut)"))
    report.add(
      Report.Row(
        suite: suite.name, measurement: twoCategories, baseline: plain, target: nil,
        note: note
          + "; every other piece of 4 apps carries a category of its own (per-app union level)"))
    report.add(
      Report.Row(
        suite: suite.name, measurement: shuffled, baseline: plain, target: nil,
        note: note + "; same records in random order (adds a sort)"))
  }

  /// What an app written by hand does: one `Calendar.startOfDay` per record, the whole record
  /// credited to the day it starts on (no split at midnight, no union of overlaps), `Double`
  /// seconds summed per day, category and app.
  static func naiveAggregate(_ workload: Workload) -> [Date: [AppCategory: [AppID: Double]]] {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = workload.boundary.timeZone
    var totals: [Date: [AppCategory: [AppID: Double]]] = [:]
    for record in workload.records {
      let day = calendar.startOfDay(for: record.start)
      let category = record.category ?? workload.ruleCategory[record.app] ?? .other
      totals[day, default: [:]][category, default: [:]][record.app, default: 0] +=
        record.end.timeIntervalSince(record.start)
    }
    return totals
  }

  /// The floor of any aggregation: each record's duration added into a per-app dictionary,
  /// with no days, no categories and no union.
  static func plainSum(_ records: [UsageRecord]) -> [AppID: Duration] {
    var totals: [AppID: Duration] = [:]
    for record in records { totals[record.app, default: .zero] += record.duration }
    return totals
  }
}

// Helpers of this suite, nested so that they cannot clash with other suites' names.
extension UsageModelBenchmarks {
  /// A deterministic year of usage as a heartbeat tracker records it.
  ///
  /// Pieces of 5-40 s, in order of start, of 40 apps; a random app (possibly the same) is drawn
  /// at one piece in ten; one piece in 20 is repeated by a second source. With
  /// `mixedCategories`, every other piece of the 4 apps whose ID ends in 5 carries a category of
  /// its own, so that those apps are counted under two categories.
  struct Workload {
    let boundary: DayBoundary
    let rules: CategoryRules
    let records: [UsageRecord]
    let shuffled: [UsageRecord]
    let ruleCategory: [AppID: AppCategory]
    let dayCount: Int

    /// Creates the workload.
    ///
    /// - Parameters:
    ///   - count: The number of records.
    ///   - appChangesPerTen: At how many pieces in ten a random app is drawn (10: every piece).
    ///   - mixedCategories: Whether 4 apps are recorded under two categories.
    /// - Throws: `UsageModelError` if a generated value were invalid.
    init(count: Int, appChangesPerTen: UInt64 = 1, mixedCategories: Bool = false) throws {
      guard let timeZone = TimeZone(identifier: "America/New_York") else {
        throw UsageModelError.unknownTimeZone(identifier: "America/New_York")
      }
      boundary = DayBoundary(timeZone: timeZone)
      let apps = try (0..<40).map { try AppID("com.example.app\($0)") }
      let rules = CategoryRules([
        try .prefix("com.example.app1", .socialMedia), try .prefix("com.example.app2", .gaming),
        .exact(apps[3], .entertainment), try .pattern("com.example.app?", .productivity),
      ])
      self.rules = rules
      ruleCategory = Dictionary(uniqueKeysWithValues: apps.map { ($0, rules.category(for: $0)) })

      var random = SplitMix64(seed: 0x0003_2026)
      let firstDay = try LocalDay(year: 2026, month: 1, day: 1)
      var cursor = boundary.start(of: firstDay)
      // Pieces of 5-40 s with 0-15 s between them, 30 s apart on average; one piece in 20 is a
      // duplicate that takes no time, so the steps are scaled for the records to span 365 days.
      let scale = 365.0 * 86_400 / (Double(count) * 0.95 * 30)
      var records: [UsageRecord] = []
      records.reserveCapacity(count)
      var app = apps[0]
      while records.count < count {
        if random.next() % 10 < appChangesPerTen { app = apps[Int(random.next() % 40)] }
        let seconds = Double(5 + random.next() % 36) * scale
        // The recorder knows the category of a few apps and leaves the rest to the rules.
        var category: AppCategory? = app.rawValue.hasSuffix("7") ? .education : nil
        if mixedCategories, app.rawValue.hasSuffix("5"), random.next() % 2 == 0 {
          category = .shopping
        }
        let record = try UsageRecord(
          app: app, category: category, start: cursor, duration: seconds, source: .heartbeat)
        records.append(record)
        if records.count < count, random.next() % 20 == 0 {
          records.append(
            try UsageRecord(
              app: app, category: category, start: record.start, end: record.end,
              source: .reportImport))
        }
        cursor = record.end.addingTimeInterval(Double(random.next() % 16) * scale)
      }
      self.records = records
      var shuffled = records
      shuffled.shuffle(using: &random)
      self.shuffled = shuffled
      let lastDay = try boundary.day(containing: cursor)
      dayCount = firstDay.distance(to: lastDay) + 1
    }
  }

  /// Keeps a result alive so that the optimiser cannot drop the work that produced it.
  @inline(never)
  static func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
  }
}
