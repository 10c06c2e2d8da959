/// Usage per local day, per category and per app: the result of ``UsageAggregator``.
///
/// ``days`` holds only days with some usage, in ascending order, one entry per day; the
/// initialiser and the decoder sort the days they are given and refuse a day given twice, so
/// that the subscript's binary search always finds a day that is there.
///
/// JSON form: `{"boundary": DayBoundary, "days": [DailyUsage, …], "uncategorizedApps": ["…"]}`.
public struct UsageReport: Sendable, Hashable, Codable {
  /// The day boundary the records were bucketed with.
  public let boundary: DayBoundary
  /// Each day with usage, in ascending order, one entry per day.
  public let days: [DailyUsage]
  /// Apps whose records carried no category and that no rule matched, so they were counted as
  /// ``AppCategory/other``; sorted.
  public let uncategorizedApps: [AppID]

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - boundary: The day boundary used.
  ///   - days: Each day with usage, in any order; they are stored in ascending order.
  ///   - uncategorizedApps: Apps counted as `other` because no rule matched them, in any order;
  ///     they are stored sorted.
  /// - Throws: ``UsageModelError/duplicateEntry(field:value:)`` when two entries name the same
  ///   day.
  /// - Complexity: O(*n* log *n*) for *n* days, O(*n*) when they are already in order.
  public init(boundary: DayBoundary, days: [DailyUsage], uncategorizedApps: [AppID])
    throws(UsageModelError)
  {
    let sortedDays = Self.isSorted(days) ? days : days.sorted { $0.day < $1.day }
    for (earlier, later) in zip(sortedDays, sortedDays.dropFirst()) where earlier.day == later.day {
      throw .duplicateEntry(field: "days", value: later.day.description)
    }
    self.init(
      boundary: boundary, sortedDays: sortedDays, uncategorizedApps: uncategorizedApps.sorted())
  }

  /// Creates a report from days already in ascending order, one per day, and sorted apps.
  init(boundary: DayBoundary, sortedDays: [DailyUsage], uncategorizedApps: [AppID]) {
    self.boundary = boundary
    self.days = sortedDays
    self.uncategorizedApps = uncategorizedApps
  }

  /// The usage of `day`, or `nil` when nothing was used that day.
  ///
  /// - Parameter day: A local day.
  /// - Returns: Its usage.
  /// - Complexity: O(log *n*) in the number of days.
  public subscript(day: LocalDay) -> DailyUsage? {
    var low = 0
    var high = days.count
    while low < high {
      let middle = (low + high) / 2
      if days[middle].day < day { low = middle + 1 } else { high = middle }
    }
    return low < days.count && days[low].day == day ? days[low] : nil
  }

  /// The device's total time in use over all days.
  public var total: Duration { days.reduce(.zero) { $0 + $1.total } }

  private static func isSorted(_ days: [DailyUsage]) -> Bool {
    zip(days, days.dropFirst()).allSatisfy { $0.day <= $1.day }
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case boundary
    case days
    case uncategorizedApps
  }

  /// Decodes the documented JSON form; days and apps may come in any order.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field, also when `days` names a
  ///   day twice.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let boundary = try container.decode(DayBoundary.self, forKey: .boundary)
    let days = try container.decode([DailyUsage].self, forKey: .days)
    let apps = try container.decode([AppID].self, forKey: .uncategorizedApps)
    do {
      try self.init(boundary: boundary, days: days, uncategorizedApps: apps)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .days, in: container, debugDescription: error.description)
    }
  }
}
