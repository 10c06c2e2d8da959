/// Usage per local day, per category and per app: the result of ``UsageAggregator``.
///
/// ``days`` holds only days with some usage, in ascending order.
///
/// JSON form: `{"boundary": DayBoundary, "days": [DailyUsage, …], "uncategorizedApps": ["…"]}`.
public struct UsageReport: Sendable, Hashable, Codable {
  /// The day boundary the records were bucketed with.
  public let boundary: DayBoundary
  /// Each day with usage, in ascending order.
  public let days: [DailyUsage]
  /// Apps whose records carried no category and that no rule matched, so they were counted as
  /// ``Category/other``; sorted.
  public let uncategorizedApps: [AppID]

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - boundary: The day boundary used.
  ///   - days: Each day with usage, in ascending order.
  ///   - uncategorizedApps: Apps counted as `other` because no rule matched them.
  public init(boundary: DayBoundary, days: [DailyUsage], uncategorizedApps: [AppID]) {
    self.boundary = boundary
    self.days = days
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
}
