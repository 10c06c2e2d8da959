import Foundation
import TestSupport
import UsageModel

/// `UsageAggregator.aggregate` on a million records against a naive `Calendar` bucketing and a
/// plain summing loop over the same array.
enum UsageModelBenchmarks {
  static let suite = BenchmarkSuite(
    name: "usagemodel",
    summary: "aggregating 1M records (365 days, New York) vs Calendar per record and a plain loop",
    scenarios: [
      Scenario([Shape.runs.scenario]) { try run(.runs, $0, &$1) },
      Scenario([Shape.everyRecord.scenario]) { try run(.everyRecord, $0, &$1) },
      Scenario([Shape.twoCategories.scenario]) { try run(.twoCategories, $0, &$1) },
      Scenario([Shape.shuffled.scenario]) { try run(.shuffled, $0, &$1) },
    ]
  )

  /// The records each scenario aggregates.
  enum Shape {
    /// Runs of one app, a random app drawn at one record in ten, as trackers record usage.
    case runs
    /// A random app drawn at every record: the same-app shortcut almost never applies.
    case everyRecord
    /// Every other record of 4 apps carries a category of its own: a fourth union level runs.
    case twoCategories
    /// The records of ``runs`` in random order: the aggregator sorts them first.
    case shuffled

    var scenario: String {
      switch self {
      case .runs: return "UsageAggregator.aggregate"
      case .everyRecord: return "UsageAggregator.aggregate, a random app at every record"
      case .twoCategories: return "UsageAggregator.aggregate, 4 apps under two categories"
      case .shuffled: return "UsageAggregator.aggregate, shuffled input"
      }
    }

    var detail: String {
      switch self {
      case .runs: return "a random app at one record in ten"
      case .everyRecord: return "a random app drawn at every record (defeats the same-app shortcut)"
      case .twoCategories:
        return "every other record of 4 apps carries a category of its own (per-app union level)"
      case .shuffled: return "the records of the first row in random order (adds a sort)"
      }
    }
  }

  static let naiveLimit =
    "The naive code calls Calendar.startOfDay per record, about 2 µs on Linux; the aggregator "
    + "resolves each day's start once for the year and walks the sorted records with at most "
    + "one hash lookup per record, tens of nanoseconds."
  static let plainLimit =
    "One dictionary update per record is the floor of any aggregation; splitting at midnight "
    + "and the union sweeps add a constant amount of work per record."

  static func run(_ shape: Shape, _ options: BenchmarkOptions, _ report: inout Report) throws {
    // A quick run keeps the records' density, 2,740 a day, over fewer days: a day costs the
    // aggregator its own work (the day's totals), so fewer records over a year would not compare.
    let count = options.size(1_000_000, quick: 50_000)
    let workload = try Workload(
      count: count, days: options.size(365, quick: 18),
      appChangesPerTen: shape == .everyRecord ? 10 : 1, mixedCategories: shape == .twoCategories)
    let records = shape == .shuffled ? workload.shuffled : workload.records
    let aggregator = UsageAggregator(boundary: workload.boundary, rules: workload.rules)
    let workSize = "\(count.grouped) records, \(workload.dayCount) days"
    let note = "America/New_York, both DST changes; \(shape.detail)"

    // Each comparison times the aggregator alternately with its baseline, a round each, so that
    // both see the same load.
    if shape != .shuffled {
      let (measured, naive) = Measurement.paired(
        shape.scenario, against: "naive: Calendar.startOfDay per record",
        iterations: options.quick ? 3 : 5, warmup: 1, clock: .cpu,
        baseline: { consume(naiveAggregate(workload)) },
        measuring: { consume(aggregator.aggregate(records)) })
      report.add(
        Report.Row(
          suite: suite.name, scenario: shape.scenario, workSize: workSize,
          figure: .init(measured), baseline: Report.Baseline(naive), target: .atLeastFaster(50),
          limit: naiveLimit,
          note: note + "; the naive baseline aggregates the same records; timed alternately"))
    }
    let (measured, plain) = Measurement.paired(
      shape.scenario, against: "plain loop: sum per app", iterations: options.quick ? 5 : 10,
      warmup: 1, clock: .cpu, baseline: { consume(plainSum(records)) },
      measuring: { consume(aggregator.aggregate(records)) })
    report.add(
      Report.Row(
        suite: suite.name, scenario: shape.scenario, workSize: workSize,
        figure: .init(measured), baseline: Report.Baseline(plain),
        target: shape == .shuffled ? nil : .atMost(10),
        limit: shape == .shuffled ? nil : plainLimit, note: note + "; timed alternately"))
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
  /// A deterministic span of usage (a year in a full run) as a heartbeat tracker records it.
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
    ///   - days: How many days the records span, about.
    ///   - appChangesPerTen: At how many pieces in ten a random app is drawn (10: every piece).
    ///   - mixedCategories: Whether 4 apps are recorded under two categories.
    /// - Throws: `UsageModelError` if a generated value were invalid.
    init(count: Int, days: Int, appChangesPerTen: UInt64 = 1, mixedCategories: Bool = false)
      throws
    {
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
      // duplicate that takes no time, so the steps are scaled for the records to span the days.
      let scale = Double(days) * 86_400 / (Double(count) * 0.95 * 30)
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
